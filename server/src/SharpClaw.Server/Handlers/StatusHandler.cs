using System.Runtime.InteropServices;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Status;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Toolchain;
using StreamJsonRpc;

namespace SharpClaw.Server.Handlers;

/// <summary><c>sharpclaw/status</c>: what the host is, what it runs on, and what it has loaded.</summary>
public sealed class StatusHandler(HostState state)
{
    [JsonRpcMethod(ProtocolMethods.Status)]
    public HostStatus GetStatus()
    {
        string? dotnetRoot = SdkInventory.FindDotnetRoot();
        return new HostStatus(
            HostVersion: HostInfo.HostVersion,
            RoslynVersion: HostInfo.RoslynVersion,
            Runtime: new RuntimeInfo(RuntimeInformation.FrameworkDescription, RuntimeInformation.RuntimeIdentifier, dotnetRoot),
            Sdks: SdkInventory.FindSdks(dotnetRoot),
            LoadedContexts: state.Cache.LoadedContexts, // A snapshot: never waits for a load or an approval.
            ProcessId: Environment.ProcessId,
            ClientProcessId: state.ClientProcessId,
            StartedAt: state.StartedAtUtc,
            LogFile: state.Log.FilePath);
    }
}
