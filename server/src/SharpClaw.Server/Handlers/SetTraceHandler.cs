using System.Text.Json;
using SharpClaw.Protocol;
using StreamJsonRpc;

namespace SharpClaw.Server.Handlers;

/// <summary>
/// LSP <c>$/setTrace</c>: vscode-languageclient sends it when the trace setting changes. The host
/// has no trace output yet, so it is accepted and ignored. (<c>$/cancelRequest</c> needs no handler:
/// StreamJsonRpc implements it natively.)
/// </summary>
public sealed class SetTraceHandler
{
    [JsonRpcMethod(ProtocolMethods.SetTrace, UseSingleObjectParameterDeserialization = true)]
    public void SetTrace(JsonElement? parameters = null)
    {
    }
}
