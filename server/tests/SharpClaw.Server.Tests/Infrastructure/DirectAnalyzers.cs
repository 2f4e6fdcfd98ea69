using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// The truth diagnostics answers are compared with: one project of a fixture's solution loaded by Roslyn's own
/// MSBuildWorkspace (not SharpClaw's loader), its compilation and every analyzer it references, run by a plain
/// <see cref="CompilationWithAnalyzers"/>.
/// </summary>
internal sealed class DirectAnalyzers : IDisposable
{
    private readonly LoadedWorkspace loaded;

    private DirectAnalyzers(LoadedWorkspace loaded, Project project, Compilation compilation, ImmutableArray<DiagnosticAnalyzer> analyzers)
    {
        this.loaded = loaded;
        this.Compilation = compilation;
        this.WithAnalyzers = compilation.WithAnalyzers(analyzers, project.AnalyzerOptions);
    }

    public Compilation Compilation { get; }

    /// <summary>The compilation with every analyzer the project references.</summary>
    public CompilationWithAnalyzers WithAnalyzers { get; }

    /// <summary>Loads <paramref name="solution"/> of <paramref name="fixture"/> and takes the project named <paramref name="projectName"/> (with its flavour, as Roslyn names it).</summary>
    public static async Task<DirectAnalyzers> LoadAsync(FixtureWorkspace fixture, string solution, string projectName)
    {
        LoadedWorkspace loaded = await InProcessLoad.SolutionAsync(fixture, solution);
        Project project = loaded.Solution.Projects.Single(p => p.Name == projectName);
        Compilation compilation = (await project.GetCompilationAsync())!;
        ImmutableArray<DiagnosticAnalyzer> analyzers = [.. project.AnalyzerReferences.SelectMany(r => r.GetAnalyzers(LanguageNames.CSharp))];
        Assert.NotEmpty(analyzers);
        return new DirectAnalyzers(loaded, project, compilation, analyzers);
    }

    public void Dispose() => this.loaded.Dispose();
}
