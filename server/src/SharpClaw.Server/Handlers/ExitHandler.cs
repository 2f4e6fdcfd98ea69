using System.Text.Json;
using SharpClaw.Protocol;
using StreamJsonRpc;

namespace SharpClaw.Server.Handlers;

/// <summary>LSP <c>exit</c> notification: the process exits with 0 after <c>shutdown</c>, else 1.</summary>
public sealed class ExitHandler(HostState state)
{
    [JsonRpcMethod(ProtocolMethods.Exit, UseSingleObjectParameterDeserialization = true)]
    public void Exit(JsonElement? parameters = null)
    {
        int exitCode = state.Lifecycle.ExitCodeForExitNotification;
        state.Lifecycle.RequestExit(exitCode, exitCode == 0 ? "exit after shutdown" : "exit without shutdown");
    }
}
