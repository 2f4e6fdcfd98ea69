using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Discovery;

namespace SharpClaw.Server.Semantic.Evaluation;

/// <summary>A ProjectReference as evaluated.</summary>
/// <param name="Path">Full path of the referenced project.</param>
/// <param name="IsAnalyzer">OutputItemType="Analyzer": the reference brings an analyzer/generator.</param>
public sealed record EvaluatedProjectReference(string Path, bool IsAnalyzer);

/// <summary>What one target framework of a project builds (full paths).</summary>
public sealed record ProjectFrameworkOutput(string TargetFramework, string? TargetPath, string? IntermediateAssembly);

/// <summary>A PackageReference as evaluated (before restore).</summary>
public sealed record EvaluatedPackageReference(string Id, string? Version);

/// <summary>
/// One project as MSBuild evaluated it for a context. Multi-targeted projects without a requested
/// framework are evaluated once per framework; lists are the union over those inner evaluations.
/// All paths are full paths.
/// </summary>
public sealed record EvaluatedProject
{
    public required string Path { get; init; }

    /// <summary>The raw evaluated IsTestProject ("", "true", "false", ...).</summary>
    public required string IsTestProjectProperty { get; init; }

    public required string OutputType { get; init; }

    /// <summary>Evaluated IsTestingPlatformApplication=true in any framework (a Microsoft.Testing.Platform app).</summary>
    public bool IsTestingPlatformApplication { get; init; }

    /// <summary>Evaluated TestingPlatformDotnetTestSupport=true in any framework.</summary>
    public bool TestingPlatformDotnetTestSupport { get; init; }

    /// <summary>TargetPath and IntermediateAssembly per inner (or only) framework.</summary>
    public IReadOnlyList<ProjectFrameworkOutput> Outputs { get; init; } = [];

    /// <summary>EmbeddedResource, AdditionalFiles, Content and None items (union over frameworks).</summary>
    public IReadOnlyList<string> OtherItems { get; init; } = [];

    public required IReadOnlyList<string> TargetFrameworks { get; init; }

    public string? ProjectAssetsFile { get; init; }

    public string? ProjectExtensionsPath { get; init; }

    public string? BaseIntermediateOutputPath { get; init; }

    public string? BaseOutputPath { get; init; }

    public string? ArtifactsPath { get; init; }

    public required IReadOnlyList<string> CompileItems { get; init; }

    /// <summary>Evaluated <c>EnableDefaultCompileItems</c> (true unless the project turns the default globs off).</summary>
    public bool EnableDefaultCompileItems { get; init; } = true;

    /// <summary>Evaluated <c>DefaultItemExcludes</c> and <c>DefaultExcludesInProjectFolder</c>: globs relative to the project folder.</summary>
    public IReadOnlyList<string> DefaultItemExcludes { get; init; } = [];

    public required IReadOnlyList<EvaluatedProjectReference> ProjectReferences { get; init; }

    public required IReadOnlyList<EvaluatedPackageReference> PackageReferences { get; init; }

    /// <summary>Analyzer items visible at evaluation (project-declared; package analyzers come from targets).</summary>
    public required IReadOnlyList<string> AnalyzerItems { get; init; }

    public string Directory => System.IO.Path.GetDirectoryName(this.Path)!;
}

/// <summary>A project MSBuild could not evaluate.</summary>
public sealed record EvaluationFailure(string Path, string Reason);

/// <summary>Everything one evaluation pass produced for a context.</summary>
public sealed record EvaluationSnapshot
{
    public required TargetSelection Target { get; init; }

    public required string Configuration { get; init; }

    public string? TargetFramework { get; init; }

    /// <summary>Projects in evaluation order (the target's projects first, then referenced ones).</summary>
    public required IReadOnlyList<EvaluatedProject> Projects { get; init; }

    public required IReadOnlyList<EvaluationFailure> Failures { get; init; }

    /// <summary>Every build file MSBuild imported (SDK files too), when the pass was asked to list them and its log did; else null.</summary>
    public IReadOnlyList<string>? ImportedFiles { get; init; }

    /// <summary>When the pass started (UTC): files modified after this may not be reflected.</summary>
    public required DateTime StartedUtc { get; init; }

    public required TimeSpan Duration { get; init; }

    public EvaluatedProject? Find(string path) =>
        this.Projects.FirstOrDefault(p => p.Path.Equals(path, PathUtil.Comparison));
}
