using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using SharpClaw.Protocol;
using StreamJsonRpc;
using StreamJsonRpc.Protocol;

namespace SharpClaw.Server.Hosting;

/// <summary>
/// The wire format shared by the host and the tests' clients: LSP base-protocol framing
/// (Content-Length headers, what vscode-jsonrpc speaks) around UTF-8 JSON from System.Text.Json.
/// </summary>
public static class RpcSerialization
{
    /// <summary>
    /// Serializer options for user data (params, results, error data). Protocol types come from the
    /// source-generated <see cref="ProtocolJsonContext"/>; StreamJsonRpc's own payload types from
    /// <see cref="RpcPlumbingJsonContext"/>. The reflection resolver comes last and only catches
    /// types StreamJsonRpc serializes internally that neither context lists (e.g. exotic error
    /// data) — a unit test keeps protocol types from ever reaching it.
    /// </summary>
    public static JsonSerializerOptions CreateSerializerOptions() =>
        new(ProtocolJsonContext.Default.Options)
        {
            TypeInfoResolver = JsonTypeInfoResolver.Combine(
                ProtocolJsonContext.Default,
                RpcPlumbingJsonContext.Default,
                new DefaultJsonTypeInfoResolver()),
        };

    public static SystemTextJsonFormatter CreateFormatter() =>
        new() { JsonSerializerOptions = CreateSerializerOptions() };

    public static HeaderDelimitedMessageHandler CreateMessageHandler(Stream sendingStream, Stream receivingStream) =>
        new(sendingStream, receivingStream, CreateFormatter());
}

/// <summary>Types StreamJsonRpc itself puts on the wire, and the loose parameter types handlers use.</summary>
[JsonSerializable(typeof(CommonErrorData))]
[JsonSerializable(typeof(RequestId))]
[JsonSerializable(typeof(JsonElement))]
[JsonSerializable(typeof(JsonElement?))]
[JsonSerializable(typeof(object))]
internal sealed partial class RpcPlumbingJsonContext : JsonSerializerContext
{
}
