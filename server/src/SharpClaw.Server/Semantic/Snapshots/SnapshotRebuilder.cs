using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Host.Mef;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Server.Semantic.Snapshots;

/// <summary>A persisted snapshot that cannot be used (a referenced file is gone, the row does not fit): load normally.</summary>
public sealed class SnapshotUnusableException(string message) : Exception(message);

/// <summary>The rebuilt workspace and what the context needs from it.</summary>
public sealed record RebuiltSolution(AdhocWorkspace Workspace, Solution Solution, IReadOnlyDictionary<ProjectId, string?> Frameworks);

/// <summary>
/// Rebuilds the analyzer-filtered solution of a <see cref="PersistedContext"/> in an <see cref="AdhocWorkspace"/>
/// with <see cref="Solution.AddProject(ProjectInfo)"/>: no MSBuild, no evaluation, nothing of the project runs.
/// It builds what Roslyn's MSBuild loader builds from a design-time command line (same options, the same
/// workspace resolvers, file text loaders, metadata references with XML documentation, and analyzer references
/// through the workspace's analyzer loader), so compilations and diagnostics equal a cold load's.
/// </summary>
public static class SnapshotRebuilder
{
    public static RebuiltSolution Rebuild(PersistedContext snapshot)
    {
        List<string> missing = [.. snapshot.Projects
            .SelectMany(p => p.MetadataReferences.Select(r => r.Path).Concat(p.Analyzers))
            .Distinct(PathUtil.Comparer)
            .Where(path => !File.Exists(path))];
        if (missing.Count > 0)
        {
            throw new SnapshotUnusableException($"{missing.Count} referenced file(s) are gone ({string.Join(", ", missing.Take(3))}{(missing.Count > 3 ? ", ..." : string.Empty)})");
        }

        AdhocWorkspace workspace = new(RoslynHostServices.Default, WorkspaceKind.MSBuild);
        try
        {
            WorkspaceReferences references = new(workspace);
            List<ProjectId> ids = [.. snapshot.Projects.Select(p => ProjectId.CreateNewId(debugName: p.FilePath))];
            Dictionary<ProjectId, string?> frameworks = [];
            List<ProjectInfo> infos = [];
            for (int index = 0; index < snapshot.Projects.Count; index++)
            {
                PersistedProject project = snapshot.Projects[index];
                ProjectId id = ids[index];
                frameworks[id] = project.Framework;
                string directory = project.FilePath is { } file ? Path.GetDirectoryName(file)! : Path.GetDirectoryName(snapshot.TargetPath)!;
                references.AddDependencyLocations(project.Analyzers);

                VersionStamp version = project.FilePath is { } projectFile && File.Exists(projectFile)
                    ? VersionStamp.Create(File.GetLastWriteTimeUtc(projectFile))
                    : VersionStamp.Default;
                infos.Add(ProjectInfo.Create(
                    id,
                    version,
                    project.Name,
                    project.AssemblyName,
                    project.Language,
                    project.FilePath,
                    project.OutputFilePath,
                    SnapshotCompilationOptions.Rebuild(project.CompilationOptions, directory),
                    ParseOptions(project.ParseOptions),
                    Documents(id, project.Documents),
                    project.ProjectReferences.Select(r => Reference(r, ids)),
                    project.MetadataReferences.Select(r => references.Metadata(r.Path, new MetadataReferenceProperties(r.Kind, [.. r.Aliases], r.EmbedInteropTypes))),
                    project.Analyzers.Select(references.Analyzer),
                    Documents(id, project.AdditionalDocuments),
                    isSubmission: false,
                    hostObjectType: null,
                    outputRefFilePath: project.OutputRefFilePath)
                    .WithCompilationOutputInfo(new CompilationOutputInfo()
                        .WithAssemblyPath(project.CompilationOutputAssemblyPath)
                        .WithGeneratedFilesOutputDirectory(project.GeneratedFilesOutputDirectory))
                    .WithDefaultNamespace(project.DefaultNamespace)
                    .WithAnalyzerConfigDocuments(Documents(id, project.AnalyzerConfigDocuments)));
            }

            // MSBuildWorkspace names the solution file when it opened one, nothing when it opened a project.
            string? solutionFile = snapshot.Evaluation.Target.Kind == Discovery.TargetKind.Solution ? snapshot.TargetPath : null;
            Solution solution = workspace.AddSolution(SolutionInfo.Create(SolutionId.CreateNewId(solutionFile), VersionStamp.Create(), solutionFile, infos));

            return new RebuiltSolution(workspace, solution, frameworks);
        }
        catch
        {
            workspace.Dispose();
            throw;
        }
    }

    private static CSharpParseOptions ParseOptions(PersistedParseOptions options) =>
        new CSharpParseOptions(
            (LanguageVersion)options.LanguageVersion,
            options.DocumentationMode,
            options.Kind,
            options.PreprocessorSymbols)
        .WithFeatures(options.Features);

    private static IEnumerable<DocumentInfo> Documents(ProjectId project, List<PersistedDocument> documents) =>
        documents.Select(d => WorkspaceReferences.Document(project, d.Path, d.Name, d.Folders, encoding: null, d.IsGenerated));

    private static ProjectReference Reference(PersistedProjectReference reference, List<ProjectId> ids) =>
        reference.Project >= 0 && reference.Project < ids.Count
            ? new ProjectReference(ids[reference.Project], [.. reference.Aliases], reference.EmbedInteropTypes)
            : throw new SnapshotUnusableException($"a project reference points at project {reference.Project} of {ids.Count}");
}
