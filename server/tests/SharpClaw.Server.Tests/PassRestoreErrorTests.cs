using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/PassRestoreError: the first project's restore failed (NU1101, a package no source serves), so its
/// design-time build reports an error the parallel pass cannot reproduce and Roslyn's MSBuildWorkspace must load
/// instead. The pass stops at that error instead of building the rest first and throwing it away (found on
/// App-vNext/Polly: three projects with NU1102, a 34 s pass run to its end before the fallback began).
/// </summary>
public sealed class PassRestoreErrorTests
{
    /// <summary>One process, so the projects listed after the failing one are built after its error is streamed.</summary>
    private static readonly DesignTimeLoadOptions OneProcess = new(MaxProcesses: 1, MinWeightPerProcess: 0.001);

    [Fact]
    public async Task RestoreError_StopsThePassAtTheError_AndMSBuildWorkspaceLoadsWithTheFailureNamingTheProject()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("PassRestoreError");
        (int restoreExit, string restoreOutput) = FixtureWorkspace.Dotnet(fixture.Root, ["restore", "PassRestoreError.slnx", "-nologo", "--tl:off", "-v:q"]);
        Assert.True(restoreExit != 0 && restoreOutput.Contains("NU1101", StringComparison.Ordinal), restoreOutput);

        TargetSelection selection = new(fixture.Root, fixture.Path("PassRestoreError.slnx"), TargetKind.Solution);
        IReadOnlyList<string> projects = await SolutionReader.ReadProjectsAsync(selection.TargetPath, CancellationToken.None);
        ParallelLoadTests.RecordingSink progress = new();
        ProjectLoadTracker tracker = new(progress, fixture.Root, "PassRestoreError.slnx", "Debug", null, projects.Count);
        using StringWriter console = new();
        using HostLog log = new(console);
        using LoadedWorkspace loaded = await WorkspaceLoader.LoadAsync(selection, projects, "Debug", null, tracker, LoaderKind.Parallel, OneProcess, log, CancellationToken.None);

        // What the user gets is Roslyn's load: every project, and its failure naming the project and the restore error.
        Assert.IsNotType<AdhocWorkspace>(loaded.Workspace);
        Assert.Equal(["Early", "Later1", "Later2", "Later3"], loaded.Solution.Projects.Select(p => p.Name).Order());
        Assert.All(loaded.Solution.Projects, p => Assert.NotEmpty(p.DocumentIds));
        WorkspaceDiagnostic failure = Assert.Single(loaded.Diagnostics, d => d.Kind == WorkspaceDiagnosticKind.Failure);
        Assert.True(
            failure.Message.Contains("Early.csproj", StringComparison.Ordinal) && failure.Message.Contains("Unable to find package SharpClaw.Fixtures.NoSuchPackage", StringComparison.Ordinal),
            failure.Message);

        // The pass stopped at the error: the last project listed after it was never built by the pass (the progress the
        // pass reported, before Roslyn's loader restarted it at 0, does not name it), and the log says so.
        int restart = progress.Updates.FindIndex(u => u.ProjectIndex == 0);
        Assert.True(restart >= 0, "Roslyn's loader never restarted the progress.");
        List<string> passSteps = [.. progress.Updates.Take(restart).Select(u => u.CurrentProject)];
        string logged = console.ToString();
        Assert.True(!passSteps.Contains("Later3/Later3.csproj"), $"The pass built {string.Join(", ", passSteps)}:\n{logged}");
        Assert.True(
            logged.Contains("Parallel design-time load of PassRestoreError.slnx not used (MSBuild reported a problem, stopped at the first error", StringComparison.Ordinal)
                && logged.Contains("error NU1101", StringComparison.Ordinal),
            logged);

        // Roslyn's loader then loaded every project once, to 100 %.
        List<LoadProgressParams> roslynSteps = [.. progress.Updates.Skip(restart + 1)];
        Assert.Equal(Enumerable.Range(1, 4), roslynSteps.Select(u => u.ProjectIndex));
        Assert.Equal(100, roslynSteps[^1].Percent);
    }
}
