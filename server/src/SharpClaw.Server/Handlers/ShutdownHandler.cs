using SharpClaw.Protocol;
using StreamJsonRpc;

namespace SharpClaw.Server.Handlers;

/// <summary>
/// LSP <c>shutdown</c>: answers null; from then on <see cref="HostLifecycle"/> rejects every
/// request but <c>exit</c>. Loaded workspaces are released (each as soon as its running queries finish);
/// loads in progress are cancelled. It never waits for a pending evaluation approval.
/// </summary>
public sealed class ShutdownHandler(HostState state)
{
    [JsonRpcMethod(ProtocolMethods.Shutdown)]
    public object? Shutdown()
    {
        state.Lifecycle.MarkShutdownRequested();
        state.Log.Info("Shutdown requested; releasing loaded workspaces, waiting for exit.");
        _ = state.Cache.DisposeAsync().AsTask();
        return null;
    }
}
