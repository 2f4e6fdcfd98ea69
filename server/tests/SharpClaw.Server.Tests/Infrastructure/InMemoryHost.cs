using System.Text.Json;
using Nerdbank.Streams;
using SharpClaw.Server.Hosting;
using StreamJsonRpc;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// A <see cref="HostServer"/> and a client JsonRpc joined by an in-memory full-duplex stream, both
/// using LSP header framing, as the extension's vscode-jsonrpc client does over stdio.
/// </summary>
internal sealed class InMemoryHost : IAsyncDisposable
{
    private InMemoryHost(HostServer server, JsonRpc client, StringWriter logOutput)
    {
        this.Server = server;
        this.Client = client;
        this.LogOutput = logOutput;
    }

    public HostServer Server { get; }

    public JsonRpc Client { get; }

    public StringWriter LogOutput { get; }

    public static InMemoryHost Start(HostServerOptions? options = null)
    {
        (Stream serverStream, Stream clientStream) = FullDuplexStream.CreatePair();
        StringWriter logOutput = new();
        HostServer server = new(serverStream, serverStream, new HostLog(TextWriter.Synchronized(logOutput)), options);
        server.Start();

        JsonRpc client = new(new HeaderDelimitedMessageHandler(clientStream, clientStream, RpcSerialization.CreateFormatter()));
        client.StartListening();
        return new InMemoryHost(server, client, logOutput);
    }

    /// <summary>LSP-style named params built from raw JSON, so unknown members travel like the real ones.</summary>
    public static Dictionary<string, object?> NamedParams(string json)
    {
        using JsonDocument document = JsonDocument.Parse(json);
        return document.RootElement.EnumerateObject().ToDictionary(p => p.Name, p => (object?)p.Value.Clone());
    }

    public async ValueTask DisposeAsync()
    {
        this.Client.Dispose();
        await this.Server.DisposeAsync();
        this.Server.State.Log.Dispose();
    }
}
