using System.Text.Json.Nodes;
using SharpClaw.Protocol;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The host's generated evaluation project: a stranger's Directory.Build.rsp / .props / .targets /
/// Directory.Packages.props in the folders above it (the shared temp folder where it used to live,
/// and the state folder where it lives now) adds no switch and imports nothing into an authorized
/// evaluation. The real host process, with its own TMPDIR and state root.
/// </summary>
public sealed class EvaluationIsolationTests
{
    [Fact]
    public async Task PlantedResponseAndPropsFiles_AboveTheEvaluationProject_AreIgnored()
    {
        if (OperatingSystem.IsWindows())
        {
            return; // TMPDIR is how the shared temp folder is redirected here.
        }

        using FixtureWorkspace fixture = FixtureWorkspace.Restored("Calculator", "Calculator.slnx");
        using TempDirectory sandbox = new();
        string tmp = Directory.CreateDirectory(Path.Combine(sandbox.Path, "tmp")).FullName;
        string stateRoot = Path.Combine(sandbox.Path, "state");
        string workspaceState = StateFolder.ForWorkspace(fixture.Root, StateFolder.Root(stateRoot));
        string marker = Path.Combine(sandbox.Path, "planted-code-ran.txt");
        string evil = Path.Combine(sandbox.Path, "evil.targets");
        File.WriteAllText(evil, $"<Project InitialTargets=\"Planted\"><Target Name=\"Planted\"><WriteLinesToFile File=\"{marker}\" Lines=\"$(MSBuildProjectFullPath)\" /></Target></Project>\n");
        string[] above = [tmp, Directory.CreateDirectory(Path.Combine(tmp, "sharpclaw-eval")).FullName, stateRoot, workspaceState];
        foreach (string folder in above)
        {
            File.WriteAllText(Path.Combine(folder, "Directory.Build.rsp"), $"-p:CustomBeforeMicrosoftCommonTargets={evil}\n");
            foreach (string props in new[] { "Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props" })
            {
                File.WriteAllText(Path.Combine(folder, props), $"<Project><Import Project=\"{evil}\" /></Project>\n");
            }
        }

        await using HostProcess host = HostProcess.StartWithEnvironment(new Dictionary<string, string> { ["TMPDIR"] = tmp, ["SHARPCLAW_STATE_DIR"] = stateRoot });
        await host.RequestAsync(ProtocolMethods.Initialize, new JsonObject { ["processId"] = null, ["capabilities"] = new JsonObject() });
        await host.NotifyAsync(ProtocolMethods.Initialized, new JsonObject());
        JsonObject response = await host.RequestServingAsync(
            ProtocolMethods.ProjectGraph,
            new JsonObject { ["workspace"] = fixture.Root, ["tool"] = "test-tool" },
            _ => new JsonObject { ["granted"] = true, ["message"] = null },
            [],
            SemanticHost.Timeout);

        Assert.True(response["error"] is null, $"{response}\n{host.Stderr}");
        Assert.NotEmpty(response["result"]!["projects"]!.AsArray());
        Assert.False(File.Exists(marker), File.Exists(marker) ? $"planted code ran in: {File.ReadAllText(marker)}" : null);
    }
}
