using System.Text;
using System.Text.Json.Nodes;
using SharpClaw.Protocol;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Messages a hostile or broken client can send the real host process: nesting 10,000 levels deep,
/// a number beyond a C# int, a lone surrogate, a NUL byte in a path. Each is answered with a typed
/// InvalidRequest naming the argument, and the host keeps serving.
/// </summary>
public sealed class HostilePayloadTests
{
    private static async Task<HostProcess> StartAsync()
    {
        HostProcess host = HostProcess.Start();
        await host.RequestAsync(ProtocolMethods.Initialize, new JsonObject { ["processId"] = null, ["rootUri"] = null, ["capabilities"] = new JsonObject() });
        await host.NotifyAsync(ProtocolMethods.Initialized, new JsonObject());
        return host;
    }

    private static void AssertInvalidRequest(JsonObject response, string expected)
    {
        Assert.Equal(ProtocolErrorCodes.SemanticError, response["error"]?["code"]?.GetValue<int>());
        Assert.Equal("invalid_request", response["error"]?["data"]?["kind"]?.GetValue<string>());
        Assert.Contains(expected, response["error"]?["data"]?["message"]?.GetValue<string>(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task MessageNested10000Deep_IsInvalidRequest_AndTheHostStaysAlive()
    {
        await using HostProcess host = await StartAsync();
        string deep = new StringBuilder().Append('[', 10_000).Append(']', 10_000).ToString();

        JsonObject response = await host.RequestRawAsync(900, $$$"""{"jsonrpc":"2.0","id":900,"method":"sharpclaw/navigate","params":{"workspace":"/tmp","action":"hover","symbol":{{{deep}}}}}""");

        AssertInvalidRequest(response, "argument 'symbol");
        Assert.Contains("nested deeper than", response["error"]?["data"]?["message"]?.GetValue<string>(), StringComparison.Ordinal);
        JsonObject status = await host.RequestAsync(ProtocolMethods.Status);
        Assert.NotNull(status["result"]);
        Assert.False(host.HasExited, host.Stderr);
    }

    [Fact]
    public async Task UnreadableArguments_AreInvalidRequest_NamingTheArgument_WithoutLoadingAnything()
    {
        await using HostProcess host = await StartAsync();
        using TempDirectory workspace = new();
        string root = System.Text.Json.JsonSerializer.Serialize(workspace.Path);

        JsonObject offset = await host.RequestRawAsync(901, $$$"""{"jsonrpc":"2.0","id":901,"method":"sharpclaw/navigate","params":{"workspace":{{{root}}},"action":"references","symbol":"A.B","offset":9007199254740991}}""");
        AssertInvalidRequest(offset, "argument 'offset'");

        JsonObject surrogate = await host.RequestRawAsync(902, $$$"""{"jsonrpc":"2.0","id":902,"method":"sharpclaw/edit","params":{"workspace":{{{root}}},"action":"rename","name":"A.B","newName":"Su\ud800m"}}""");
        AssertInvalidRequest(surrogate, "argument 'newName' contains a lone UTF-16 surrogate");

        JsonObject nul = await host.RequestRawAsync(903, $$$"""{"jsonrpc":"2.0","id":903,"method":"sharpclaw/symbols","params":{"workspace":{{{root}}},"path":"Calc\u0000ulator.cs"}}""");
        AssertInvalidRequest(nul, "argument 'path' contains a NUL character at position 5");

        Assert.NotNull((await host.RequestAsync(ProtocolMethods.Status))["result"]);
        Assert.DoesNotContain("System.", offset.ToJsonString() + surrogate.ToJsonString() + nul.ToJsonString(), StringComparison.Ordinal);
    }
}
