using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>A fixture's solution loaded in the test's own process, without a host: WorkspaceLoader with <see cref="LoaderKind.Roslyn"/> (Roslyn's own MSBuildWorkspace), Debug.</summary>
internal static class InProcessLoad
{
    public static async Task<LoadedWorkspace> SolutionAsync(FixtureWorkspace fixture, string solution)
    {
        TargetSelection selection = new(fixture.Root, fixture.Path(solution), TargetKind.Solution);
        IReadOnlyList<string> projects = await SolutionReader.ReadProjectsAsync(selection.TargetPath, CancellationToken.None);
        ProjectLoadTracker tracker = new(null, fixture.Root, solution, "Debug", null, projects.Count);
        return await WorkspaceLoader.LoadAsync(selection, projects, "Debug", null, tracker, LoaderKind.Roslyn, DesignTimeLoadOptions.Default, log: null, CancellationToken.None);
    }
}
