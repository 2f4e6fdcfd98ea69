using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;
using SharpClaw.Server.Infrastructure;
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

    /// <summary>The parallel pass's workspace, and the evaluation it collected when asked to.</summary>
    public sealed record ParallelLoad(LoadedWorkspace Loaded, EvaluationSnapshot? Evaluation);

    /// <summary>A finished parallel design-time pass, before any solution is built from it.</summary>
    /// <param name="Listed">Every project the target lists (the solution is built over these).</param>
    public sealed record ParallelPass(IReadOnlyList<string> Listed, DesignTimePassResult Result, TimeSpan Duration, int Processes)
    {
        // Computed on first use: only contexts that are re-evaluated on every call (dynamic imports) need it.
        private readonly Lazy<string> digest = new(() => DesignTimeDigest.Of(Result.Projects, Result.Evaluation?.Projects ?? []));

        /// <summary>What the pass returned, digested (<see cref="DesignTimeDigest"/>).</summary>
        public string Digest => this.digest.Value;
    }

    /// <summary>
    /// Loads with the parallel design-time pass; null (with a log line saying why) when the pass cannot
    /// reproduce Roslyn's load, and the caller loads with <see cref="LoadWithRoslynAsync"/> instead.
    /// </summary>
    /// <param name="target">The solution or project.</param>
    /// <param name="projects">The target's C# projects (full paths, solution order).</param>
    /// <param name="collectEvaluation">Also collect the evaluation (the cold load has none yet).</param>
    public static async Task<ParallelLoad?> TryParallelAsync(
        TargetSelection target,
        IReadOnlyList<string> projects,
        string configuration,
        string? targetFramework,
        ProjectLoadTracker tracker,
        DesignTimeLoadOptions options,
        bool collectEvaluation,
        HostLog? log,
        CancellationToken cancellationToken) =>
        await RunParallelPassAsync(target, projects, configuration, targetFramework, tracker, options, collectEvaluation, log, cancellationToken).ConfigureAwait(false) is { } pass
            ? BuildFromPass(target, pass, log)
            : null;

    /// <summary>Runs the parallel design-time pass; null (with a log line saying why) when Roslyn's loader must load instead.</summary>
    public static async Task<ParallelPass?> RunParallelPassAsync(
        TargetSelection target,
        IReadOnlyList<string> projects,
        string configuration,
        string? targetFramework,
        ProjectLoadTracker tracker,
        DesignTimeLoadOptions options,
        bool collectEvaluation,
        HostLog? log,
        CancellationToken cancellationToken,
        bool logImports = false)
    {
        // Roslyn tries every project a solution lists and reports the ones it cannot load; the pass only builds C#.
        IReadOnlyList<string> listed = target.Kind == TargetKind.Solution
            ? await SolutionReader.ReadAllProjectsAsync(target.TargetPath, cancellationToken).ConfigureAwait(false)
            : projects;
        long started = System.Diagnostics.Stopwatch.GetTimestamp();
        DesignTimePassResult pass;
        try
        {
            pass = await DesignTimePass.RunAsync(target, listed, configuration, targetFramework, tracker, options, collectEvaluation, cancellationToken, logImports).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            // dotnet could not be started: the evaluation pass reports that as a missing prerequisite.
            pass = DesignTimePassResult.Fallback($"the dotnet CLI could not be started: {ex.Message}");
        }

        if (pass.FallbackReason is not null)
        {
            log?.Info($"Parallel design-time load of {target.RelativeTarget} not used ({pass.FallbackReason}); loading with Roslyn's MSBuildWorkspace.");
            tracker.Restart();
            return null;
        }

        return new ParallelPass(listed, pass, System.Diagnostics.Stopwatch.GetElapsedTime(started), DesignTimePass.ProcessCount(listed.Sum(DesignTimePass.Weight), options));
    }

    /// <summary>Builds the solution a parallel pass describes.</summary>
    public static ParallelLoad BuildFromPass(TargetSelection target, ParallelPass pass, HostLog? log)
    {
        long started = System.Diagnostics.Stopwatch.GetTimestamp();
        LoadedWorkspace loaded = DesignTimeSolution.Build(target, pass.Listed, pass.Result.Projects);
        log?.Debug(string.Create(
            System.Globalization.CultureInfo.InvariantCulture,
            $"Design-time pass of {target.RelativeTarget}: {pass.Result.Projects.Count} project flavours in {pass.Processes} process(es){(pass.Result.Evaluation is not null ? ", evaluation collected" : string.Empty)}, {pass.Duration.TotalMilliseconds:0} ms; solution built in {System.Diagnostics.Stopwatch.GetElapsedTime(started).TotalMilliseconds:0} ms."));
        return new ParallelLoad(loaded, pass.Result.Evaluation);
    }

    /// <summary>The parallel pass, else Roslyn's loader (what a cold load does when the evaluation comes from elsewhere).</summary>
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
        if (kind == LoaderKind.Parallel
            && await TryParallelAsync(target, projects, configuration, targetFramework, tracker, options, collectEvaluation: false, log, cancellationToken).ConfigureAwait(false) is { } parallel)
        {
            return parallel.Loaded;
        }

        return await LoadWithRoslynAsync(target, configuration, targetFramework, tracker, cancellationToken).ConfigureAwait(false);
    }

    public static async Task<LoadedWorkspace> LoadWithRoslynAsync(
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

        MSBuildWorkspace workspace = MSBuildWorkspace.Create(properties, RoslynHostServices.Default);
        try
        {
            workspace.SkipUnrecognizedProjects = true;
            workspace.LoadMetadataForReferencedProjects = false;
            Solution solution = target.Kind == TargetKind.Solution
                ? await workspace.OpenSolutionAsync(target.TargetPath, progress, cancellationToken).ConfigureAwait(false)
                : (await workspace.OpenProjectAsync(target.TargetPath, progress, cancellationToken).ConfigureAwait(false)).Solution;
            return new LoadedWorkspace(workspace, BoundedTextLoader.Apply(solution), [.. workspace.Diagnostics]);
        }
        catch
        {
            workspace.Dispose();
            throw;
        }
    }
}
