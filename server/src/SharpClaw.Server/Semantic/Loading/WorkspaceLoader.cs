using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;
using SharpClaw.Server.Hosting;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Evaluation;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>A loaded workspace and what the loader reported while loading it.</summary>
public sealed class LoadedWorkspace(Workspace workspace, Solution solution, IReadOnlyList<WorkspaceDiagnostic> diagnostics) : IDisposable
{
    public Workspace Workspace { get; } = workspace;

    public Solution Solution { get; } = solution;

    public IReadOnlyList<WorkspaceDiagnostic> Diagnostics { get; } = diagnostics;

    public void Dispose() => this.Workspace.Dispose();
}

/// <summary>Which loader a load uses: the parallel design-time pass (falling back to Roslyn's when it must), or Roslyn's MSBuildWorkspace only.</summary>
public enum LoaderKind
{
    Parallel,
    Roslyn,
}

/// <summary>
/// Loads a target's projects into a workspace. By default the parallel design-time pass
/// (<see cref="DesignTimePass"/>, several MSBuild processes at once) feeds <see cref="DesignTimeSolution"/>;
/// when the pass cannot reproduce Roslyn's load exactly (an MSBuild error, a project that is not an SDK-style
/// .csproj) — or when <c>SHARPCLAW_LOADER=roslyn</c> asks for it — Roslyn's MSBuildWorkspace loads instead:
/// it starts its bundled out-of-process build host (BuildHost-netcore next to
/// Microsoft.CodeAnalysis.Workspaces.MSBuild.dll) and stops it when the load ends, also on failure or
/// cancellation; no MSBuildLocator registration happens in this process. A failed or cancelled load
/// disposes its workspace before the exception leaves.
/// </summary>
public static class WorkspaceLoader
{
    /// <summary>The loader the environment asks for (<c>SHARPCLAW_LOADER=roslyn</c>: MSBuildWorkspace only; for comparisons and as an escape hatch).</summary>
    public static LoaderKind ConfiguredKind =>
        string.Equals(Environment.GetEnvironmentVariable("SHARPCLAW_LOADER"), "roslyn", StringComparison.OrdinalIgnoreCase) ? LoaderKind.Roslyn : LoaderKind.Parallel;

    /// <param name="target">The solution or project.</param>
    /// <param name="projects">The target's projects (full paths, solution order).</param>
    public static async Task<LoadedWorkspace> LoadAsync(
        TargetSelection target,
        IReadOnlyList<string> projects,
        string configuration,
        string? targetFramework,
        ProjectLoadTracker tracker,
        LoaderKind kind,
        DesignTimeLoadOptions options,
        HostLog? log,
        CancellationToken cancellationToken)
    {
        if (kind == LoaderKind.Parallel)
        {
            // Roslyn tries every project a solution lists and reports the ones it cannot load; the pass only builds C#.
            IReadOnlyList<string> listed = target.Kind == TargetKind.Solution
                ? await SolutionReader.ReadAllProjectsAsync(target.TargetPath, cancellationToken).ConfigureAwait(false)
                : projects;
            DesignTimePassResult pass = await DesignTimePass.RunAsync(target, listed, configuration, targetFramework, tracker, options, cancellationToken).ConfigureAwait(false);
            if (pass.FallbackReason is null)
            {
                return DesignTimeSolution.Build(target, pass.Projects);
            }

            log?.Info($"Parallel design-time load of {target.RelativeTarget} not used ({pass.FallbackReason}); loading with Roslyn's MSBuildWorkspace.");
        }

        return await LoadWithRoslynAsync(target, configuration, targetFramework, tracker, cancellationToken).ConfigureAwait(false);
    }

    private static async Task<LoadedWorkspace> LoadWithRoslynAsync(
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
