using SharpClaw.Protocol;
using SharpClaw.Server.Hosting;
using StreamJsonRpc;

namespace SharpClaw.Server.Lifecycle;

/// <summary>
/// LSP <c>shutdown</c>: answers null; from then on <see cref="HostLifecycle"/> rejects every
/// request but <c>exit</c>. Later, this is where loaded workspaces get released.
/// </summary>
public sealed class ShutdownHandler(HostState state)
{
    [JsonRpcMethod(ProtocolMethods.Shutdown)]
    public object? Shutdown()
    {
        state.Lifecycle.MarkShutdownRequested();
        state.Log.Info("Shutdown requested; waiting for exit.");
        return null;
    }
}
