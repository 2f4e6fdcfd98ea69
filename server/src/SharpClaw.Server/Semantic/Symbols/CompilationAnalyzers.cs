using System.Collections.Immutable;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// One <see cref="CompilationWithAnalyzers"/> per compilation snapshot and analyzer set: the analyzers a project
/// kept after filtering (<see cref="Project.AnalyzerReferences"/>) run once per compilation, and later diagnostics
/// calls on the same, unchanged compilation reuse Roslyn's analysis state and results instead of starting every
/// analyzer again. A changed project has a new compilation, so nothing stale is ever reused.
/// </summary>
internal static class CompilationAnalyzers
{
    private static readonly ConditionalWeakTable<Compilation, Entry> Cache = [];

    /// <summary>The analyzers of <paramref name="project"/> over <paramref name="compilation"/>, or null when it keeps none.</summary>
    public static CompilationWithAnalyzers? For(Project project, Compilation compilation)
    {
        ImmutableArray<DiagnosticAnalyzer> analyzers = [.. project.AnalyzerReferences.SelectMany(r => r.GetAnalyzers(project.Language))];
        if (analyzers.IsEmpty)
        {
            return null;
        }

        Entry entry = Cache.GetValue(compilation, c => new Entry(analyzers, c.WithAnalyzers(analyzers, project.AnalyzerOptions)));
        if (!entry.Analyzers.SequenceEqual(analyzers))
        {
            // The same compilation with another analyzer set (not seen in practice): a fresh, uncached run.
            return compilation.WithAnalyzers(analyzers, project.AnalyzerOptions);
        }

        return entry.WithAnalyzers;
    }

    private sealed record Entry(ImmutableArray<DiagnosticAnalyzer> Analyzers, CompilationWithAnalyzers WithAnalyzers);
}
