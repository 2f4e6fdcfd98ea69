using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using SharpClaw.Protocol;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The real host process ("dotnet SharpClaw.Server.dll"), spoken to with raw LSP framing exactly as
/// the extension's vscode-jsonrpc client does.
/// </summary>
public sealed class HostProcessTests
{
    private static readonly TimeSpan ExitTimeout = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task ClientProcessGone_HostExitsWithCode0_AndStdoutCarriedOnlyFrames()
    {
        using TempDirectory temp = new();
        string logDirectory = Path.Combine(temp.Path, "logs");
        using HelperProcess client = HelperProcess.Start();
        await using HostProcess host = HostProcess.Start();

        JsonObject initialize = await host.RequestAsync(ProtocolMethods.Initialize, new JsonObject
        {
            ["processId"] = client.Id,
            ["clientInfo"] = new JsonObject { ["name"] = "raw-test" },
            ["rootUri"] = null,
            ["capabilities"] = new JsonObject(),
            ["initializationOptions"] = new JsonObject { ["logDirectory"] = logDirectory },
        });
        Assert.Equal("sharpclaw-host", initialize["result"]?["serverInfo"]?["name"]?.GetValue<string>());
        Assert.Equal("0.1.0", initialize["result"]?["serverInfo"]?["version"]?.GetValue<string>());
        Assert.Equal(1, initialize["result"]?["capabilities"]?["textDocumentSync"]?.GetValue<int>()); // full-text document sync only
        await host.NotifyAsync(ProtocolMethods.Initialized, new JsonObject());

        JsonObject status = await host.RequestAsync(ProtocolMethods.Status);
        Assert.Equal(client.Id, status["result"]?["clientProcessId"]?.GetValue<int>());
        Assert.Equal(host.Id, status["result"]?["processId"]?.GetValue<int>());
        string? logFile = status["result"]?["logFile"]?.GetValue<string>();
        Assert.Equal(Path.Combine(logDirectory, HostLog.FileNameFor(host.Id)), logFile);

        client.Kill();

        Assert.True(await host.WaitForExitAsync(ExitTimeout), $"The host did not exit after its client died.\n{host.Stderr}");
        Assert.Equal(0, host.ExitCode);
        Assert.Empty(host.ProtocolViolations);
        Assert.Contains($"client process {client.Id}", host.Stderr, StringComparison.Ordinal);

        string log = File.ReadAllText(logFile!);
        Assert.Contains("starting: pid", log, StringComparison.Ordinal); // Buffered from before initialize.
        Assert.Contains("request initialize", log, StringComparison.Ordinal);
        Assert.Contains("request sharpclaw/status", log, StringComparison.Ordinal);
        Assert.Contains("Exiting with code 0", log, StringComparison.Ordinal);
        // The exit line says where the process's cost went (issue 39): CPU, JIT, GC.
        Assert.Matches(@"Cost of this host: CPU \d+\.\d\d s \(user [\d.]+ s\), in the JIT [\d.]+ s for [\d,]+ methods, GC pauses [\d.]+ s \(\d+/\d+/\d+ gen0/1/2, workstation[^)]*\), peak working set \d+ MiB\.", log);
    }

    [Fact]
    public async Task ShutdownThenExit_ExitsWithCode0()
    {
        using TempDirectory temp = new();
        string logDirectory = temp.Path;
        await using HostProcess host = HostProcess.Start("--log-directory", logDirectory);

        JsonObject initialize = await host.RequestAsync(ProtocolMethods.Initialize, new JsonObject { ["processId"] = null, ["capabilities"] = new JsonObject() });
        Assert.NotNull(initialize["result"]);

        JsonObject shutdown = await host.RequestAsync(ProtocolMethods.Shutdown);
        Assert.True(shutdown.ContainsKey("result"), shutdown.ToJsonString());
        Assert.Null(shutdown["result"]);

        JsonObject afterShutdown = await host.RequestAsync(ProtocolMethods.Status);
        Assert.Equal(ProtocolErrorCodes.InvalidRequest, afterShutdown["error"]?["code"]?.GetValue<int>());

        await host.NotifyAsync(ProtocolMethods.Exit);

        Assert.True(await host.WaitForExitAsync(ExitTimeout), $"The host did not exit after 'exit'.\n{host.Stderr}");
        Assert.Equal(0, host.ExitCode);
        Assert.Empty(host.ProtocolViolations);
        string log = File.ReadAllText(Path.Combine(logDirectory, HostLog.FileNameFor(host.Id)));
        Assert.Contains("Shutdown requested", log, StringComparison.Ordinal);
        Assert.Contains("Exiting with code 0", log, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ExitWithoutShutdown_ExitsWithCode1()
    {
        await using HostProcess host = HostProcess.Start();
        await host.RequestAsync(ProtocolMethods.Initialize, new JsonObject { ["processId"] = null });

        await host.NotifyAsync(ProtocolMethods.Exit);

        Assert.True(await host.WaitForExitAsync(ExitTimeout), host.Stderr);
        Assert.Equal(1, host.ExitCode);
        Assert.Empty(host.ProtocolViolations);
    }

    [Fact]
    public async Task ClientProcessIdOption_HostExitsWithThatProcess()
    {
        using HelperProcess client = HelperProcess.Start();
        await using HostProcess host = HostProcess.Start("--stdio", $"--clientProcessId={client.Id.ToString(CultureInfo.InvariantCulture)}");

        // Answering a request proves it is up and watching before the client goes away.
        JsonObject initialize = await host.RequestAsync(ProtocolMethods.Initialize, new JsonObject { ["processId"] = null });
        Assert.NotNull(initialize["result"]);
        Assert.False(host.HasExited);

        client.Kill();

        Assert.True(await host.WaitForExitAsync(ExitTimeout), host.Stderr);
        Assert.Equal(0, host.ExitCode);
        Assert.Empty(host.ProtocolViolations);
    }

    [Fact]
    public async Task ClosingStdin_EndsTheHost()
    {
        await using HostProcess host = HostProcess.Start();
        await host.RequestAsync(ProtocolMethods.Initialize, new JsonObject { ["processId"] = null });

        host.CloseStdin();

        Assert.True(await host.WaitForExitAsync(ExitTimeout), host.Stderr);
        Assert.Equal(1, host.ExitCode);
    }

    [Fact]
    public async Task PrintProtocolSchema_PrintsEverySchema()
    {
        (int exitCode, string stdout, string stderr) = await HostProcess.RunToExitAsync("--print-protocol-schema");

        Assert.True(exitCode == 0, stderr);
        JsonObject schemas = Assert.IsType<JsonObject>(JsonNode.Parse(stdout));
        Assert.Equal(
            [
                "sharpclaw/status", "initialize", "sharpclaw/solutionInspect", "sharpclaw/projectGraph", "sharpclaw/resolveTarget",
                "sharpclaw/resolveSdk", "sharpclaw/symbolResolve", "sharpclaw/findReferences", "sharpclaw/typeHierarchy", "sharpclaw/diagnostics",
                "sharpclaw/navigate", "sharpclaw/bulkNavigate", "sharpclaw/symbols",
                "sharpclaw/navigate:params", "sharpclaw/bulkNavigate:params", "sharpclaw/symbols:params",
                "sharpclaw/reachedTests", "sharpclaw/reachedTests:params",
                "sharpclaw/symbolSearch", "sharpclaw/symbolSearch:params", "sharpclaw/workspaceSearch", "sharpclaw/workspaceSearch:params", "sharpclaw/clearStore", "sharpclaw/clearStore:params",
                "sharpclaw/lspRequest", "sharpclaw/lspRequest:params",
                "sharpclaw/edit", "sharpclaw/undoEdit", "sharpclaw/interruptedEdits", "sharpclaw/interruptedEdits:params", "sharpclaw/redoEdit", "sharpclaw/edit:params", "sharpclaw/undoEdit:params",
                "sharpclaw/redoEdit:params", "sharpclaw/solutionInspect:params", "sharpclaw/projectGraph:params", "sharpclaw/resolveTarget:params",
                "sharpclaw/resolveSdk:params", "sharpclaw/authorizeWrite:params", "sharpclaw/authorizeWrite:result",
                "sharpclaw/symbolResolve:params", "sharpclaw/findReferences:params", "sharpclaw/typeHierarchy:params", "sharpclaw/diagnostics:params",
                "sharpclaw/authorizeEvaluation:params", "sharpclaw/authorizeEvaluation:result", "sharpclaw/loadProgress:params", "error:data",
            ],
            schemas.Select(p => p.Key));
        JsonArray required = schemas["sharpclaw/status"]!["required"]!.AsArray();
        Assert.Contains("hostVersion", required.Select(n => n!.GetValue<string>()));
        Assert.Contains("clientProcessId", required.Select(n => n!.GetValue<string>()));
        Assert.Equal(
            JsonSerializer.Serialize(ProtocolSchema.Create()),
            JsonSerializer.Serialize(schemas));
    }

    [Fact]
    public async Task UnknownOption_ExitsWithCode2AndExplains()
    {
        (int exitCode, string stdout, string stderr) = await HostProcess.RunToExitAsync("--no-such-option");

        Assert.Equal(2, exitCode);
        Assert.Contains("Unknown option '--no-such-option'", stderr, StringComparison.Ordinal);
        Assert.Equal(string.Empty, stdout);
    }
}
