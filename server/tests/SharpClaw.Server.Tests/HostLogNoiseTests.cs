using SharpClaw.Protocol;
using SharpClaw.Protocol.Lifecycle;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;
using StreamJsonRpc;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The host's log is what a person reads in the SharpClaw output channel: the editor's ordinary
/// traffic (a save) logs no protocol warning, and an expected typed rejection is one line, not a
/// stack trace.
/// </summary>
public sealed class HostLogNoiseTests
{
    [Fact]
    public async Task DidSave_IsHandled_AndATypedRejectionLogsOneLineWithoutStack()
    {
        await using InMemoryHost host = InMemoryHost.Start();
        await host.Client.InvokeWithParameterObjectAsync<InitializeResult>(ProtocolMethods.Initialize, new Dictionary<string, object?> { ["capabilities"] = new Dictionary<string, object?>() });
        await host.Client.NotifyWithParameterObjectAsync(ProtocolMethods.Initialized, new Dictionary<string, object?>());

        using TempDirectory temp = new();
        string uri = new Uri(Path.Combine(temp.Path, "Program.cs")).AbsoluteUri;
        await host.Client.NotifyWithParameterObjectAsync(ProtocolMethods.DidOpenTextDocument, new DidOpenTextDocumentParams(new TextDocumentItem(uri, "csharp", 1, "class C {}")));
        await host.Client.NotifyWithParameterObjectAsync(ProtocolMethods.DidSaveTextDocument, new DidSaveTextDocumentParams(new TextDocumentIdentifier(uri)));

        // A folder with no solution or project: a typed no_target rejection.
        await Assert.ThrowsAsync<RemoteInvocationException>(() => host.Client.InvokeWithParameterObjectAsync<object>(
            ProtocolMethods.SymbolResolve,
            new SymbolResolveParams { Name = "C", Workspace = temp.Path, Tool = "test-tool" }));
        await host.Client.InvokeAsync<object>(ProtocolMethods.Status);

        string log = host.LogText;
        Assert.DoesNotContain("No target methods", log, StringComparison.Ordinal);
        Assert.DoesNotContain("not serializable", log, StringComparison.Ordinal);
        Assert.DoesNotMatch(@"(?m)^\s+at \S", log);
        Assert.Single(log.Split('\n'), line => line.Contains(ProtocolMethods.SymbolResolve, StringComparison.Ordinal));
    }

    /// <summary>
    /// The output channel shows info and above by default: the editor's and agents' ordinary traffic
    /// (initialize, every request, a typed rejection) is debug, so a person's log is not one line per call.
    /// </summary>
    [Fact]
    public async Task Requests_AndTheHandshake_AreDebugLines()
    {
        await using InMemoryHost host = InMemoryHost.Start();
        await host.Client.InvokeWithParameterObjectAsync<InitializeResult>(ProtocolMethods.Initialize, new Dictionary<string, object?> { ["capabilities"] = new Dictionary<string, object?>() });
        await host.Client.NotifyWithParameterObjectAsync(ProtocolMethods.Initialized, new Dictionary<string, object?>());
        using TempDirectory temp = new();
        await Assert.ThrowsAsync<RemoteInvocationException>(() => host.Client.InvokeWithParameterObjectAsync<object>(
            ProtocolMethods.SymbolResolve,
            new SymbolResolveParams { Name = "C", Workspace = temp.Path, Tool = "test-tool" }));
        for (int i = 0; i < 3; i++)
        {
            await host.Client.InvokeAsync<object>(ProtocolMethods.Status);
        }

        string[] lines = host.LogText.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(3, lines.Count(line => line.Contains($"[debug] request {ProtocolMethods.Status} #", StringComparison.Ordinal)));
        Assert.Contains(lines, line => line.Contains($"[debug] request {ProtocolMethods.SymbolResolve} #", StringComparison.Ordinal));
        Assert.DoesNotContain(lines, line => line.Contains("[info ]", StringComparison.Ordinal));
    }
}
