using System.Text.Json.Serialization;

namespace SharpClaw.Protocol.Semantic;

/// <summary>Whether every project of the target loaded.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<LoadStatus>))]
public enum LoadStatus
{
    /// <summary>Every project loaded.</summary>
    [JsonStringEnumMemberName("complete")]
    Complete,

    /// <summary>Some projects failed (see <c>partialLoad</c>); the others are usable.</summary>
    [JsonStringEnumMemberName("partial")]
    Partial,
}

/// <summary>Where <c>isTestProject</c> came from.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<TestProjectSource>))]
public enum TestProjectSource
{
    /// <summary>The evaluated IsTestProject property (an explicit false wins).</summary>
    [JsonStringEnumMemberName("evaluated")]
    Evaluated,

    /// <summary>IsTestProject was empty; a Microsoft.NET.Test.Sdk PackageReference made it a test project.</summary>
    [JsonStringEnumMemberName("testSdkReference")]
    TestSdkReference,

    /// <summary>IsTestProject was empty; the evaluated IsTestingPlatformApplication=true (a Microsoft.Testing.Platform
    /// app: xunit.v3, MSTest.Sdk, TUnit) made it a test project.</summary>
    [JsonStringEnumMemberName("testingPlatformApplication")]
    TestingPlatformApplication,

    /// <summary>Neither: not a test project.</summary>
    [JsonStringEnumMemberName("absent")]
    Absent,
}

/// <summary>Where an excluded analyzer/generator came from.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<AnalyzerOrigin>))]
public enum AnalyzerOrigin
{
    /// <summary>A NuGet package (global packages folder).</summary>
    [JsonStringEnumMemberName("package")]
    Package,

    /// <summary>A file inside the workspace (e.g. a generator project's output).</summary>
    [JsonStringEnumMemberName("project")]
    Project,

    /// <summary>Anywhere else outside the installed .NET SDK.</summary>
    [JsonStringEnumMemberName("other")]
    Other,
}

/// <summary>The <c>sharpclaw/solutionInspect</c> result.</summary>
/// <param name="Workspace">The workspace folder (absolute, as requested).</param>
/// <param name="Target">The loaded .sln/.slnx/.csproj, workspace-relative.</param>
/// <param name="Configuration">MSBuild Configuration used.</param>
/// <param name="TargetFramework">The requested target framework, or null (each project's own frameworks).</param>
/// <param name="LoadStatus">complete, or partial when some projects failed (then <paramref name="PartialLoad"/> says which).</param>
/// <param name="PartialLoad">Projects that failed to load and why; empty when complete.</param>
/// <param name="LoadWarnings">Errors MSBuild reported for projects that nevertheless loaded (they stay usable).</param>
/// <param name="Projects">Every project of the target.</param>
/// <param name="ExcludedAnalyzers">Project/package-supplied analyzers and generators removed from the compilations.</param>
/// <param name="DynamicImports">Project-authored files with property-driven or wildcard imports (each call re-asks authorization).</param>
/// <param name="FromCache">True when answered from an already loaded context without evaluating anything.</param>
/// <param name="FromSnapshot">True when that context was rebuilt from the approved snapshot in the store (a warm restart).</param>
public sealed record SolutionInspectResult(
    string Workspace,
    string Target,
    string Configuration,
    string? TargetFramework,
    LoadStatus LoadStatus,
    IReadOnlyList<ProjectIssue> PartialLoad,
    IReadOnlyList<ProjectIssue> LoadWarnings,
    IReadOnlyList<InspectedProject> Projects,
    IReadOnlyList<ExcludedAnalyzers> ExcludedAnalyzers,
    IReadOnlyList<string> DynamicImports,
    bool FromCache,
    bool FromSnapshot)
{
    /// <summary>Projects the solution lists that SharpClaw does not load (F#, Visual Basic, other project types, missing files), each with why; failed loads are in <see cref="PartialLoad"/>.</summary>
    public IReadOnlyList<ProjectIssue> NotLoaded { get; init; } = [];

    /// <summary>How many projects the target lists (a solution: every project entry, loaded or not); null when unknown.</summary>
    public int? ListedProjects { get; init; }
}

/// <summary>One project in <see cref="SolutionInspectResult"/>.</summary>
/// <param name="Path">Workspace-relative project file.</param>
/// <param name="Name">Project name (file name without extension).</param>
/// <param name="IsTestProject">Evaluated IsTestProject; only when absent does a Microsoft.NET.Test.Sdk reference count.</param>
/// <param name="IsTestProjectSource">Where <paramref name="IsTestProject"/> came from.</param>
/// <param name="OutputType">OutputType of the inner, per-framework evaluations (Library, Exe, WinExe, ...); "Exe (net10.0), Library (netstandard2.0)" when the frameworks differ.</param>
/// <param name="TargetFrameworks">Evaluated frameworks: TargetFrameworks, else TargetFramework.</param>
/// <param name="RestoredTargetFrameworks">Frameworks the assets file was restored for.</param>
/// <param name="Packages">Direct package references with their restored versions, per restored framework.</param>
/// <param name="ProjectReferences">Evaluated project references, workspace-relative.</param>
/// <param name="AssetsFile">Evaluated ProjectAssetsFile, workspace-relative (absolute outside), or null.</param>
/// <param name="Compilations">One Roslyn compilation per evaluated framework; each says which framework it used.
/// A single compilation of a multi-targeted project covers only its own framework.</param>
public sealed record InspectedProject(
    string Path,
    string Name,
    bool IsTestProject,
    TestProjectSource IsTestProjectSource,
    string OutputType,
    IReadOnlyList<string> TargetFrameworks,
    IReadOnlyList<string> RestoredTargetFrameworks,
    IReadOnlyList<RestoredPackage> Packages,
    IReadOnlyList<string> ProjectReferences,
    string? AssetsFile,
    IReadOnlyList<ProjectCompilation> Compilations);

/// <param name="Id">Package id as referenced.</param>
/// <param name="RequestedVersion">The requested version range from the assets file (e.g. "[18.11.0, )"), or null.</param>
/// <param name="ResolvedVersion">The restored version, or null when the assets file has none.</param>
/// <param name="TargetFramework">The restored framework this applies to.</param>
public sealed record RestoredPackage(string Id, string? RequestedVersion, string? ResolvedVersion, string TargetFramework);

/// <param name="Name">Roslyn project name (multi-targeted projects get "Name(tfm)").</param>
/// <param name="TargetFramework">The framework this compilation was evaluated for, or null when unknown.</param>
/// <param name="DocumentCount">Source documents in the compilation (generated ones excluded).</param>
/// <param name="Loaded">False when this project failed to load (see partialLoad).</param>
public sealed record ProjectCompilation(string Name, string? TargetFramework, int DocumentCount, bool Loaded);

/// <summary>The analyzers/generators removed from one project compilation.</summary>
/// <param name="Project">Workspace-relative project file.</param>
/// <param name="TargetFramework">The compilation's framework, or null when unknown.</param>
/// <param name="Analyzers">What was removed.</param>
public sealed record ExcludedAnalyzers(string Project, string? TargetFramework, IReadOnlyList<ExcludedAnalyzer> Analyzers);

/// <param name="Path">The analyzer assembly, workspace-relative (absolute outside the workspace).</param>
/// <param name="Name">File name of the assembly.</param>
/// <param name="Origin">package, project or other.</param>
/// <param name="Package">"id/version" for package analyzers, else null.</param>
public sealed record ExcludedAnalyzer(string Path, string Name, AnalyzerOrigin Origin, string? Package);
