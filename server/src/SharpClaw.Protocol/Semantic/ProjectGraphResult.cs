namespace SharpClaw.Protocol.Semantic;

/// <summary>The <c>sharpclaw/projectGraph</c> result: evaluated MSBuild data per project (no compilation).</summary>
/// <param name="Workspace">The workspace folder (absolute, as requested).</param>
/// <param name="Target">The evaluated .sln/.slnx/.csproj, workspace-relative.</param>
/// <param name="Configuration">MSBuild Configuration used.</param>
/// <param name="TargetFramework">The requested target framework, or null.</param>
/// <param name="Projects">Every project of the target plus projects they reference.</param>
/// <param name="ExcludedAnalyzers">From the loaded compilation context when there is one, else what evaluation and
/// the assets files show (project analyzer items, analyzer project references, package analyzers).</param>
/// <param name="PartialLoad">Projects MSBuild could not evaluate, and why; empty when all evaluated.</param>
/// <param name="DynamicImports">Project-authored files with property-driven or wildcard imports.</param>
/// <param name="FromCache">True when answered without running MSBuild.</param>
public sealed record ProjectGraphResult(
    string Workspace,
    string Target,
    string Configuration,
    string? TargetFramework,
    IReadOnlyList<ProjectGraphNode> Projects,
    IReadOnlyList<ExcludedAnalyzers> ExcludedAnalyzers,
    IReadOnlyList<ProjectIssue> PartialLoad,
    IReadOnlyList<string> DynamicImports,
    bool FromCache)
{
    /// <summary>
    /// Only for <c>buildCollection: "offer"</c> when nothing kept is valid (then no projects): what the build's
    /// environment needs to collect the evaluation.
    /// </summary>
    public ProjectGraphBuildCollection? BuildCollection { get; init; }
}

/// <summary>A collection a build fills with the evaluation of the projects it builds (the host's BuildCollection).</summary>
/// <param name="Id">What to send as <c>buildCollection</c> once the build ran.</param>
/// <param name="Environment">Variables to add to that build's environment.</param>
public sealed record ProjectGraphBuildCollection(string Id, IReadOnlyDictionary<string, string> Environment);

/// <summary>One project in <see cref="ProjectGraphResult"/>. Paths are workspace-relative, absolute outside.</summary>
/// <param name="Path">The project file.</param>
/// <param name="IsTestProject">Evaluated IsTestProject; only when absent does a Microsoft.NET.Test.Sdk reference count.</param>
/// <param name="IsTestProjectSource">Where <paramref name="IsTestProject"/> came from.</param>
/// <param name="TargetFrameworks">Evaluated frameworks: TargetFrameworks, else TargetFramework.</param>
/// <param name="OutputType">OutputType as in <see cref="InspectedProject"/> (the inner, per-framework evaluations).</param>
/// <param name="AssetsFile">Evaluated ProjectAssetsFile (also when it does not exist yet), or null.</param>
/// <param name="Restored">True when <paramref name="AssetsFile"/> exists.</param>
/// <param name="CompileItems">Evaluated Compile items (union over the evaluated frameworks).</param>
/// <param name="ProjectReferences">Evaluated ProjectReference items (union over frameworks).</param>
/// <param name="Imports">Project-authored build files this project imports (literal imports followed recursively,
/// Directory.Build.*, Directory.Packages.props, restore-generated nuget.g.* files); SDK and package files are left out.</param>
/// <param name="OtherItems">The other files the project claims: evaluated EmbeddedResource, AdditionalFiles, Content and
/// None items (union over frameworks). With <paramref name="CompileItems"/>, what decides which project a changed file affects.</param>
/// <param name="PackageReferences">Evaluated PackageReference ids.</param>
/// <param name="IsTestingPlatformApplication">Evaluated IsTestingPlatformApplication=true in any framework: a Microsoft.Testing.Platform app.</param>
/// <param name="TestingPlatformDotnetTestSupport">Evaluated TestingPlatformDotnetTestSupport=true in any framework: an MTP app that
/// VSTest-mode <c>dotnet test</c> hands its options.</param>
/// <param name="Outputs">Per evaluated target framework: the output assembly (TargetPath) and the compiler's output (IntermediateAssembly).</param>
public sealed record ProjectGraphNode(
    string Path,
    bool IsTestProject,
    TestProjectSource IsTestProjectSource,
    IReadOnlyList<string> TargetFrameworks,
    string OutputType,
    string? AssetsFile,
    bool Restored,
    IReadOnlyList<string> CompileItems,
    IReadOnlyList<string> ProjectReferences,
    IReadOnlyList<string> Imports,
    IReadOnlyList<string> OtherItems,
    IReadOnlyList<string> PackageReferences,
    bool IsTestingPlatformApplication,
    bool TestingPlatformDotnetTestSupport,
    IReadOnlyList<ProjectOutput> Outputs);

/// <summary>What one target framework of a project builds. Paths are workspace-relative, absolute outside.</summary>
/// <param name="TargetFramework">The framework.</param>
/// <param name="TargetPath">Evaluated TargetPath (bin/…/Name.dll), or null.</param>
/// <param name="IntermediateAssembly">Evaluated IntermediateAssembly (obj/…/Name.dll): it changes exactly when the compiler runs; or null.</param>
public sealed record ProjectOutput(string TargetFramework, string? TargetPath, string? IntermediateAssembly);
