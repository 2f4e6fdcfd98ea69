using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;
using SharpClaw.Server.Semantic.Discovery;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>A loaded MSBuildWorkspace and what Roslyn reported while loading it.</summary>
public sealed class LoadedWorkspace(MSBuildWorkspace workspace, Solution solution, IReadOnlyList<WorkspaceDiagnostic> diagnostics) : IDisposable
{
    public MSBuildWorkspace Workspace { get; } = workspace;

    public Solution Solution { get; } = solution;

    public IReadOnlyList<WorkspaceDiagnostic> Diagnostics { get; } = diagnostics;

    public void Dispose() => this.Workspace.Dispose();
}

/// <summary>
/// Loads a target with Roslyn's MSBuildWorkspace. Roslyn starts its bundled out-of-process build host
/// (BuildHost-netcore next to Microsoft.CodeAnalysis.Workspaces.MSBuild.dll) for each load and stops it
/// when the load ends, also on failure or cancellation; no MSBuildLocator registration happens in this
/// process. A failed or cancelled load disposes its workspace before the exception leaves.
/// </summary>
public static class WorkspaceLoader
{
    public static async Task<LoadedWorkspace> LoadAsync(
        TargetSelection target,
        string configuration,
        string? targetFramework,
        IProgress<ProjectLoadProgress> progress,
        CancellationToken cancellationToken)
    {
        Dictionary<string, string> properties = new(StringComparer.OrdinalIgnoreCase) { ["Configuration"] = configuration };
        if (targetFramework is not null)
        {
            properties["TargetFramework"] = targetFramework;
        }

        MSBuildWorkspace workspace = MSBuildWorkspace.Create(properties);
        try
        {
            workspace.SkipUnrecognizedProjects = true;
            workspace.LoadMetadataForReferencedProjects = false;
            Solution solution = target.Kind == TargetKind.Solution
                ? await workspace.OpenSolutionAsync(target.TargetPath, progress, cancellationToken).ConfigureAwait(false)
                : (await workspace.OpenProjectAsync(target.TargetPath, progress, cancellationToken).ConfigureAwait(false)).Solution;
            return new LoadedWorkspace(workspace, solution, [.. workspace.Diagnostics]);
        }
        catch
        {
            workspace.Dispose();
            throw;
        }
    }
}
