using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Toolchain;

namespace SharpClaw.Server.Semantic;

/// <summary>Turns cached contexts and evaluations into protocol results (paths relative to the request's workspace).</summary>
public static class ResultBuilder
{
    private const string TestSdkPackage = "Microsoft.NET.Test.Sdk";

    /// <summary>
    /// The one rule for "is this a test project", in order: evaluated IsTestProject wins (an explicit
    /// false included); only when it is absent does an evaluated IsTestingPlatformApplication=true
    /// (MTP apps need neither IsTestProject nor the test SDK), then a Microsoft.NET.Test.Sdk
    /// PackageReference (an unrestored project whose props did not run yet) make a test project.
    /// </summary>
    public static (bool IsTestProject, TestProjectSource Source) ResolveIsTestProject(EvaluatedProject project)
    {
        if (project.IsTestProjectProperty.Length > 0)
        {
            return (project.IsTestProjectProperty.Equals("true", StringComparison.OrdinalIgnoreCase), TestProjectSource.Evaluated);
        }

        if (project.IsTestingPlatformApplication)
        {
            return (true, TestProjectSource.TestingPlatformApplication);
        }

        return project.PackageReferences.Any(p => p.Id.Equals(TestSdkPackage, StringComparison.OrdinalIgnoreCase))
            ? (true, TestProjectSource.TestSdkReference)
            : (false, TestProjectSource.Absent);
    }

    public static SolutionInspectResult Inspect(ContextRequest request, ContextLease lease, IReadOnlyList<string>? listed = null)
    {
        string workspace = request.Target.Workspace;
        SemanticContext context = lease.Context;
        Solution solution = lease.Solution;
        EvaluationSnapshot snapshot = context.Evaluation.Snapshot;
        HashSet<string> failed = new(context.PartialLoad.Select(f => f.Path), PathUtil.Comparer);

        List<InspectedProject> projects = [];
        foreach (EvaluatedProject project in snapshot.Projects)
        {
            (bool isTest, TestProjectSource source) = ResolveIsTestProject(project);
            AssetsFileInfo? assets = context.Evaluation.Assets.GetValueOrDefault(project.Path);
            List<ProjectCompilation> compilations = solution.Projects
                .Where(p => p.FilePath is { } path && PathUtil.Comparer.Equals(path, project.Path))
                .OrderBy(p => p.Name, StringComparer.Ordinal)
                .Select(p => new ProjectCompilation(p.Name, context.Frameworks.GetValueOrDefault(p.Id), p.DocumentIds.Count, !failed.Contains(project.Path)))
                .ToList();
            projects.Add(new InspectedProject(
                Path: PathUtil.ToWorkspaceRelative(workspace, project.Path),
                Name: Path.GetFileNameWithoutExtension(project.Path),
                IsTestProject: isTest,
                IsTestProjectSource: source,
                OutputType: project.OutputType,
                TargetFrameworks: project.TargetFrameworks,
                RestoredTargetFrameworks: assets?.TargetFrameworks ?? [],
                Packages: assets?.Packages.Select(p => new RestoredPackage(p.Id, p.RequestedVersion, p.ResolvedVersion, p.TargetFramework)).ToList() ?? [],
                ProjectReferences: project.ProjectReferences.Select(r => PathUtil.ToWorkspaceRelative(workspace, r.Path)).Distinct().ToList(),
                AssetsFile: project.ProjectAssetsFile is { } assetsFile ? PathUtil.ToWorkspaceRelative(workspace, assetsFile) : null,
                Compilations: compilations));
        }

        List<ProjectIssue> partial = ContextLoader.Issues(workspace, context.PartialLoad);
        return new SolutionInspectResult(
            Workspace: workspace,
            Target: request.Target.RelativeTarget,
            Configuration: request.Configuration,
            TargetFramework: request.TargetFramework,
            LoadStatus: partial.Count == 0 ? LoadStatus.Complete : LoadStatus.Partial,
            PartialLoad: partial,
            LoadWarnings: ContextLoader.Issues(workspace, context.LoadWarnings),
            Projects: projects,
            ExcludedAnalyzers: Group(workspace, context.ExcludedAnalyzers),
            DynamicImports: DynamicImportFiles(workspace, context.Evaluation),
            FromCache: lease.FromCache,
            FromSnapshot: context.FromSnapshot)
        {
            NotLoaded = NotLoaded(workspace, listed ?? [], snapshot, failed),
            ListedProjects = listed?.Count,
        };
    }

    /// <summary>
    /// The projects the solution lists that SharpClaw does not load, each with why: another language (F#, Visual
    /// Basic), a project type it does not load, or a file that is missing. Projects that failed to load are in the
    /// partial-load list instead.
    /// </summary>
    private static List<ProjectIssue> NotLoaded(string workspace, IReadOnlyList<string> listed, EvaluationSnapshot snapshot, HashSet<string> failed)
    {
        HashSet<string> evaluated = new(snapshot.Projects.Select(p => p.Path), PathUtil.Comparer);
        List<ProjectIssue> issues = [];
        foreach (string project in listed.Where(p => !evaluated.Contains(p) && !failed.Contains(p)))
        {
            string extension = Path.GetExtension(project).ToLowerInvariant();
            string reason = extension switch
            {
                ".fsproj" => "F# project: SharpClaw loads C# projects only",
                ".vbproj" => "Visual Basic project: SharpClaw loads C# projects only",
                ".csproj" when !File.Exists(project) => "the project file does not exist",
                ".csproj" => "not evaluated (see the load warnings)",
                "" => "not a project file (a solution folder entry or a file without extension)",
                _ => $"{extension} project: a project type SharpClaw does not load (C# .csproj only)",
            };
            issues.Add(new ProjectIssue(PathUtil.ToWorkspaceRelative(workspace, project), reason));
        }

        return issues;
    }

    public static ProjectGraphResult ProjectGraph(ContextRequest request, EvaluationLease lease, AnalyzerTrust trust)
    {
        string workspace = request.Target.Workspace;
        EvaluationData data = lease.Data;
        List<string> hidden = [.. trust.PackageFolders, .. data.Assets.Values.OfType<AssetsFileInfo>().SelectMany(a => a.PackageFolders).Select(PathUtil.Normalize)];
        if (SdkInventory.FindDotnetRoot() is { } dotnetRoot)
        {
            hidden.Add(dotnetRoot);
        }

        List<ProjectGraphNode> projects = [];
        foreach (EvaluatedProject project in data.Snapshot.Projects)
        {
            (bool isTest, TestProjectSource source) = ResolveIsTestProject(project);
            IEnumerable<string> imports = data.Imports.TryGetValue(project.Path, out Fingerprints.ProjectImports? projectImports) ? projectImports.Imports : [];
            if (project.ProjectExtensionsPath is { } extensions)
            {
                imports = imports.Concat(ContextLoader.RestoreGeneratedImports(extensions, Path.GetFileName(project.Path)));
            }

            projects.Add(new ProjectGraphNode(
                Path: PathUtil.ToWorkspaceRelative(workspace, project.Path),
                IsTestProject: isTest,
                IsTestProjectSource: source,
                TargetFrameworks: project.TargetFrameworks,
                OutputType: project.OutputType,
                AssetsFile: project.ProjectAssetsFile is { } assets ? PathUtil.ToWorkspaceRelative(workspace, assets) : null,
                Restored: project.ProjectAssetsFile is { } existing && File.Exists(existing),
                CompileItems: project.CompileItems.Select(c => PathUtil.ToWorkspaceRelative(workspace, c)).ToList(),
                ProjectReferences: project.ProjectReferences.Select(r => PathUtil.ToWorkspaceRelative(workspace, r.Path)).Distinct().ToList(),
                Imports: imports
                    .Where(i => !hidden.Any(h => PathUtil.IsUnder(i, h)))
                    .Distinct(PathUtil.Comparer)
                    .Select(i => PathUtil.ToWorkspaceRelative(workspace, i))
                    .ToList(),
                OtherItems: project.OtherItems.Select(c => PathUtil.ToWorkspaceRelative(workspace, c)).ToList(),
                PackageReferences: project.PackageReferences.Select(p => p.Id).ToList(),
                IsTestingPlatformApplication: project.IsTestingPlatformApplication,
                TestingPlatformDotnetTestSupport: project.TestingPlatformDotnetTestSupport,
                Outputs: project.Outputs
                    .Select(o => new ProjectOutput(
                        o.TargetFramework,
                        o.TargetPath is { } targetPath ? PathUtil.ToWorkspaceRelative(workspace, targetPath) : null,
                        o.IntermediateAssembly is { } intermediate ? PathUtil.ToWorkspaceRelative(workspace, intermediate) : null))
                    .ToList()));
        }

        IReadOnlyList<AnalyzerExclusion> excluded = lease.Context?.ExcludedAnalyzers ?? ExclusionsFromEvaluation(workspace, data, trust);
        IEnumerable<EvaluationFailure> failures = lease.Context?.PartialLoad ?? data.Snapshot.Failures;
        return new ProjectGraphResult(
            Workspace: workspace,
            Target: request.Target.RelativeTarget,
            Configuration: request.Configuration,
            TargetFramework: request.TargetFramework,
            Projects: projects,
            ExcludedAnalyzers: Group(workspace, excluded),
            PartialLoad: ContextLoader.Issues(workspace, failures),
            DynamicImports: DynamicImportFiles(workspace, data),
            FromCache: lease.FromCache);
    }

    /// <summary>No graph: nothing kept is valid, and the caller's build may collect the evaluation with <paramref name="offer"/>.</summary>
    public static ProjectGraphResult BuildCollectionOffered(ContextRequest request, ProjectGraphBuildCollection offer) => new(
        Workspace: request.Target.Workspace,
        Target: request.Target.RelativeTarget,
        Configuration: request.Configuration,
        TargetFramework: request.TargetFramework,
        Projects: [],
        ExcludedAnalyzers: [],
        PartialLoad: [],
        DynamicImports: [],
        FromCache: false)
    {
        BuildCollection = offer,
    };

    /// <summary>
    /// Without a design-time build the exact analyzer list is unknown; report what evaluation and restore
    /// show: project-declared Analyzer items, analyzer ProjectReferences and package analyzers.
    /// </summary>
    private static List<AnalyzerExclusion> ExclusionsFromEvaluation(string workspace, EvaluationData data, AnalyzerTrust trust)
    {
        List<AnalyzerExclusion> excluded = [];
        foreach (EvaluatedProject project in data.Snapshot.Projects)
        {
            AssetsFileInfo? assets = data.Assets.GetValueOrDefault(project.Path);
            List<string> packageFolders = assets?.PackageFolders.ToList() ?? [];
            string? framework = project.TargetFrameworks.Count == 1 ? project.TargetFrameworks[0] : null;
            foreach (string analyzer in project.AnalyzerItems.Where(a => !trust.IsTrusted(a)))
            {
                (AnalyzerOrigin origin, string? package) = trust.Classify(analyzer, workspace, packageFolders);
                if (trust.SdkCopyOf(analyzer, origin) is not null)
                {
                    continue; // Replaced by the SDK's own copy when the solution loads.
                }

                excluded.Add(new AnalyzerExclusion(project.Path, framework, analyzer, origin, package));
            }

            foreach (EvaluatedProjectReference reference in project.ProjectReferences.Where(r => r.IsAnalyzer))
            {
                excluded.Add(new AnalyzerExclusion(project.Path, framework, reference.Path, AnalyzerOrigin.Project, null));
            }

            foreach (AssetsAnalyzer analyzer in assets?.Analyzers ?? [])
            {
                if (!trust.IsTrusted(analyzer.Path) && trust.SdkCopyOf(analyzer.Path, AnalyzerOrigin.Package) is null)
                {
                    excluded.Add(new AnalyzerExclusion(project.Path, analyzer.TargetFramework, analyzer.Path, AnalyzerOrigin.Package, analyzer.Package));
                }
            }
        }

        return excluded;
    }

    internal static List<ExcludedAnalyzers> GroupExclusions(string workspace, IEnumerable<AnalyzerExclusion> exclusions)
    {
        if (exclusions is not IReadOnlyList<AnalyzerExclusion> list)
        {
            return Group(workspace, exclusions);
        }

        // A context's exclusions never change: every warm query of it reuses the grouping (a copy, callers own their list).
        System.Collections.Concurrent.ConcurrentDictionary<string, List<ExcludedAnalyzers>> byWorkspace = GroupedExclusions.GetValue(list, _ => new(PathUtil.Comparer));
        return [.. byWorkspace.GetOrAdd(workspace, w => Group(w, list))];
    }

    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<IReadOnlyList<AnalyzerExclusion>, System.Collections.Concurrent.ConcurrentDictionary<string, List<ExcludedAnalyzers>>> GroupedExclusions = [];

    private static List<ExcludedAnalyzers> Group(string workspace, IEnumerable<AnalyzerExclusion> exclusions) =>
        exclusions
            .GroupBy(e => (Project: PathUtil.ToWorkspaceRelative(workspace, e.ProjectPath), e.TargetFramework))
            .OrderBy(g => g.Key.Project, StringComparer.Ordinal)
            .ThenBy(g => g.Key.TargetFramework, StringComparer.Ordinal)
            .Select(g => new ExcludedAnalyzers(
                g.Key.Project,
                g.Key.TargetFramework,
                g.DistinctBy(e => e.AnalyzerPath, PathUtil.Comparer)
                    .Select(e => new ExcludedAnalyzer(PathUtil.ToWorkspaceRelative(workspace, e.AnalyzerPath), Path.GetFileName(e.AnalyzerPath), e.Origin, e.Package))
                    .ToList()))
            .ToList();

    private static List<string> DynamicImportFiles(string workspace, EvaluationData data) =>
        data.DynamicImports.Select(d => PathUtil.ToWorkspaceRelative(workspace, d.File)).Distinct().ToList();
}
