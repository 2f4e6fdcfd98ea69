using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Loading outcomes: progress project by project, partial and failed loads. Moved out of <see cref="LoadingTests"/>,
/// which counts build host processes and so runs alone: these count none and run beside other classes.
/// </summary>
public sealed class LoadOutcomeTests
{
    [Fact]
    public async Task Load_ReportsProgress_ProjectByProject()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("Calculator", "Calculator.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();

        await host.InspectAsync(fixture.Root);

        Assert.True(await Poll.UntilAsync(() => host.Client.Progress.Count >= 4, TimeSpan.FromSeconds(10)));
        IReadOnlyList<LoadProgressParams> progress = host.Client.Progress;
        Assert.Equal(new LoadProgressParams(ProgressKind.Load, "Calculator.slnx", "Debug", null, 0, 3, "Calculator.slnx", 0), progress[0]);
        Assert.Equal([1, 2, 3], progress.Skip(1).Select(p => p.ProjectIndex));
        Assert.All(progress.Skip(1), p => Assert.Equal(3, p.ProjectCount));
        Assert.Equal(100, progress[^1].Percent);
        Assert.Equal(
            ["src/Calculator.App/Calculator.App.csproj", "src/Calculator.Core/Calculator.Core.csproj", "tests/Calculator.Tests/Calculator.Tests.csproj"],
            progress.Skip(1).Select(p => p.CurrentProject).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task BrokenProject_IsPartialLoad_WithTheRestUsable_AndAloneIsLoadFailed()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("PartialLoad", "Good/Good.csproj");
        await using SemanticHost host = await SemanticHost.StartAsync();

        SolutionInspectResult result = await host.InspectAsync(fixture.Root);

        Assert.Equal(LoadStatus.Partial, result.LoadStatus);
        ProjectIssue broken = Assert.Single(result.PartialLoad);
        Assert.Equal("Broken/Broken.csproj", broken.Path);
        Assert.Contains("MSB4025", broken.Reason, StringComparison.Ordinal);
        InspectedProject good = Assert.Single(result.Projects, p => p.Path == "Good/Good.csproj");
        ProjectCompilation compilation = Assert.Single(good.Compilations);
        Assert.True(compilation.Loaded);
        Assert.True(compilation.DocumentCount >= 1);
        ProjectGraphResult graph = await host.GraphAsync(fixture.Root);
        Assert.Equal("Broken/Broken.csproj", Assert.Single(graph.PartialLoad).Path);

        // Fixing the broken project is a structural change.
        fixture.Write("Broken/Broken.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFramework>net10.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n");
        fixture.Restore("Broken/Broken.csproj");
        SolutionInspectResult fixedResult = await host.InspectAsync(fixture.Root);
        Assert.Equal(LoadStatus.Complete, fixedResult.LoadStatus);
        Assert.Equal(EvaluationReason.StructuralChange, host.Client.AuthorizationRequests[^1].Reason);

        // Nothing loadable at all: LoadFailed, naming the project and why.
        fixture.Write("Broken/Broken.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\">\n");
        SemanticErrorData failed = await SemanticErrors.ExpectAsync(SemanticErrorKind.LoadFailed, () => host.InspectAsync(fixture.Root, target: "Broken/Broken.csproj"));
        Assert.Equal("Broken/Broken.csproj", Assert.Single(failed.Projects!).Path);
    }
}
