using System.Collections.Concurrent;
using System.Collections.Immutable;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// Compiler plus kept-analyzer diagnostics, computed once per compilation snapshot: the analyzers a project kept
/// after filtering (<see cref="Project.AnalyzerReferences"/>) run over one <see cref="CompilationWithAnalyzers"/>
/// per compilation, and the results of a whole-compilation pass or of one file are kept with the compilation
/// (a <see cref="ConditionalWeakTable{TKey, TValue}"/>: they go when the snapshot goes). A changed project has a
/// new compilation, so nothing stale is ever returned; a repeated warm call costs a lookup.
/// </summary>
internal static class CompilationAnalyzers
{
    private static readonly ConditionalWeakTable<Compilation, Entry> Cache = [];

    /// <summary>Every compiler and analyzer diagnostic of the compilation (unfiltered).</summary>
    public static Task<ImmutableArray<Diagnostic>> AllAsync(Project project, Compilation compilation, CancellationToken cancellationToken)
    {
        Entry entry = EntryFor(project, compilation);
        return Shared(ref entry.All, () => entry.WithAnalyzers is null
            ? Task.FromResult(compilation.GetDiagnostics(CancellationToken.None))
            : entry.WithAnalyzers.GetAllDiagnosticsAsync(CancellationToken.None), cancellationToken);
    }

    /// <summary>The compiler's semantic diagnostics and the analyzers' syntax and semantic diagnostics of one file.</summary>
    public static Task<ImmutableArray<Diagnostic>> FileAsync(Project project, Compilation compilation, SyntaxTree tree, CancellationToken cancellationToken)
    {
        Entry entry = EntryFor(project, compilation);
        Task<ImmutableArray<Diagnostic>> task = entry.Files.GetOrAdd(tree, t => Task.Run(async () =>
        {
            SemanticModel model = compilation.GetSemanticModel(t);
            List<Diagnostic> found = [.. model.GetDiagnostics()];
            if (entry.WithAnalyzers is { } withAnalyzers)
            {
                found.AddRange(await withAnalyzers.GetAnalyzerSyntaxDiagnosticsAsync(t, CancellationToken.None).ConfigureAwait(false));
                found.AddRange(await withAnalyzers.GetAnalyzerSemanticDiagnosticsAsync(model, null, CancellationToken.None).ConfigureAwait(false));
            }

            return found.ToImmutableArray();
        }));
        if (task.IsFaulted || task.IsCanceled)
        {
            entry.Files.TryRemove(new KeyValuePair<SyntaxTree, Task<ImmutableArray<Diagnostic>>>(tree, task)); // the next call tries again
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

        ImmutableArray<DiagnosticAnalyzer> analyzers = [.. project.AnalyzerReferences.SelectMany(r => r.GetAnalyzers(project.Language))];
        Entry entry = new(project.AnalyzerOptions, analyzers.IsEmpty ? null : compilation.WithAnalyzers(analyzers, project.AnalyzerOptions));
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

    private sealed class Entry(AnalyzerOptions options, CompilationWithAnalyzers? withAnalyzers)
    {
        public Task<ImmutableArray<Diagnostic>>? All;

        public AnalyzerOptions Options { get; } = options;

        public CompilationWithAnalyzers? WithAnalyzers { get; } = withAnalyzers;

        public ConcurrentDictionary<SyntaxTree, Task<ImmutableArray<Diagnostic>>> Files { get; } = new();
    }
}
