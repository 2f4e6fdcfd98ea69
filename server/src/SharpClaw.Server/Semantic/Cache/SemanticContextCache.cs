using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Status;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Fingerprints;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Semantic.OpenDocuments;
using SharpClaw.Server.Semantic.Snapshots;

namespace SharpClaw.Server.Semantic.Cache;

/// <summary>
/// The lifecycle-owned cache of up to <see cref="Capacity"/> compilation contexts keyed by
/// (target, configuration, targetFramework), least recently used evicted first (<see cref="ContextList"/>). This
/// file decides what a request gets; its parts do one job each: <see cref="LoadSlot"/> runs loads and reports their
/// progress, <see cref="EvaluationApproval"/> asks for authorization, <see cref="EvaluationList"/> keeps
/// evaluation-only results, <see cref="DocumentRefresh"/> and <see cref="DocumentMoves"/> bring a cached solution up
/// to date with edited and renamed files.
/// <list type="bullet">
/// <item>One gate (held for milliseconds) serializes lookups, fingerprint checks, source refreshes,
/// insertion and eviction. Loads are serialized by a separate load slot, and per key, so at most one
/// load runs at a time and a query for another, cached context never waits for one.</item>
/// <item>Authorization is requested with no lock held but the request's key lock: cached queries, status and
/// shutdown proceed while a person decides.</item>
/// <item>Queries hold a <see cref="ContextLease"/>; eviction retires a context, and its workspace is disposed
/// only when the last lease is released.</item>
/// <item>Valid fingerprint → cached snapshot. Content-only changes → documents refreshed in place (no
/// MSBuild). Structural change → fresh authorization, then a reload. Dynamic imports → fresh authorization on
/// every call, then a re-evaluation that keeps the loaded context when MSBuild's answer is unchanged.</item>
/// </list>
/// </summary>
public sealed class SemanticContextCache : IAsyncDisposable
{
    public const int DefaultCapacity = 4;

    private readonly SemaphoreSlim gate = new(1, 1);
    private readonly ConcurrentDictionary<ContextKey, SemaphoreSlim> keyLocks = new();
    private readonly ContextList contexts;
    private readonly EvaluationList evaluations = new();
    private readonly LoadSlot loads;
    private readonly HostLog? log;
    private int revalidationCount;

    /// <summary>The editor's open buffers, laid over every lease's solution.</summary>
    public OpenDocumentStore OpenDocuments { get; } = new();

    /// <summary>The host log, for services that say where a request's time went.</summary>
    internal HostLog? Log => this.log;

    public SemanticContextCache(HostLog? log = null, int capacity = DefaultCapacity, AnalyzerTrust? trust = null, Func<AnalyzerTrust, ContextSnapshots>? snapshots = null)
    {
        this.log = log;
        this.contexts = new ContextList(capacity, log);
        this.Loader = new ContextLoader(trust ?? AnalyzerTrust.FromInstalledSdks(), log);
        this.Snapshots = snapshots?.Invoke(this.Loader.Trust);
        this.loads = new LoadSlot(this.Loader, this.Snapshots, log);
    }

    /// <summary>The approved snapshots in the store (warm restart), or null when this cache keeps none.</summary>
    public ContextSnapshots? Snapshots { get; }

    /// <summary>Contexts rebuilt from an approved snapshot instead of loaded.</summary>
    public int RestoreCount => this.loads.RestoreCount;

    public int Capacity => this.contexts.Capacity;

    public ContextLoader Loader { get; }

    /// <summary>Full loads performed (MSBuildWorkspace opened).</summary>
    public int LoadCount => this.loads.LoadCount;

    /// <summary>Re-evaluations (dynamic imports) that found MSBuild's answer unchanged and kept the loaded context.</summary>
    public int RevalidationCount => Volatile.Read(ref this.revalidationCount);

    /// <summary>Evaluation-only passes performed.</summary>
    public int EvaluationCount => this.loads.EvaluationCount;

    private int waitingCount;

    /// <summary>Calls waiting for another call on the same context to finish (tests order parallel calls by it).</summary>
    public int WaitingCount => Volatile.Read(ref this.waitingCount);

    /// <summary>Of <see cref="RevalidationCount"/>: those an evaluation alone vouched for, without a design-time pass.</summary>
    public int VouchedCount => this.loads.VouchedCount;

    /// <summary>For <c>sharpclaw/status</c>: never waits for the gate.</summary>
    public IReadOnlyList<LoadedContextInfo> LoadedContexts => this.contexts.Loaded;

    /// <summary>The live contexts, most recently used first (tests and diagnostics).</summary>
    public async Task<IReadOnlyList<SemanticContext>> GetContextsAsync(CancellationToken cancellationToken = default)
    {
        await this.gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            return this.contexts.All;
        }
        finally
        {
            this.gate.Release();
        }
    }

    /// <summary>Where loads report their progress when the request names no sink of its own (the host's connection).</summary>
    public ILoadProgressSink? Progress
    {
        get => this.loads.Progress;
        set => this.loads.Progress = value;
    }

    /// <summary>
    /// A lease on the compilation context for <paramref name="request"/>: cached when its fingerprint is
    /// valid (refreshing changed documents), else loaded after <paramref name="authorizer"/> grants it.
    /// A null authorizer never grants. Throws <see cref="SemanticException"/> for typed failures.
    /// </summary>
    public async Task<ContextLease> AcquireAsync(ContextRequest request, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
    {
        long arrived = System.Diagnostics.Stopwatch.GetTimestamp();
        SemaphoreSlim keyLock = this.keyLocks.GetOrAdd(request.Key, _ => new SemaphoreSlim(1, 1));
        Interlocked.Increment(ref this.waitingCount);
        try
        {
            await keyLock.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            Interlocked.Decrement(ref this.waitingCount);
        }

        try
        {
            (ContextLease? cached, EvaluationReason reason, IReadOnlyList<string> changed, EvaluationData? reusable) =
                await this.TryUseCachedAsync(request, reevaluated: false, cancellationToken).ConfigureAwait(false);
            if (cached is not null)
            {
                if (!(request.ForWrite && cached.Context.FromSnapshot))
                {
                    return cached;
                }

                // The approved snapshot serves read-only queries; a write keeps the rules of a load.
                cached.Dispose();
                reason = EvaluationReason.ColdLoad;
            }
            else if (reason == EvaluationReason.ColdLoad && !request.ForWrite
                && await this.loads.TryRestoreAsync(request, cancellationToken).ConfigureAwait(false) is { } restored)
            {
                return await this.InsertAsync(request, restored, fromCache: true).ConfigureAwait(false);
            }

            await this.AuthorizeAsync(request, authorizer, reason, changed, cancellationToken).ConfigureAwait(false);

            // Dynamic imports: the authorized re-evaluation may leave the loaded context as it is.
            SemanticContext? current = reason == EvaluationReason.DynamicImports ? await this.FindLoadedAsync(request.Key, cancellationToken).ConfigureAwait(false) : null;
            SemanticContext? context;
            if (current is not null && current.EvaluatedFrom >= arrived)
            {
                // A call beside this one re-evaluated while this one waited, starting after this one arrived: that run
                // is as fresh as one of this call's own (parallel tool calls would otherwise re-evaluate one by one).
                this.log?.Info($"Re-evaluation of {request.Target.RelativeTarget} (dynamic imports) shared: MSBuild ran for a call beside this one, starting after this one arrived.");
                context = null;
            }
            else
            {
                context = await this.loads.LoadAsync(request, reusable, current, cancellationToken).ConfigureAwait(false);
            }

            if (context is null)
            {
                Interlocked.Increment(ref this.revalidationCount);
                (ContextLease? kept, _, _, _) = await this.TryUseCachedAsync(request, reevaluated: true, cancellationToken).ConfigureAwait(false);
                if (kept is not null)
                {
                    return kept;
                }

                // Build files changed while MSBuild ran: load from scratch under the same authorization.
                context = (await this.loads.LoadAsync(request, reusable, keepIfSameAs: null, cancellationToken).ConfigureAwait(false))!;
            }

            return await this.InsertAsync(request, context, fromCache: false).ConfigureAwait(false);
        }
        finally
        {
            keyLock.Release();
        }
    }

    private async Task<SemanticContext?> FindLoadedAsync(ContextKey key, CancellationToken cancellationToken)
    {
        await this.gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            return this.contexts.Find(key);
        }
        finally
        {
            this.gate.Release();
        }
    }

    /// <summary>Puts a loaded or restored context first in the cache (evicting the least recently used) and leases it.</summary>
    private async Task<ContextLease> InsertAsync(ContextRequest request, SemanticContext context, bool fromCache)
    {
        await this.gate.WaitAsync(CancellationToken.None).ConfigureAwait(false);
        try
        {
            if (this.loads.IsClosed)
            {
                context.Retire();
                this.loads.ThrowIfClosed();
            }

            this.contexts.Insert(context);
            this.evaluations.Remove(request.Key);
            if (!context.FromSnapshot)
            {
                this.Snapshots?.Save(context); // Captured here: the fingerprint changes only under the gate.
            }

            // The buffers are laid over before the lease is taken, so a cancellation leaks no lease.
            OpenDocumentSnapshot buffers = this.OpenDocuments.Snapshot;
            Solution overlaid = await context.Overlay.ApplyAsync(context.Solution, buffers, CancellationToken.None).ConfigureAwait(false);
            _ = context.TryAddLease();
            return new ContextLease(context, overlaid, fromCache) { Buffers = buffers };
        }
        finally
        {
            this.gate.Release();
        }
    }

    /// <summary>
    /// Answers a read-only <paramref name="query"/> on the context for <paramref name="request"/>. When that context
    /// is loaded, the query runs on its current snapshot while the fingerprint check runs beside it (under the gate,
    /// as in <see cref="AcquireAsync"/>): the answer (or failure) counts only when the check then finds nothing
    /// changed on disk; otherwise the query runs again on a lease from <see cref="AcquireAsync"/> (refreshed, or
    /// reloaded after authorization). A warm query so pays for the larger of its own time and the check, not both.
    /// <paramref name="query"/> must not change anything: it may run twice.
    /// </summary>
    public async Task<T> QueryAsync<T>(ContextRequest request, IEvaluationAuthorizer? authorizer, Func<ContextLease, Task<T>> query, CancellationToken cancellationToken)
    {
        if (await this.TryOptimisticLeaseAsync(request, cancellationToken).ConfigureAwait(false) is ({ } optimistic, { } fresh))
        {
            T answer = default!;
            System.Runtime.ExceptionServices.ExceptionDispatchInfo? failure = null;
            try
            {
                answer = await query(optimistic).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                failure = System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(ex);
            }
            finally
            {
                optimistic.Dispose();
            }

            if (await fresh.ConfigureAwait(false))
            {
                failure?.Throw();
                return answer;
            }
        }

        using ContextLease lease = await this.AcquireAsync(request, authorizer, cancellationToken).ConfigureAwait(false);
        return await query(lease).ConfigureAwait(false);
    }

    /// <summary>
    /// A lease on the loaded context's current snapshot (open buffers laid over) and a task that checks its
    /// fingerprint with the gate held from the lease on: true (and the check committed, the context most recently
    /// used) when nothing changed since, false when anything did (then nothing is committed and
    /// <see cref="AcquireAsync"/> decides). Null when no valid-looking context is loaded.
    /// </summary>
    private async Task<(ContextLease? Lease, Task<bool>? Fresh)> TryOptimisticLeaseAsync(ContextRequest request, CancellationToken cancellationToken)
    {
        await this.gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        bool handedOver = false;
        try
        {
            if (this.loads.IsClosed || this.contexts.Find(request.Key) is not { } context
                || context.Fingerprint.DynamicImports.Count > 0 || context.IsRetired || (request.ForWrite && context.FromSnapshot))
            {
                return (null, null);
            }

            OpenDocumentSnapshot buffers = this.OpenDocuments.Snapshot;
            Solution overlaid = await context.Overlay.ApplyAsync(context.Solution, buffers, cancellationToken).ConfigureAwait(false);
            if (!context.TryAddLease())
            {
                return (null, null);
            }

            ContextLease lease = new(context, overlaid, fromCache: true) { Buffers = buffers };
            Task<bool> fresh = Task.Run(() =>
            {
                try
                {
                    FingerprintCheck check = context.Fingerprint.Check();
                    if (check.IsStructural || check.ContentChanges.Count > 0)
                    {
                        return false;
                    }

                    context.Fingerprint.Commit(check);
                    return this.contexts.MoveToFront(context);
                }
                catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
                {
                    return false; // The full acquire checks again and reports what it must.
                }
                finally
                {
                    this.gate.Release();
                }
            }, CancellationToken.None);
            handedOver = true;
            return (lease, fresh);
        }
        finally
        {
            if (!handedOver)
            {
                this.gate.Release();
            }
        }
    }

    /// <summary>
    /// Evaluated project data for <paramref name="request"/> (no compilation): from a valid loaded context,
    /// a valid earlier evaluation, or, after authorization, the collection a build made (<paramref name="buildCollection"/>,
    /// an id from <see cref="BuildCollection.Prepare"/>) or a fresh evaluation pass when there is none or it is incomplete.
    /// With <see cref="BuildCollection.Offer"/> nothing runs and nothing is authorized: null instead of an evaluation.
    /// </summary>
    public async Task<EvaluationLease?> AcquireEvaluationAsync(
        ContextRequest request, IEvaluationAuthorizer? authorizer, string? buildCollection, CancellationToken cancellationToken)
    {
        SemaphoreSlim keyLock = this.keyLocks.GetOrAdd(request.Key, _ => new SemaphoreSlim(1, 1));
        await keyLock.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            EvaluationReason reason = EvaluationReason.ColdLoad;
            IReadOnlyList<string> changed = [];
            await this.gate.WaitAsync(cancellationToken).ConfigureAwait(false);
            try
            {
                this.loads.ThrowIfClosed();
                SemanticContext? context = this.contexts.Find(request.Key);
                if (context is not null)
                {
                    FingerprintCheck check = context.Fingerprint.Check();
                    if (context.Fingerprint.AllowsReuse(check))
                    {
                        return new EvaluationLease(context.Evaluation, context, FromCache: true);
                    }

                    (reason, changed) = EvaluationApproval.Why(request, check, context.Fingerprint);
                }

                if (this.evaluations.Find(request.Key) is ({ } data, { } fingerprint))
                {
                    FingerprintCheck check = fingerprint.Check();
                    if (fingerprint.AllowsReuse(check))
                    {
                        this.evaluations.Put(request.Key, data, fingerprint);
                        return new EvaluationLease(data, null, FromCache: true);
                    }

                    if (context is null)
                    {
                        (reason, changed) = EvaluationApproval.Why(request, check, fingerprint);
                    }
                }
            }
            finally
            {
                this.gate.Release();
            }

            if (reason == EvaluationReason.ColdLoad && !request.ForWrite)
            {
                // A new host: an evaluation an earlier host kept (no build file changed since) costs no MSBuild and
                // no Roslyn solution; else the approved snapshot of a loaded context.
                if (this.Snapshots is { } snapshots
                    && await Task.Run(() => snapshots.TryRestoreEvaluation(request), cancellationToken).ConfigureAwait(false) is ({ } kept, { } keptFingerprint))
                {
                    await this.gate.WaitAsync(CancellationToken.None).ConfigureAwait(false);
                    try
                    {
                        this.evaluations.Put(request.Key, kept, keptFingerprint);
                    }
                    finally
                    {
                        this.gate.Release();
                    }

                    return new EvaluationLease(kept, null, FromCache: true);
                }

                if (await this.loads.TryRestoreAsync(request, cancellationToken).ConfigureAwait(false) is { } restored)
                {
                    using ContextLease lease = await this.InsertAsync(request, restored, fromCache: true).ConfigureAwait(false);
                    return new EvaluationLease(restored.Evaluation, restored, FromCache: true);
                }
            }

            if (buildCollection == BuildCollection.Offer)
            {
                return null;
            }

            await this.AuthorizeAsync(request, authorizer, reason, changed, cancellationToken).ConfigureAwait(false);
            (EvaluationData evaluation, ContextFingerprint evaluationFingerprint) = await this.loads.EvaluateAsync(request, buildCollection, cancellationToken).ConfigureAwait(false);

            await this.gate.WaitAsync(CancellationToken.None).ConfigureAwait(false);
            try
            {
                this.evaluations.Put(request.Key, evaluation, evaluationFingerprint);
                this.Snapshots?.SaveEvaluation(request, evaluation, evaluationFingerprint); // Exported here: the fingerprint changes only under the gate.
            }
            finally
            {
                this.gate.Release();
            }

            return new EvaluationLease(evaluation, null, FromCache: false);
        }
        finally
        {
            keyLock.Release();
        }
    }

    /// <summary>
    /// Under the gate: a lease on a valid cached context (after refreshing changed documents), or why not.
    /// <paramref name="reevaluated"/>: this call re-evaluated the context's dynamic imports and found them unchanged,
    /// so only a structural change still stands in the way (and the lease does not count as from cache).
    /// </summary>
    private async Task<(ContextLease? Lease, EvaluationReason Reason, IReadOnlyList<string> Changed, EvaluationData? Reusable)> TryUseCachedAsync(
        ContextRequest request, bool reevaluated, CancellationToken cancellationToken)
    {
        await this.gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            this.loads.ThrowIfClosed();
            EvaluationData? reusable = this.evaluations.Reusable(request.Key);
            if (this.contexts.Find(request.Key) is not { } context)
            {
                return (null, EvaluationReason.ColdLoad, [], reusable);
            }

            FingerprintCheck check = context.Fingerprint.Check();
            if (check.IsStructural || (context.Fingerprint.DynamicImports.Count > 0 && !reevaluated))
            {
                (EvaluationReason reason, IReadOnlyList<string> changed) = EvaluationApproval.Why(request, check, context.Fingerprint);
                return (null, reason, changed, reusable);
            }

            if (check.ContentChanges.Count > 0 && DocumentRefresh.Apply(context.Solution, check.ContentChanges) is { } refreshed && refreshed != context.Solution)
            {
                context.ReplaceSolution(refreshed);
            }

            context.Fingerprint.Commit(check);
            this.contexts.MoveToFront(context);
            OpenDocumentSnapshot buffers = this.OpenDocuments.Snapshot;
            Solution overlaid = await context.Overlay.ApplyAsync(context.Solution, buffers, cancellationToken).ConfigureAwait(false);
            _ = context.TryAddLease();
            return (new ContextLease(context, overlaid, fromCache: !reevaluated) { Buffers = buffers }, default, [], null);
        }
        finally
        {
            this.gate.Release();
        }
    }

    /// <summary>Asks for authorization with no lock but the per-key one held (<see cref="EvaluationApproval"/>).</summary>
    private async Task AuthorizeAsync(
        ContextRequest request, IEvaluationAuthorizer? authorizer, EvaluationReason reason, IReadOnlyList<string> changed, CancellationToken cancellationToken)
    {
        await EvaluationApproval.AskAsync(request, authorizer, reason, changed, this.log, cancellationToken).ConfigureAwait(false);
        this.loads.ThrowIfClosed();
    }

    /// <summary>
    /// After the host renamed files itself (rename_file, undo/redo of one): moves the documents of the cached
    /// context for <paramref name="key"/> to their new paths (<see cref="DocumentMoves"/>) and accepts the rename in
    /// the fingerprint, so no MSBuild re-evaluation is needed. No context: nothing to do.
    /// </summary>
    public async Task MoveDocumentsAsync(ContextKey key, IReadOnlyList<(string From, string To)> moves, CancellationToken cancellationToken)
    {
        await this.gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            SemanticContext? context = this.contexts.Find(key);
            if (context is null)
            {
                return;
            }

            Solution solution = context.Solution;
            foreach ((string from, string to) in moves)
            {
                solution = DocumentMoves.Apply(solution, from, to);
                context.Fingerprint.AcceptMove(from, to);
            }

            context.ReplaceSolution(solution);
        }
        finally
        {
            this.gate.Release();
        }
    }

    /// <summary>
    /// Shutdown: cancels loads, retires every context (disposed once its queries finish). Does not wait
    /// for pending authorizations or running queries.
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        await this.loads.CancelAsync().ConfigureAwait(false);
        await this.gate.WaitAsync().ConfigureAwait(false);
        try
        {
            if (this.loads.IsClosed)
            {
                return;
            }

            this.loads.Close();
            this.contexts.Clear("released at shutdown");
            this.evaluations.Clear();
        }
        finally
        {
            this.gate.Release();
        }
    }
}
