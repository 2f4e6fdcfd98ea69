using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Fingerprints;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Semantic.Snapshots;

namespace SharpClaw.Server.Semantic.Cache;

/// <summary>
/// Where the cache's loads run: one at a time (a load, a re-evaluation, an evaluation-only pass or a restore from
/// the approved snapshot), each reporting its progress to the request's sink or else the host's
/// (<see cref="Progress"/>), all cancelled when the host shuts down. It only ever runs what the cache has already
/// authorized; a restore needs no authorization.
/// </summary>
internal sealed class LoadSlot(ContextLoader loader, ContextSnapshots? snapshots, HostLog? log)
{
    private readonly SemaphoreSlim slot = new(1, 1);
    private readonly CancellationTokenSource shutdown = new();
    private int loadCount;
    private int evaluationCount;
    private int restoreCount;
    private bool closed;

    /// <summary>Where loads report their progress when the request names no sink of its own (the host's connection).</summary>
    public ILoadProgressSink? Progress { get; set; }

    /// <summary>Full loads performed (MSBuildWorkspace opened).</summary>
    public int LoadCount => Volatile.Read(ref this.loadCount);

    /// <summary>Evaluation-only passes performed.</summary>
    public int EvaluationCount => Volatile.Read(ref this.evaluationCount);

    /// <summary><see cref="ContextLoader.VouchedCount"/>.</summary>
    public int VouchedCount => loader.VouchedCount;

    /// <summary>Contexts rebuilt from an approved snapshot instead of loaded.</summary>
    public int RestoreCount => Volatile.Read(ref this.restoreCount);

    /// <summary>True once the host shuts down (set under the cache's gate).</summary>
    public bool IsClosed => this.closed;

    /// <summary>The first step of shutdown: cancels the running load and every one waiting for the slot.</summary>
    public Task CancelAsync() => this.shutdown.CancelAsync();

    /// <summary>The second step, under the cache's gate: nothing starts from now on.</summary>
    public void Close() => this.closed = true;

    /// <summary>The typed failure of anything that reaches the cache after shutdown.</summary>
    public void ThrowIfClosed()
    {
        if (this.closed)
        {
            throw SemanticException.LoadFailed("The host is shutting down.");
        }
    }

    /// <summary>
    /// Loads the context for <paramref name="request"/>. With <paramref name="keepIfSameAs"/>, re-evaluates instead and
    /// returns null when MSBuild's answer is what that context was loaded from.
    /// </summary>
    public async Task<SemanticContext?> LoadAsync(ContextRequest request, EvaluationData? reusable, SemanticContext? keepIfSameAs, CancellationToken cancellationToken)
    {
        using CancellationTokenSource linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, this.shutdown.Token);
        await this.slot.WaitAsync(linked.Token).ConfigureAwait(false);
        try
        {
            this.ThrowIfClosed();
            // Every load reports progress (lsp status, the MCP loading error), whichever request started it.
            ContextRequest reporting = request.Progress is null ? request with { Progress = this.Progress } : request;
            SemanticContext? context = keepIfSameAs is { DesignTimeDigest: not null, IsRetired: false }
                ? await loader.ReloadUnlessSameAsync(reporting, keepIfSameAs, linked.Token).ConfigureAwait(false)
                : await loader.LoadAsync(reporting, reusable, linked.Token).ConfigureAwait(false);
            if (context is not null)
            {
                Interlocked.Increment(ref this.loadCount);
            }

            return context;
        }
        catch (OperationCanceledException) when (this.shutdown.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
        {
            throw SemanticException.LoadFailed("The host is shutting down; the load was cancelled.");
        }
        finally
        {
            this.slot.Release();
        }
    }

    /// <summary>
    /// Evaluates <paramref name="request"/> without compiling (projectGraph), with the fingerprint of the build files MSBuild read:
    /// from <paramref name="buildCollection"/> (a build's collection) when it is complete, else with MSBuild.
    /// </summary>
    public async Task<(EvaluationData Evaluation, ContextFingerprint Fingerprint)> EvaluateAsync(ContextRequest request, string? buildCollection, CancellationToken cancellationToken)
    {
        using CancellationTokenSource linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, this.shutdown.Token);
        await this.slot.WaitAsync(linked.Token).ConfigureAwait(false);
        try
        {
            this.ThrowIfClosed();
            EvaluationData evaluation = await loader.EvaluateAsync(request, buildCollection, linked.Token).ConfigureAwait(false);
            ContextFingerprint fingerprint = loader.FingerprintEvaluation(evaluation);
            Interlocked.Increment(ref this.evaluationCount);
            return (evaluation, fingerprint);
        }
        finally
        {
            this.slot.Release();
        }
    }

    /// <summary>
    /// Rebuilds the context from its approved snapshot in the store when that is still valid (no MSBuild, no
    /// authorization); null when there is none or it does not match the disk.
    /// </summary>
    public async Task<SemanticContext?> TryRestoreAsync(ContextRequest request, CancellationToken cancellationToken)
    {
        if (snapshots is null)
        {
            return null;
        }

        using CancellationTokenSource linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, this.shutdown.Token);
        await this.slot.WaitAsync(linked.Token).ConfigureAwait(false);
        try
        {
            this.ThrowIfClosed();
            SemanticContext? restored;
            try
            {
                restored = await Task.Run(() => snapshots.TryRestore(request), linked.Token).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                // A snapshot is only ever a shortcut: whatever went wrong, the authorized load is still there.
                log?.Warn($"Approved snapshot of {request.Key} not used: {ex.GetType().Name}: {ex.Message}; loading with authorization.");
                restored = null;
            }

            if (restored is not null)
            {
                Interlocked.Increment(ref this.restoreCount);
                (request.Progress ?? this.Progress)?.Report(FromSnapshotProgress(request, restored));
            }

            return restored;
        }
        finally
        {
            this.slot.Release();
        }
    }

    /// <summary>The one progress update of a restore: done at once, its step naming where it came from.</summary>
    private static LoadProgressParams FromSnapshotProgress(ContextRequest request, SemanticContext context) =>
        new(ProgressKind.Load, request.Target.RelativeTarget, request.Configuration, request.TargetFramework, context.ProjectCount, context.ProjectCount, "from approved snapshot", 100);
}
