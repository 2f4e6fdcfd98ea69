using SharpClaw.Protocol;

namespace SharpClaw.Server.Handlers;

public enum HostPhase
{
    AwaitingInitialize,
    Running,
    ShutdownRequested,
}

/// <summary>Why and with which exit code the host stops.</summary>
public sealed record HostExit(int ExitCode, string Reason);

/// <summary>
/// The LSP lifecycle state machine (initialize → running → shutdown → exit) plus the single
/// "the host should now exit" signal that Program waits on. It never exits the process itself,
/// so a <c>HostServer</c> can run in-memory inside tests.
/// </summary>
public sealed class HostLifecycle
{
    private readonly TaskCompletionSource<HostExit> exited = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int phase = (int)HostPhase.AwaitingInitialize;

    public HostPhase Phase => (HostPhase)Volatile.Read(ref this.phase);

    /// <summary>Completes once, with the first exit reason reported.</summary>
    public Task<HostExit> Exited => this.exited.Task;

    public void MarkInitialized() =>
        Interlocked.CompareExchange(ref this.phase, (int)HostPhase.Running, (int)HostPhase.AwaitingInitialize);

    public void MarkShutdownRequested() => Volatile.Write(ref this.phase, (int)HostPhase.ShutdownRequested);

    /// <summary>LSP: exit code 0 when <c>shutdown</c> came first, 1 otherwise.</summary>
    public int ExitCodeForExitNotification => this.Phase == HostPhase.ShutdownRequested ? 0 : 1;

    public bool RequestExit(int exitCode, string reason) => this.exited.TrySetResult(new HostExit(exitCode, reason));

    /// <summary>
    /// Decides whether a message may be dispatched in the current phase, following LSP: nothing but
    /// <c>initialize</c> before initialization, nothing but <c>exit</c> after <c>shutdown</c>.
    /// Returns null when allowed, else the JSON-RPC error for requests (notifications are dropped).
    /// </summary>
    public (int Code, string Message)? Reject(string method)
    {
        if (method == ProtocolMethods.Exit)
        {
            return null;
        }

        return this.Phase switch
        {
            HostPhase.AwaitingInitialize when method != ProtocolMethods.Initialize =>
                (ProtocolErrorCodes.ServerNotInitialized, $"'{method}' arrived before 'initialize'."),
            HostPhase.Running when method == ProtocolMethods.Initialize =>
                (ProtocolErrorCodes.InvalidRequest, "'initialize' may only be sent once."),
            HostPhase.ShutdownRequested =>
                (ProtocolErrorCodes.InvalidRequest, $"'{method}' arrived after 'shutdown'; only 'exit' is accepted now."),
            _ => null,
        };
    }
}
