using System.Text.Json;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Lifecycle;
using SharpClaw.Protocol.Status;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Tests.Infrastructure;
using StreamJsonRpc;
using StreamJsonRpc.Protocol;

namespace SharpClaw.Server.Tests;

/// <summary>The host over in-memory streams, spoken to by a StreamJsonRpc client with LSP framing.</summary>
public sealed class InMemoryHostTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);

    // Trimmed from what vscode-languageclient actually sends: extra members must be ignored.
    private const string LspInitializeParams = """
        {
          "processId": null,
          "clientInfo": { "name": "Visual Studio Code", "version": "1.100.3" },
          "locale": "en",
          "rootPath": null,
          "rootUri": "file:///work/sample",
          "capabilities": { "workspace": { "applyEdit": true }, "textDocument": { "synchronization": { "dynamicRegistration": true } } },
          "trace": "off",
          "workspaceFolders": [ { "uri": "file:///work/sample", "name": "sample" } ],
          "initializationOptions": { "somethingElse": 42 }
        }
        """;

    [Fact]
    public async Task Initialize_ReturnsServerInfoAndEmptyCapabilities()
    {
        await using InMemoryHost host = InMemoryHost.Start();

        InitializeResult result = await host.Client.InvokeWithParameterObjectAsync<InitializeResult>(
            ProtocolMethods.Initialize, InMemoryHost.NamedParams(LspInitializeParams));

        Assert.Equal("sharpclaw-host", result.ServerInfo.Name);
        Assert.Equal(HostInfo.HostVersion, result.ServerInfo.Version);
        Assert.Equal("0.1.0", result.ServerInfo.Version);
        Assert.NotNull(result.Capabilities);
        Assert.Equal(HostPhase.Running, host.Server.Lifecycle.Phase);
        Assert.Contains("initialize from Visual Studio Code 1.100.3", host.LogText, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Status_ReportsVersionsRuntimeAndSdks()
    {
        await using InMemoryHost host = InMemoryHost.Start();
        await host.Client.InvokeWithParameterObjectAsync<InitializeResult>(ProtocolMethods.Initialize, InMemoryHost.NamedParams(LspInitializeParams));
        await host.Client.NotifyWithParameterObjectAsync(ProtocolMethods.Initialized, new Dictionary<string, object?>());

        // Both "no params" and "{}" must work.
        HostStatus status = await host.Client.InvokeAsync<HostStatus>(ProtocolMethods.Status);
        HostStatus statusFromEmptyObject = await host.Client.InvokeWithParameterObjectAsync<HostStatus>(ProtocolMethods.Status, new Dictionary<string, object?>());

        Assert.Equal("0.1.0", status.HostVersion);
        Assert.StartsWith("5.", status.RoslynVersion, StringComparison.Ordinal);
        Assert.DoesNotContain('+', status.RoslynVersion);
        Assert.StartsWith(".NET ", status.Runtime.FrameworkDescription, StringComparison.Ordinal);
        Assert.Equal(System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription, status.Runtime.FrameworkDescription);
        Assert.False(string.IsNullOrEmpty(status.Runtime.RuntimeIdentifier));
        Assert.NotEmpty(status.Sdks);
        Assert.Contains(status.Sdks, sdk => sdk.Version.StartsWith($"{Environment.Version.Major}.", StringComparison.Ordinal));
        Assert.All(status.Sdks, sdk => Assert.True(File.Exists(Path.Combine(sdk.Path, "dotnet.dll")), sdk.Path));
        Assert.Empty(status.LoadedContexts);
        Assert.Equal(Environment.ProcessId, status.ProcessId);
        Assert.Null(status.ClientProcessId);
        Assert.Equal(DateTimeKind.Utc, status.StartedAt.Kind);
        Assert.InRange(status.StartedAt, DateTime.UtcNow.AddMinutes(-5), DateTime.UtcNow.AddSeconds(1));
        Assert.Null(status.LogFile);
        Assert.Equal(status.Sdks.Count, statusFromEmptyObject.Sdks.Count);
    }

    [Fact]
    public async Task Shutdown_ReturnsNull_ThenRequestsFail_AndExitEndsWithCode0()
    {
        await using InMemoryHost host = InMemoryHost.Start();
        await host.Client.InvokeWithParameterObjectAsync<InitializeResult>(ProtocolMethods.Initialize, InMemoryHost.NamedParams(LspInitializeParams));

        object? shutdownResult = await host.Client.InvokeAsync<object?>(ProtocolMethods.Shutdown);
        Assert.Null(shutdownResult);

        RemoteInvocationException error = await Assert.ThrowsAsync<RemoteInvocationException>(
            () => host.Client.InvokeAsync<HostStatus>(ProtocolMethods.Status));
        Assert.Equal(ProtocolErrorCodes.InvalidRequest, error.ErrorCode);

        await host.Client.NotifyAsync(ProtocolMethods.Exit);
        HostExit exit = await Poll.WithTimeout(host.Server.Completion, Timeout, "the exit signal");
        Assert.Equal(0, exit.ExitCode);
    }

    [Fact]
    public async Task ExitWithoutShutdown_EndsWithCode1()
    {
        await using InMemoryHost host = InMemoryHost.Start();
        await host.Client.InvokeWithParameterObjectAsync<InitializeResult>(ProtocolMethods.Initialize, InMemoryHost.NamedParams(LspInitializeParams));

        await host.Client.NotifyAsync(ProtocolMethods.Exit);

        HostExit exit = await Poll.WithTimeout(host.Server.Completion, Timeout, "the exit signal");
        Assert.Equal(1, exit.ExitCode);
    }

    [Fact]
    public async Task RequestBeforeInitialize_IsRejected()
    {
        await using InMemoryHost host = InMemoryHost.Start();

        RemoteInvocationException error = await Assert.ThrowsAsync<RemoteInvocationException>(
            () => host.Client.InvokeAsync<HostStatus>(ProtocolMethods.Status));

        Assert.Equal(ProtocolErrorCodes.ServerNotInitialized, error.ErrorCode);
    }

    [Fact]
    public async Task LspNotificationsAndUnknownMethods_DoNotBreakTheConnection()
    {
        await using InMemoryHost host = InMemoryHost.Start();
        await host.Client.InvokeWithParameterObjectAsync<InitializeResult>(ProtocolMethods.Initialize, InMemoryHost.NamedParams(LspInitializeParams));

        await host.Client.NotifyWithParameterObjectAsync(ProtocolMethods.Initialized, new Dictionary<string, object?>());
        await host.Client.NotifyWithParameterObjectAsync(ProtocolMethods.SetTrace, new Dictionary<string, object?> { ["value"] = "verbose" });
        await host.Client.NotifyWithParameterObjectAsync("$/cancelRequest", new Dictionary<string, object?> { ["id"] = 12345 });
        await host.Client.NotifyWithParameterObjectAsync("$/somethingNew", new Dictionary<string, object?> { ["x"] = 1 });
        RemoteMethodNotFoundException unknown = await Assert.ThrowsAsync<RemoteMethodNotFoundException>(
            () => host.Client.InvokeAsync<object?>("sharpclaw/doesNotExist"));
        Assert.Equal(JsonRpcErrorCode.MethodNotFound, unknown.ErrorCode);

        // A second initialize is a protocol error, not a crash.
        RemoteInvocationException again = await Assert.ThrowsAsync<RemoteInvocationException>(
            () => host.Client.InvokeWithParameterObjectAsync<InitializeResult>(ProtocolMethods.Initialize, InMemoryHost.NamedParams(LspInitializeParams)));
        Assert.Equal(ProtocolErrorCodes.InvalidRequest, again.ErrorCode);

        HostStatus status = await host.Client.InvokeAsync<HostStatus>(ProtocolMethods.Status);
        Assert.Equal("0.1.0", status.HostVersion);
        Assert.False(host.Server.Completion.IsCompleted);
    }

    [Fact]
    public async Task InitializeWithProcessId_WatchesClientAndExitsWhenItIsGone()
    {
        using HelperProcess client = HelperProcess.Start();
        await using InMemoryHost host = InMemoryHost.Start(new HostServerOptions { ParentPollInterval = TimeSpan.FromMilliseconds(100) });
        await host.Client.InvokeWithParameterObjectAsync<InitializeResult>(
            ProtocolMethods.Initialize,
            new Dictionary<string, object?> { ["processId"] = client.Id });

        HostStatus status = await host.Client.InvokeAsync<HostStatus>(ProtocolMethods.Status);
        Assert.Equal(client.Id, status.ClientProcessId);
        Assert.False(host.Server.Completion.IsCompleted);

        client.Kill();

        HostExit exit = await Poll.WithTimeout(host.Server.Completion, Timeout, "the host to notice the client is gone");
        Assert.Equal(0, exit.ExitCode);
        Assert.Contains(client.Id.ToString(System.Globalization.CultureInfo.InvariantCulture), exit.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task InitializationOptionsLogDirectory_OpensLogFileWithEarlierLines()
    {
        using TempDirectory temp = new();
        string logDirectory = Path.Combine(temp.Path, "logs");
        await using InMemoryHost host = InMemoryHost.Start();
        host.Server.State.Log.Info("a line from before initialize");

        await host.Client.InvokeWithParameterObjectAsync<InitializeResult>(
            ProtocolMethods.Initialize,
            InMemoryHost.NamedParams($$"""{ "processId": null, "initializationOptions": { "logDirectory": {{JsonSerializer.Serialize(logDirectory)}} } }"""));
        HostStatus status = await host.Client.InvokeAsync<HostStatus>(ProtocolMethods.Status);

        string expected = Path.Combine(logDirectory, HostLog.FileNameFor(Environment.ProcessId));
        Assert.Equal(expected, status.LogFile);
        Assert.True(await Poll.UntilAsync(() => ReadShared(expected).Contains("request initialize", StringComparison.Ordinal), Timeout));
        string text = ReadShared(expected);
        Assert.Contains("a line from before initialize", text, StringComparison.Ordinal);
    }

    private static string ReadShared(string path)
    {
        using FileStream stream = new(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        using StreamReader reader = new(stream);
        return reader.ReadToEnd();
    }
}
