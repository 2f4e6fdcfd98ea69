using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// The applies this host is writing now, so that the host never ends in the middle of one. Whatever ends
/// the host (an <c>exit</c>, stdin closed, the client process gone, SIGTERM, a resident host stopping)
/// first calls <see cref="StopAsync"/>: it cancels every running apply, which then rolls back what it
/// wrote (<see cref="WorkspaceWriter"/>), and waits for them, bounded. Only a SIGKILL of the host itself
/// cuts an apply short; its durable record (<see cref="InterruptedEdits"/>) covers that case.
/// </summary>
public sealed class ApplyTracker
{
    /// <summary>How long an ending host waits for running applies: a file write, then the bounded rollback.</summary>
    public static readonly TimeSpan ExitBound = WorkspaceWriter.RollbackTimeout + TimeSpan.FromSeconds(15);

    private readonly Lock gate = new();
    private readonly CancellationTokenSource stopping = new();
    private TaskCompletionSource idle = CompletedSource();
    private int running;

    /// <summary>Cancelled once the host is ending: every apply links its request's token with it.</summary>
    public CancellationToken Stopping => this.stopping.Token;

    /// <summary>True while an apply writes or rolls back.</summary>
    public bool Busy
    {
        get
        {
            lock (this.gate)
            {
                return this.running > 0;
            }
        }
    }

    /// <summary>Marks an apply as running until the result is disposed.</summary>
    public IDisposable Enter()
    {
        lock (this.gate)
        {
            if (this.running++ == 0)
            {
                this.idle = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            }
        }

        return new Running(this);
    }

    /// <summary>Cancels the running applies and waits up to <paramref name="bound"/> for them; false if one still runs.</summary>
    public async Task<bool> StopAsync(TimeSpan bound)
    {
        Task idleNow;
        lock (this.gate)
        {
            idleNow = this.idle.Task;
        }

        await this.stopping.CancelAsync().ConfigureAwait(false);
        return await Task.WhenAny(idleNow, Task.Delay(bound)).ConfigureAwait(false) == idleNow;
    }

    /// <summary>What every way of ending the host calls first: a running apply is cancelled and rolls back, bounded by <see cref="ExitBound"/>.</summary>
    public async Task StopBeforeExitAsync(HostLog log)
    {
        if (this.Busy)
        {
            log.Info("An apply is running: cancelling it and waiting for its rollback before exiting.");
        }

        // Always: an apply that would start now is refused before its first write.
        if (!await this.StopAsync(ExitBound).ConfigureAwait(false))
        {
            log.Error($"The running apply did not end within {ExitBound.TotalSeconds:0} s; exiting anyway (its record reports it at the next request).");
        }
    }

    private void Leave()
    {
        lock (this.gate)
        {
            if (--this.running == 0)
            {
                this.idle.TrySetResult();
            }
        }
    }

    private static TaskCompletionSource CompletedSource()
    {
        TaskCompletionSource source = new();
        source.SetResult();
        return source;
    }

    private sealed class Running(ApplyTracker tracker) : IDisposable
    {
        private int disposed;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref this.disposed, 1) == 0)
            {
                tracker.Leave();
            }
        }
    }
}
