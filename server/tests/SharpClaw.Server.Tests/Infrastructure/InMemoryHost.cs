using System.Text.Json;
using Nerdbank.Streams;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Hosting;
using SharpClaw.Server.Infrastructure;
using StreamJsonRpc;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// A <see cref="HostServer"/> and a client JsonRpc joined by an in-memory full-duplex stream, both
/// using LSP header framing, as the extension's vscode-jsonrpc client does over stdio.
/// </summary>
internal sealed class InMemoryHost : IAsyncDisposable
{
    private readonly StringWriter logOutput;

    /// <summary>The host's log writer: <see cref="TextWriter.Synchronized"/> over <see cref="logOutput"/>, whose methods lock the writer itself.</summary>
    private readonly TextWriter logWriter;

    private InMemoryHost(HostServer server, JsonRpc client, StringWriter logOutput, TextWriter logWriter)
    {
        this.Server = server;
        this.Client = client;
        this.logOutput = logOutput;
        this.logWriter = logWriter;
    }

    public HostServer Server { get; }

    public JsonRpc Client { get; }

    /// <summary>
    /// What the host logged so far, read under the lock its writes take: background work (a store build) logs while a
    /// test polls, and a StringBuilder read during a write threw ("Index was out of range … 'chunkLength'").
    /// </summary>
    public string LogText
    {
        get
        {
            lock (this.logWriter)
            {
                return this.logOutput.ToString();
            }
        }
    }

    /// <param name="options">Host options.</param>
    /// <param name="clientTarget">An object whose [JsonRpcMethod] methods answer server→client requests
    /// (e.g. sharpclaw/authorizeEvaluation) and notifications; registered before the client listens.</param>
    public static InMemoryHost Start(HostServerOptions? options = null, object? clientTarget = null)
    {
        (Stream serverStream, Stream clientStream) = FullDuplexStream.CreatePair();
        StringWriter logOutput = new();
        TextWriter logWriter = TextWriter.Synchronized(logOutput);
        HostServer server = new(serverStream, serverStream, new HostLog(logWriter), options);
        server.Start();

        JsonRpc client = new RawErrorDataJsonRpc(new HeaderDelimitedMessageHandler(clientStream, clientStream, RpcSerialization.CreateFormatter()));
        if (clientTarget is not null)
        {
            client.AddLocalRpcTarget(clientTarget);
        }

        client.StartListening();
        return new InMemoryHost(server, client, logOutput, logWriter);
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
        // As the host process does at shutdown (Program.cs): store writes still under way land before the test removes
        // its state folder; one that landed after made the folder again (a store.db left in /tmp).
        if (this.Server.State.Cache.Snapshots is { } snapshots)
        {
            await snapshots.FlushAsync(TimeSpan.FromSeconds(5));
        }

        await this.Server.DisposeAsync();
        this.Server.State.Log.Dispose();
    }
}

/// <summary>
/// A client JsonRpc that keeps semantic error data (code -32001) as raw JSON instead of StreamJsonRpc's
/// CommonErrorData, so tests see exactly what travelled (like a TypeScript client would).
/// </summary>
internal sealed class RawErrorDataJsonRpc(IJsonRpcMessageHandler handler) : JsonRpc(handler)
{
    protected override Type? GetErrorDetailsDataType(StreamJsonRpc.Protocol.JsonRpcError error) =>
        error.Error?.Code == (StreamJsonRpc.Protocol.JsonRpcErrorCode)SharpClaw.Protocol.ProtocolErrorCodes.SemanticError
            ? typeof(JsonElement)
            : base.GetErrorDetailsDataType(error);
}
