using System.Text.Json;
using SharpClaw.Protocol;
using StreamJsonRpc;

namespace SharpClaw.Server.Handlers;

/// <summary>LSP <c>initialized</c> notification: nothing to do yet beyond noting it.</summary>
public sealed class InitializedHandler(HostState state)
{
    // Any params shape is accepted (LSP sends {}), so a client quirk can't produce warnings.
    [JsonRpcMethod(ProtocolMethods.Initialized, UseSingleObjectParameterDeserialization = true)]
    public void Initialized(JsonElement? parameters = null) => state.Log.Debug("Client reported initialized.");
}
