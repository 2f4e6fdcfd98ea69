using System.Text.Json;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The evaluation an authorized projectGraph pass (the verifier's graph) ran is kept in the store's <c>evaluations</c>
/// table: a later host (every `sharpclaw verify` starts one) answers the same graph without MSBuild and without asking,
/// while no build file changed; a changed project file, Directory.Build.props or an added global.json makes it ask and
/// evaluate again.
/// </summary>
public sealed class KeptEvaluationTests
{
    /// <summary>
    /// One kept evaluation (one authorized pass) for both sides: a later host answers from it after a source edit;
    /// then each build input changed alone, one after the other on the same copy and state folder: the evaluation
    /// after each change is the one the next change invalidates.
    /// </summary>
    [Fact]
    public async Task NewHost_AnswersTheGraphFromTheKeptEvaluation_WithoutAskingOrEvaluating_UntilABuildInputChanges()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("DesignTimeMarker", "DesignTimeMarker.slnx");
        using TempDirectory state = new();
        ProjectGraphResult first = await EvaluateAndKeepAsync(fixture, state.Path);

        // A source edit is no build input: the kept evaluation still answers.
        fixture.Edit("App/Greeter.cs", text => text + "\n// edited between the hosts\n");

        await using (SemanticHost warm = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path }))
        {
            warm.Client.DenyAll("must not be asked");
            ProjectGraphResult again = await warm.GraphAsync(fixture.Root);
            Assert.True(again.FromCache);
            Assert.Empty(warm.Client.AuthorizationRequests);
            Assert.Equal(0, warm.Cache.EvaluationCount);
            Assert.Equal(0, warm.Cache.LoadCount);
            Assert.Equal(JsonSerializer.Serialize(first with { FromCache = true }), JsonSerializer.Serialize(again));
        }

        // A changed build input asks and evaluates again.
        foreach (string changed in new[] { "App/App.csproj", "Directory.Build.props", "global.json" })
        {
            if (changed == "global.json")
            {
                await File.WriteAllTextAsync(Path.Combine(fixture.Root, changed), "{ \"sdk\": { \"rollForward\": \"latestMajor\" } }\n");
            }
            else
            {
                fixture.Edit(changed, text => text.Replace("</PropertyGroup>", "  <Deterministic>true</Deterministic>\n  </PropertyGroup>", StringComparison.Ordinal));
            }

            await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });
            host.Client.DenyAll("asked again");
            await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => host.GraphAsync(fixture.Root));
            Assert.True(host.Client.AuthorizationRequests.Count == 1, $"{changed}: asked {host.Client.AuthorizationRequests.Count} times");
            Assert.True(host.Cache.EvaluationCount == 0, $"{changed}: evaluated before the approval");

            host.Client.GrantAll();
            ProjectGraphResult evaluated = await host.GraphAsync(fixture.Root);
            Assert.False(evaluated.FromCache, changed);
            Assert.True(host.Cache.EvaluationCount == 1, $"{changed}: {host.Cache.EvaluationCount} evaluations");
            await host.Cache.Snapshots!.FlushAsync(TimeSpan.FromSeconds(30));
            Assert.True(host.Cache.Snapshots.EvaluationWriteCount == 1, $"{changed}: the evaluation was not kept");
        }
    }

    private static async Task<ProjectGraphResult> EvaluateAndKeepAsync(FixtureWorkspace fixture, string stateRoot)
    {
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = stateRoot });
        host.Client.GrantAll();
        ProjectGraphResult evaluated = await host.GraphAsync(fixture.Root);
        Assert.False(evaluated.FromCache);
        Assert.Equal(1, host.Cache.EvaluationCount);
        await host.Cache.Snapshots!.FlushAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(1, host.Cache.Snapshots.EvaluationWriteCount);
        return evaluated;
    }
}
