using System.Collections.Concurrent;
using System.Collections.Immutable;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// Compiler plus kept-analyzer diagnostics, computed once per compilation snapshot and analyzer selection: the
/// analyzers a project kept after filtering (<see cref="Project.AnalyzerReferences"/>) are narrowed by the caller
/// to those that can report what is asked (<see cref="AnalyzerSelection"/>) and run over one
/// <see cref="CompilationWithAnalyzers"/> per compilation and selection; with none selected, the compiler's
/// own diagnostics are computed without an analyzer driver. The results of a whole-compilation pass or of one
/// file are kept with the compilation (a <see cref="ConditionalWeakTable{TKey, TValue}"/>: they go when the
/// snapshot goes). A changed project has a new compilation, so nothing stale is ever returned; a repeated warm
/// call costs a lookup.
/// </summary>
internal static class CompilationAnalyzers
{
    private static readonly ConditionalWeakTable<Compilation, Entry> Cache = [];

    /// <summary>The analyzers the project kept (SDK analyzers after filtering), in reference order.</summary>
    public static ImmutableArray<DiagnosticAnalyzer> Kept(Project project, Compilation compilation) => EntryFor(project, compilation).Analyzers;

    /// <summary>Every compiler diagnostic of the compilation and every diagnostic of <paramref name="analyzers"/> (unfiltered).</summary>
    public static Task<ImmutableArray<Diagnostic>> AllAsync(Project project, Compilation compilation, ImmutableArray<DiagnosticAnalyzer> analyzers, CancellationToken cancellationToken)
    {
        Entry entry = EntryFor(project, compilation);
        Selection selection = entry.SelectionFor(analyzers, compilation);
        return Shared(ref selection.All, () => selection.WithAnalyzers is null
            ? Task.FromResult(compilation.GetDiagnostics(CancellationToken.None))
            : selection.WithAnalyzers.GetAllDiagnosticsAsync(CancellationToken.None), cancellationToken);
    }

    /// <summary>The compiler's semantic diagnostics and the syntax and semantic diagnostics of <paramref name="analyzers"/> in one file.</summary>
    public static Task<ImmutableArray<Diagnostic>> FileAsync(Project project, Compilation compilation, SyntaxTree tree, ImmutableArray<DiagnosticAnalyzer> analyzers, CancellationToken cancellationToken)
    {
        Entry entry = EntryFor(project, compilation);
        Selection selection = entry.SelectionFor(analyzers, compilation);
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

        /// <summary>The results of one analyzer selection (a subset of <see cref="Analyzers"/>), named by the indexes it keeps.</summary>
        public Selection SelectionFor(ImmutableArray<DiagnosticAnalyzer> selected, Compilation compilation)
        {
            HashSet<DiagnosticAnalyzer> set = [.. selected];
            string key = string.Join(',', Enumerable.Range(0, this.Analyzers.Length).Where(i => set.Contains(this.Analyzers[i])));
            return this.selections.GetOrAdd(key, _ => new Selection(selected.IsEmpty ? null : compilation.WithAnalyzers(selected, this.Options)));
        }
    }

    private sealed class Selection(CompilationWithAnalyzers? withAnalyzers)
    {
        public Task<ImmutableArray<Diagnostic>>? All;

        public CompilationWithAnalyzers? WithAnalyzers { get; } = withAnalyzers;

        public ConcurrentDictionary<SyntaxTree, Task<ImmutableArray<Diagnostic>>> Files { get; } = new();
    }
}
