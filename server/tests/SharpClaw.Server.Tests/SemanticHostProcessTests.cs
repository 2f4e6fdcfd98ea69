using System.Text.Json.Nodes;
using SharpClaw.Protocol;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The real host process over stdio: authorization round trip, progress notifications and a load through
/// Roslyn's out-of-process build host found next to the server's own files (as in dist/server).
/// </summary>
public sealed class SemanticHostProcessTests
{
    [Fact]
    public void ServerOutput_ShipsRoslynsBuildHost()
    {
        string serverDirectory = Path.GetDirectoryName(TestPaths.ServerDll)!;

        Assert.True(File.Exists(Path.Combine(serverDirectory, "BuildHost-netcore", "Microsoft.CodeAnalysis.Workspaces.MSBuild.BuildHost.dll")), serverDirectory);
        Assert.True(File.Exists(Path.Combine(serverDirectory, "BuildHost-netcore", "Microsoft.CodeAnalysis.Workspaces.MSBuild.BuildHost.runtimeconfig.json")));

        // No MSBuildLocator in the host itself: Roslyn's build host does the MSBuild discovery.
        Assert.False(File.Exists(Path.Combine(serverDirectory, "Microsoft.Build.Locator.dll")));
    }

    [Fact]
    public void ServerOutput_RuntimeConfig_StartsWithoutDynamicPgo()
    {
        // The host's start-up is JIT-bound (Roslyn is IL only): dynamic PGO's instrumented first
        // compilations cost CPU at every cold start (issue 39; see the server's .csproj).
        string runtimeConfig = Path.ChangeExtension(TestPaths.ServerDll, ".runtimeconfig.json");
        JsonNode? properties = JsonNode.Parse(File.ReadAllText(runtimeConfig))?["runtimeOptions"]?["configProperties"];

        Assert.False(properties?["System.Runtime.TieredPGO"]?.GetValue<bool>() ?? true, runtimeConfig);
        Assert.Equal(268435456, properties?["System.Threading.DefaultStackSize"]?.GetValue<long>());
    }

    [Fact]
    public async Task SolutionInspect_OverStdio_AsksTheClient_ReportsProgress_AndAnswers()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("Calculator", "Calculator.slnx");
        await using HostProcess host = HostProcess.Start();
        await host.RequestAsync(ProtocolMethods.Initialize, new JsonObject { ["processId"] = null, ["capabilities"] = new JsonObject() });
        await host.NotifyAsync(ProtocolMethods.Initialized, new JsonObject());

        List<JsonObject> serverRequests = [];
        List<JsonObject> notifications = [];
        JsonObject response = await host.RequestServingAsync(
            ProtocolMethods.SolutionInspect,
            new JsonObject { ["workspace"] = fixture.Root, ["tool"] = "dotnet_solution_inspect" },
            request =>
            {
                serverRequests.Add(request);
                return new JsonObject { ["granted"] = true, ["message"] = null };
            },
            notifications,
            SemanticHost.Timeout);

        Assert.True(response["error"] is null, $"{response}\n{host.Stderr}");
        JsonObject request = Assert.Single(serverRequests);
        Assert.Equal(ProtocolMethods.AuthorizeEvaluation, request["method"]!.GetValue<string>());
        Assert.Equal(
            new JsonObject
            {
                ["workspace"] = fixture.Root,
                ["target"] = "Calculator.slnx",
                ["configuration"] = "Debug",
                ["targetFramework"] = null,
                ["reason"] = "coldLoad",
                ["changedFiles"] = new JsonArray(),
                ["tool"] = "dotnet_solution_inspect",
                ["call"] = null,
            }.ToJsonString(),
            request["params"]!.ToJsonString());
        Assert.Contains(notifications, n => n["method"]!.GetValue<string>() == ProtocolMethods.LoadProgress && n["params"]!["projectIndex"]!.GetValue<int>() == 3);
        Assert.Equal(3, response["result"]!["projects"]!.AsArray().Count);
        Assert.Equal("complete", response["result"]!["loadStatus"]!.GetValue<string>());

        // A typed error travels as code -32001 with the documented data.
        JsonObject error = await host.RequestAsync(ProtocolMethods.ProjectGraph, new JsonObject { ["workspace"] = fixture.Root, ["target"] = "../elsewhere.csproj" });
        Assert.Equal(-32001, error["error"]!["code"]!.GetValue<int>());
        Assert.Equal("invalid_request", error["error"]!["data"]!["kind"]!.GetValue<string>());
        Assert.Equal(["kind", "message", "candidates", "projects", "command"], error["error"]!["data"]!.AsObject().Select(p => p.Key));

        JsonObject status = await host.RequestAsync(ProtocolMethods.Status);
        Assert.Equal(fixture.Path("Calculator.slnx"), status["result"]!["loadedContexts"]![0]!["target"]!.GetValue<string>());
        Assert.Empty(host.ProtocolViolations);
    }
}
