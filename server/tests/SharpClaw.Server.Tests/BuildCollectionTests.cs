using System.Text.Json;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The evaluation a verifier's build collects (<see cref="BuildCollection"/>) against the truth: the evaluation pass
/// of the same projects, project by project, after a real <c>dotnet build</c> that still skips every compile of a
/// built workspace; and a build that did not reach every project or framework gives no snapshot.
/// </summary>
public sealed class BuildCollectionTests
{
    [Theory]
    [InlineData("VerificationGraph", "Graph.slnx")] // project references, test projects (the Test SDK's Program.cs), a shared props file
    [InlineData("MultiTargetHierarchy", "MultiTargetHierarchy.slnx")] // multi-targeted projects, outer and inner builds
    [InlineData("ArtifactsLayout", "ArtifactsLayout.slnx")] // UseArtifactsOutput: other output and intermediate paths
    public async Task CollectedDuringBuild_EqualsEvaluation_AndCompilesNothing(string name, string target)
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored(name, target);
        TargetSelection selection = new(fixture.Root, fixture.Path(target), TargetKind.Solution);
        IReadOnlyList<string> projects = await SolutionReader.ReadProjectsAsync(selection.TargetPath, CancellationToken.None);
        EvaluationSnapshot evaluated = await ProjectEvaluator.EvaluateAsync(selection, projects, "Debug", null, CancellationToken.None);
        Assert.Empty(evaluated.Failures);
        await BuildAsync(fixture, target, environment: null); // the person's own build

        List<string> compiled = IntermediateAssemblies(evaluated);
        Dictionary<string, DateTime> writtenBefore = compiled.ToDictionary(f => f, File.GetLastWriteTimeUtc);
        ProjectGraphBuildCollection offer = BuildCollection.Prepare(fixture.Root);
        await BuildAsync(fixture, target, offer.Environment);
        EvaluationSnapshot? collected = BuildCollection.TryRead(selection, projects, offer.Id, "Debug", out string whyNot);
        BuildCollection.Discard(fixture.Root, offer.Id);

        Assert.True(collected is not null, whyNot);
        Assert.Equal(evaluated.Projects.Select(p => p.Path), collected.Projects.Select(p => p.Path));
        foreach ((EvaluatedProject expected, EvaluatedProject actual) in evaluated.Projects.Zip(collected.Projects))
        {
            string expectedJson = JsonSerializer.Serialize(expected);
            string actualJson = JsonSerializer.Serialize(actual);
            Assert.True(expectedJson == actualJson, $"{expected.Path}:\n{expectedJson}\n{actualJson}");
        }

        // The import (through the environment) left the person's incremental build alone: no compile ran again.
        Assert.NotEmpty(compiled);
        Assert.All(compiled, f => Assert.Equal(writtenBefore[f], File.GetLastWriteTimeUtc(f)));
        Assert.True(collected.StartedUtc <= DateTime.UtcNow && collected.StartedUtc > DateTime.UtcNow.AddMinutes(-10), $"started {collected.StartedUtc:O}");
        Assert.False(Directory.Exists(Path.Combine(StateFolder.ForWorkspace(fixture.Root), "build-evaluations", offer.Id)), "the collection was not deleted");
    }

    [Fact]
    public async Task IncompleteCollections_GiveNoSnapshot_AndSayWhy()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("MultiTargetHierarchy", "MultiTargetHierarchy.slnx");
        TargetSelection selection = new(fixture.Root, fixture.Path("MultiTargetHierarchy.slnx"), TargetKind.Solution);
        IReadOnlyList<string> projects = await SolutionReader.ReadProjectsAsync(selection.TargetPath, CancellationToken.None);
        string shapes = projects.Single(p => Path.GetFileName(p) == "Shapes.csproj");

        // One project of the solution built: the others have no rows.
        ProjectGraphBuildCollection one = BuildCollection.Prepare(fixture.Root);
        await BuildAsync(fixture, Path.GetRelativePath(fixture.Root, shapes), one.Environment);
        Assert.Null(BuildCollection.TryRead(selection, projects, one.Id, "Debug", out string notBuilt));
        Assert.StartsWith("the build wrote nothing for ", notBuilt, StringComparison.Ordinal);

        // A multi-targeted project built for one framework: the other framework has no rows.
        using FixtureWorkspace multi = FixtureWorkspace.Restored("MultiTarget", "MultiTarget.csproj");
        TargetSelection project = new(multi.Root, multi.Path("MultiTarget.csproj"), TargetKind.Project);
        ProjectGraphBuildCollection oneFramework = BuildCollection.Prepare(multi.Root);
        await BuildAsync(multi, "MultiTarget.csproj", oneFramework.Environment, "-f", "net10.0");
        Assert.Null(BuildCollection.TryRead(project, [project.TargetPath], oneFramework.Id, "Debug", out string oneFrameworkOnly));
        Assert.Equal("the build did not build 'MultiTarget.csproj' for net8.0", oneFrameworkOnly);
        BuildCollection.Discard(multi.Root, oneFramework.Id);

        // A row that does not split into the written values (a value with a line break).
        ProjectGraphBuildCollection damaged = BuildCollection.Prepare(fixture.Root);
        File.WriteAllText(Path.Combine(damaged.Environment["SharpClawCollectFolder"], "x.rows"), "project\tonly three\tvalues\n");
        Assert.Null(BuildCollection.TryRead(selection, projects, damaged.Id, "Debug", out string malformed));
        Assert.StartsWith("a row of 3 values", malformed, StringComparison.Ordinal);

        // Ids are only what Prepare makes: nothing outside the collections' folder is read.
        Assert.Null(BuildCollection.TryRead(selection, projects, "../../evaluation", "Debug", out string notAnId));
        Assert.Equal("no such collection", notAnId);
        foreach (string id in new[] { one.Id, damaged.Id })
        {
            BuildCollection.Discard(fixture.Root, id);
        }
    }

    /// <summary>
    /// Through a real host over JSON-RPC, as the verifier asks: an offer runs nothing and asks nothing; the graph read
    /// from the build's collection, after the call's approval, is the graph an evaluation gives, and is kept (the next
    /// offer answers it); a collection the build did not fill is evaluated instead.
    /// </summary>
    [Fact]
    public async Task ProjectGraph_OffersACollection_ReadsItAfterTheBuild_AndEvaluatesWhenItIsIncomplete()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("ArtifactsLayout", "ArtifactsLayout.slnx");
        await BuildAsync(fixture, "ArtifactsLayout.slnx", environment: null);
        ProjectGraphResult evaluated;
        using (TempDirectory other = new())
        {
            await using SemanticHost evaluating = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = other.Path });
            evaluating.Client.GrantAll();
            evaluated = await evaluating.GraphAsync(fixture.Root);
        }

        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });
        host.Client.DenyAll("an offer asks nothing");
        ProjectGraphResult offered = await host.GraphAsync(fixture.Root, buildCollection: BuildCollection.Offer);
        Assert.Empty(offered.Projects);
        Assert.NotNull(offered.BuildCollection);
        Assert.Empty(host.Client.AuthorizationRequests);
        Assert.Equal(0, host.Cache.EvaluationCount);

        await BuildAsync(fixture, "ArtifactsLayout.slnx", offered.BuildCollection.Environment);
        host.Client.GrantAll();
        ProjectGraphResult collected = await host.GraphAsync(fixture.Root, buildCollection: offered.BuildCollection.Id);
        Assert.Single(host.Client.AuthorizationRequests);
        Assert.Equal(JsonSerializer.Serialize(evaluated), JsonSerializer.Serialize(collected));
        Assert.False(Directory.Exists(Path.GetDirectoryName(offered.BuildCollection.Environment["SharpClawCollectFolder"])), "the collection was not deleted");

        ProjectGraphResult kept = await host.GraphAsync(fixture.Root, buildCollection: BuildCollection.Offer);
        Assert.Null(kept.BuildCollection);
        Assert.Equal(JsonSerializer.Serialize(evaluated with { FromCache = true }), JsonSerializer.Serialize(kept));

        // A collection no build filled (a new state folder, so nothing kept): the host evaluates instead.
        using TempDirectory fresh = new();
        await using SemanticHost unfilled = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = fresh.Path });
        unfilled.Client.GrantAll();
        ProjectGraphResult offer = await unfilled.GraphAsync(fixture.Root, buildCollection: BuildCollection.Offer);
        ProjectGraphResult fellBack = await unfilled.GraphAsync(fixture.Root, buildCollection: offer.BuildCollection!.Id);
        Assert.Equal(JsonSerializer.Serialize(evaluated), JsonSerializer.Serialize(fellBack));
        Assert.Equal(1, unfilled.Cache.EvaluationCount);
    }

    private static async Task BuildAsync(FixtureWorkspace fixture, string target, IReadOnlyDictionary<string, string>? environment, params string[] extra)
    {
        ProcessResult build = await DotnetCli.RunAsync(
            ["build", target, "--no-restore", "-nodeReuse:false", "-nologo", "-v:m", .. extra], fixture.Root, CancellationToken.None, environment: environment);
        Assert.True(build.ExitCode == 0, $"dotnet build {target} exited with {build.ExitCode}:\n{build.Stdout}\n{build.Stderr}");
    }

    private static List<string> IntermediateAssemblies(EvaluationSnapshot snapshot) =>
        [.. snapshot.Projects.SelectMany(p => p.Outputs).Select(o => o.IntermediateAssembly).OfType<string>().Where(File.Exists)];
}
