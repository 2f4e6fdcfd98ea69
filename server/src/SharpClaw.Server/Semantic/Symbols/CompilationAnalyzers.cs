using System.Collections.Concurrent;
using System.Collections.Immutable;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// Compiler plus kept-analyzer diagnostics, computed once per compilation snapshot and analyzer narrowing: the
/// analyzers a project kept after filtering (<see cref="Project.AnalyzerReferences"/>) are narrowed to those that
/// can report what is asked, and per file to the rules that can reach the asked severity there
/// (<see cref="AnalyzerSelection"/>, computed once per compilation, severity, ids and files: <see cref="Narrow"/>),
/// and run over one <see cref="CompilationWithAnalyzers"/> per compilation and narrowing. The rules a file cannot
/// raise to the asked severity are reported as suppressed in that file to the analyzer driver only (a
/// <see cref="SilencingOptions"/> over the compilation's own), so Roslyn skips an analyzer in the files where
/// none of its rules can be listed; the compiler's diagnostics and every rule that can reach the severity keep
/// their own values. With no analyzer selected, the compiler's own diagnostics are computed without an analyzer
/// driver. The results of a whole-compilation pass or of one file are kept with the compilation (a
/// <see cref="ConditionalWeakTable{TKey, TValue}"/>: they go when the snapshot goes). A changed project has a new
/// compilation, so nothing stale is ever returned; a repeated warm call costs a lookup.
/// </summary>
internal static class CompilationAnalyzers
{
    private static readonly ConditionalWeakTable<Compilation, Entry> Cache = [];

    /// <summary>
    /// The kept analyzers that can report at rank <paramref name="minimum"/> (and <paramref name="ids"/>) in
    /// <paramref name="trees"/>, and per file the rules that cannot (<see cref="AnalyzerSelection.Select"/>), computed
    /// once per compilation snapshot and question.
    /// </summary>
    public static Narrowing Narrow(Project project, Compilation compilation, IReadOnlyCollection<SyntaxTree> trees, int minimum, IReadOnlySet<string>? ids, CancellationToken cancellationToken)
    {
        Entry entry = EntryFor(project, compilation);
        string key = string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{minimum}|{(ids is null ? "*" : string.Join(',', ids.Select(i => i.ToUpperInvariant()).Order(StringComparer.Ordinal)))}|{string.Join('|', trees.Select(t => t.FilePath).Order(StringComparer.Ordinal))}");
        if (entry.Narrowings.TryGetValue(key, out Narrowing? known))
        {
            return known;
        }

        Narrowing narrowing = AnalyzerSelection.Select(entry.Analyzers, compilation.Options, project.AnalyzerOptions, trees, minimum, ids, cancellationToken);
        return entry.Narrowings.GetOrAdd(key, narrowing);
    }

    /// <summary>Every compiler diagnostic of the compilation and every diagnostic of the narrowed analyzers (unfiltered).</summary>
    public static Task<ImmutableArray<Diagnostic>> AllAsync(Project project, Compilation compilation, Narrowing narrowing, CancellationToken cancellationToken)
    {
        Entry entry = EntryFor(project, compilation);
        Selection selection = entry.SelectionFor(narrowing, compilation);
        return Shared(ref selection.All, () => selection.WithAnalyzers is null
            ? Task.FromResult(compilation.GetDiagnostics(CancellationToken.None))
            : selection.WithAnalyzers.GetAllDiagnosticsAsync(CancellationToken.None), cancellationToken);
    }

    /// <summary>The compiler's semantic diagnostics and the syntax and semantic diagnostics of the narrowed analyzers in one file.</summary>
    public static Task<ImmutableArray<Diagnostic>> FileAsync(Project project, Compilation compilation, SyntaxTree tree, Narrowing narrowing, CancellationToken cancellationToken)
    {
        Entry entry = EntryFor(project, compilation);
        Selection selection = entry.SelectionFor(narrowing, compilation);
        Task<ImmutableArray<Diagnostic>> task = selection.Files.GetOrAdd(tree, t => Task.Run(async () =>
        {
            SemanticModel model = compilation.GetSemanticModel(t);
            List<Diagnostic> found = [.. model.GetDiagnostics()];
            if (selection.WithAnalyzers is { } withAnalyzers)
            {
                found.AddRange(await withAnalyzers.GetAnalyzerSyntaxDiagnosticsAsync(t, CancellationToken.None).ConfigureAwait(false));
                found.AddRange(await withAnalyzers.GetAnalyzerSemanticDiagnosticsAsync(model, null, CancellationToken.None).ConfigureAwait(false));
            }

            return found.ToImmutableArray();
        }));
        if (task.IsFaulted || task.IsCanceled)
        {
            selection.Files.TryRemove(new KeyValuePair<SyntaxTree, Task<ImmutableArray<Diagnostic>>>(tree, task)); // the next call tries again
        }

        return task.IsCompleted ? task : task.WaitAsync(cancellationToken);
    }

    /// <summary>
    /// The entry of this compilation for this project snapshot. Analyzer inputs that are not compilation inputs
    /// (additional files) can change while Roslyn keeps the compilation, so the entry also belongs to the
    /// project's <see cref="Project.AnalyzerOptions"/> instance (new for every project snapshot): another instance
    /// starts a fresh entry.
    /// </summary>
    private static Entry EntryFor(Project project, Compilation compilation)
    {
        if (Cache.TryGetValue(compilation, out Entry? cached) && ReferenceEquals(cached.Options, project.AnalyzerOptions))
        {
            return cached;
        }

        Entry entry = new(project.AnalyzerOptions, [.. project.AnalyzerReferences.SelectMany(r => r.GetAnalyzers(project.Language))]);
        Cache.AddOrUpdate(compilation, entry);
        return entry;
    }

    /// <summary>
    /// One computation shared by every caller (it runs to completion even when a caller gives up, so the next
    /// caller finds it); a failed one is forgotten so the next call starts again.
    /// </summary>
    private static Task<ImmutableArray<Diagnostic>> Shared(ref Task<ImmutableArray<Diagnostic>>? slot, Func<Task<ImmutableArray<Diagnostic>>> start, CancellationToken cancellationToken)
    {
        Task<ImmutableArray<Diagnostic>>? task = Volatile.Read(ref slot);
        if (task is null || task.IsFaulted || task.IsCanceled)
        {
            Task<ImmutableArray<Diagnostic>> fresh = Task.Run(start);
            task = Interlocked.CompareExchange(ref slot, fresh, task) ?? fresh;
            if (!ReferenceEquals(task, fresh) && (task.IsFaulted || task.IsCanceled))
            {
                task = fresh;
            }
        }

        return task.IsCompleted ? task : task.WaitAsync(cancellationToken);
    }

    private sealed class Entry(AnalyzerOptions options, ImmutableArray<DiagnosticAnalyzer> analyzers)
    {
        private readonly ConcurrentDictionary<string, Selection> selections = new(StringComparer.Ordinal);

        public AnalyzerOptions Options { get; } = options;

        public ImmutableArray<DiagnosticAnalyzer> Analyzers { get; } = analyzers;

        /// <summary>The narrowings computed for this snapshot, by severity, ids and files.</summary>
        public ConcurrentDictionary<string, Narrowing> Narrowings { get; } = new(StringComparer.Ordinal);

        /// <summary>
        /// The results of one narrowing (a subset of <see cref="Analyzers"/>, rules silenced per file), named by the
        /// indexes it keeps and the rules it silences in each file.
        /// </summary>
        public Selection SelectionFor(Narrowing narrowing, Compilation compilation)
        {
            HashSet<DiagnosticAnalyzer> set = [.. narrowing.Analyzers];
            string key = string.Join(',', Enumerable.Range(0, this.Analyzers.Length).Where(i => set.Contains(this.Analyzers[i])))
                + "|" + string.Join('|', narrowing.Silenced.Select(p => p.Key.FilePath + ":" + string.Join(',', p.Value.Order(StringComparer.Ordinal))).Order(StringComparer.Ordinal));
            return this.selections.GetOrAdd(key, _ => new Selection(narrowing.Analyzers.IsEmpty ? null : Silenced(compilation, narrowing).WithAnalyzers(narrowing.Analyzers, this.Options)));
        }

        /// <summary>The compilation the analyzer driver sees: the same, with the narrowing's rules silenced in their files.</summary>
        private static Compilation Silenced(Compilation compilation, Narrowing narrowing) => narrowing.Silenced.IsEmpty
            ? compilation
            : compilation.WithOptions(compilation.Options.WithSyntaxTreeOptionsProvider(new SilencingOptions(compilation.Options.SyntaxTreeOptionsProvider, narrowing.Silenced)));
    }

    private sealed class Selection(CompilationWithAnalyzers? withAnalyzers)
    {
        public Task<ImmutableArray<Diagnostic>>? All;

        public CompilationWithAnalyzers? WithAnalyzers { get; } = withAnalyzers;

        public ConcurrentDictionary<SyntaxTree, Task<ImmutableArray<Diagnostic>>> Files { get; } = new();
    }
}

/// <summary>
/// A compilation's <see cref="SyntaxTreeOptionsProvider"/> that reports the given rules as suppressed in the given
/// files and answers everything else as the compilation's own provider does. Roslyn skips an analyzer in a file
/// where all its rules are suppressed; the rules silenced are those that cannot reach the asked severity there
/// (<see cref="AnalyzerSelection"/>), so no listed diagnostic changes.
/// </summary>
internal sealed class SilencingOptions(SyntaxTreeOptionsProvider? inner, ImmutableDictionary<SyntaxTree, ImmutableHashSet<string>> silenced) : SyntaxTreeOptionsProvider
{
    public override GeneratedKind IsGenerated(SyntaxTree tree, CancellationToken cancellationToken) =>
        inner?.IsGenerated(tree, cancellationToken) ?? GeneratedKind.Unknown;

    public override bool TryGetDiagnosticValue(SyntaxTree tree, string diagnosticId, CancellationToken cancellationToken, out ReportDiagnostic severity)
    {
        if (silenced.TryGetValue(tree, out ImmutableHashSet<string>? ids) && ids.Contains(diagnosticId))
        {
            severity = ReportDiagnostic.Suppress;
            return true;
        }

        if (inner is not null)
        {
            return inner.TryGetDiagnosticValue(tree, diagnosticId, cancellationToken, out severity);
        }

        severity = ReportDiagnostic.Default;
        return false;
    }

    public override bool TryGetGlobalDiagnosticValue(string diagnosticId, CancellationToken cancellationToken, out ReportDiagnostic severity)
    {
        if (inner is not null)
        {
            return inner.TryGetGlobalDiagnosticValue(diagnosticId, cancellationToken, out severity);
        }

        severity = ReportDiagnostic.Default;
        return false;
    }
}
