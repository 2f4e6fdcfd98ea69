using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Status;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Fingerprints;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Semantic.OpenDocuments;
using SharpClaw.Server.Semantic.Snapshots;
using SharpClaw.Server.Toolchain;

namespace SharpClaw.Server.Semantic.Cache;

/// <summary>Evaluated data handed to a caller that needs no compilation (projectGraph).</summary>
/// <param name="Data">The evaluation.</param>
/// <param name="Context">The compilation context it came from, when one was loaded and valid (for excluded analyzers).</param>
/// <param name="FromCache">True when MSBuild did not run for this call.</param>
public sealed record EvaluationLease(EvaluationData Data, SemanticContext? Context, bool FromCache);

/// <summary>
/// The lifecycle-owned cache of up to <see cref="Capacity"/> compilation contexts keyed by
/// (target, configuration, targetFramework), least recently used evicted first.
/// <list type="bullet">
/// <item>One gate (held for milliseconds) serializes lookups, fingerprint checks, source refreshes,
/// insertion and eviction. Loads are serialized by a separate load slot, and per key, so at most one
/// load runs at a time and a query for another, cached context never waits for one.</item>
/// <item>Authorization is requested with no lock held: cached queries, status and shutdown proceed while
/// a person decides.</item>
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
    private const int EvaluationCapacity = 8;

    private readonly SemaphoreSlim gate = new(1, 1);
    private readonly SemaphoreSlim loadSlot = new(1, 1);
    private readonly ConcurrentDictionary<ContextKey, SemaphoreSlim> keyLocks = new();
    private readonly List<SemanticContext> contexts = []; // most recently used first
    private readonly List<(ContextKey Key, EvaluationData Data, ContextFingerprint Fingerprint)> evaluations = [];
    private readonly CancellationTokenSource shutdown = new();
    private readonly Lock snapshotGate = new();
    private readonly HostLog? log;
    private IReadOnlyList<LoadedContextInfo> snapshot = [];
    private int loadCount;
    private int evaluationCount;
    private bool disposed;

    /// <summary>The editor's open buffers, laid over every lease's solution.</summary>
    public OpenDocumentStore OpenDocuments { get; } = new();

    public SemanticContextCache(HostLog? log = null, int capacity = DefaultCapacity, AnalyzerTrust? trust = null, Func<AnalyzerTrust, ContextSnapshots>? snapshots = null)
    {
        this.log = log;
        this.Capacity = capacity;
        this.Loader = new ContextLoader(trust ?? AnalyzerTrust.FromInstalledSdks(), log);
        this.Snapshots = snapshots?.Invoke(this.Loader.Trust);
    }

    /// <summary>The approved snapshots in the store (warm restart), or null when this cache keeps none.</summary>
    public ContextSnapshots? Snapshots { get; }

    /// <summary>Contexts rebuilt from an approved snapshot instead of loaded.</summary>
    public int RestoreCount => Volatile.Read(ref this.restoreCount);

    private int restoreCount;

    public int Capacity { get; }

    public ContextLoader Loader { get; }

    /// <summary>Full loads performed (MSBuildWorkspace opened).</summary>
    public int LoadCount => Volatile.Read(ref this.loadCount);

    /// <summary>Re-evaluations (dynamic imports) that found MSBuild's answer unchanged and kept the loaded context.</summary>
    public int RevalidationCount => Volatile.Read(ref this.revalidationCount);

    private int revalidationCount;

    /// <summary>Evaluation-only passes performed.</summary>
    public int EvaluationCount => Volatile.Read(ref this.evaluationCount);

    /// <summary>For <c>sharpclaw/status</c>: never waits for the gate.</summary>
    public IReadOnlyList<LoadedContextInfo> LoadedContexts
    {
        get
        {
            lock (this.snapshotGate)
            {
                return this.snapshot;
            }
        }
    }

    /// <summary>The live contexts, most recently used first (tests and diagnostics).</summary>
    public async Task<IReadOnlyList<SemanticContext>> GetContextsAsync(CancellationToken cancellationToken = default)
    {
        await this.gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            return [.. this.contexts];
        }
        finally
        {
            this.gate.Release();
        }
    }

    /// <summary>Where loads report their progress when the request names no sink of its own (the host's connection).</summary>
    public ILoadProgressSink? Progress { get; set; }

    /// <summary>
    /// A lease on the compilation context for <paramref name="request"/>: cached when its fingerprint is
    /// valid (refreshing changed documents), else loaded after <paramref name="authorizer"/> grants it.
    /// A null authorizer never grants. Throws <see cref="SemanticException"/> for typed failures.
    /// </summary>
    public async Task<ContextLease> AcquireAsync(ContextRequest request, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
    {
        SemaphoreSlim keyLock = this.keyLocks.GetOrAdd(request.Key, _ => new SemaphoreSlim(1, 1));
        await keyLock.WaitAsync(cancellationToken).ConfigureAwait(false);
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
                && await this.TryRestoreAsync(request, cancellationToken).ConfigureAwait(false) is { } restored)
            {
                return await this.InsertAsync(request, restored, fromCache: true).ConfigureAwait(false);
            }

            await this.AuthorizeAsync(request, authorizer, reason, changed, cancellationToken).ConfigureAwait(false);

            // Dynamic imports: the authorized re-evaluation may leave the loaded context as it is.
            SemanticContext? current = reason == EvaluationReason.DynamicImports ? await this.FindLoadedAsync(request.Key, cancellationToken).ConfigureAwait(false) : null;
            SemanticContext? context = await this.LoadInSlotAsync(request, reusable, current, cancellationToken).ConfigureAwait(false);
            if (context is null)
            {
                Interlocked.Increment(ref this.revalidationCount);
                (ContextLease? kept, _, _, _) = await this.TryUseCachedAsync(request, reevaluated: true, cancellationToken).ConfigureAwait(false);
                if (kept is not null)
                {
                    return kept;
                }

                // Build files changed while MSBuild ran: load from scratch under the same authorization.
                context = (await this.LoadInSlotAsync(request, reusable, keepIfSameAs: null, cancellationToken).ConfigureAwait(false))!;
            }

            return await this.InsertAsync(request, context, fromCache: false).ConfigureAwait(false);
        }
        finally
        {
            keyLock.Release();
        }
    }

    /// <summary>
    /// Loads in the load slot (one load at a time). With <paramref name="keepIfSameAs"/>, re-evaluates instead and
    /// returns null when MSBuild's answer is what that context was loaded from.
    /// </summary>
    private async Task<SemanticContext?> LoadInSlotAsync(ContextRequest request, EvaluationData? reusable, SemanticContext? keepIfSameAs, CancellationToken cancellationToken)
    {
        using CancellationTokenSource linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, this.shutdown.Token);
        await this.loadSlot.WaitAsync(linked.Token).ConfigureAwait(false);
        try
        {
            this.ThrowIfDisposed();
            // Every load reports progress (lsp status, the MCP loading error), whichever request started it.
            ContextRequest reporting = request.Progress is null ? request with { Progress = this.Progress } : request;
            SemanticContext? context = keepIfSameAs is { DesignTimeDigest: not null, IsRetired: false }
                ? await this.Loader.ReloadUnlessSameAsync(reporting, keepIfSameAs, linked.Token).ConfigureAwait(false)
                : await this.Loader.LoadAsync(reporting, reusable, linked.Token).ConfigureAwait(false);
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
            this.loadSlot.Release();
        }
    }

    private async Task<SemanticContext?> FindLoadedAsync(ContextKey key, CancellationToken cancellationToken)
    {
        await this.gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            return this.contexts.Find(c => c.Key.Equals(key));
        }
        finally
        {
            this.gate.Release();
        }
    }

    /// <summary>
    /// Rebuilds the context from its approved snapshot in the store when that is still valid (no MSBuild, no
    /// authorization); null when there is none or it does not match the disk. Runs in the load slot.
    /// </summary>
    private async Task<SemanticContext?> TryRestoreAsync(ContextRequest request, CancellationToken cancellationToken)
    {
        if (this.Snapshots is not { } snapshots)
        {
            return null;
        }

        using CancellationTokenSource linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, this.shutdown.Token);
        await this.loadSlot.WaitAsync(linked.Token).ConfigureAwait(false);
        try
        {
            this.ThrowIfDisposed();
            SemanticContext? restored;
            try
            {
                restored = await Task.Run(() => snapshots.TryRestore(request), linked.Token).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                // A snapshot is only ever a shortcut: whatever went wrong, the authorized load is still there.
                this.log?.Warn($"Approved snapshot of {request.Key} not used: {ex.GetType().Name}: {ex.Message}; loading with authorization.");
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
            this.loadSlot.Release();
        }
    }

    /// <summary>The one progress update of a restore: done at once, its step naming where it came from.</summary>
    private static LoadProgressParams FromSnapshotProgress(ContextRequest request, SemanticContext context) =>
        new(ProgressKind.Load, request.Target.RelativeTarget, request.Configuration, request.TargetFramework, context.ProjectCount, context.ProjectCount, "from approved snapshot", 100);

    /// <summary>Puts a loaded or restored context first in the cache (evicting the least recently used) and leases it.</summary>
    private async Task<ContextLease> InsertAsync(ContextRequest request, SemanticContext context, bool fromCache)
    {
        await this.gate.WaitAsync(CancellationToken.None).ConfigureAwait(false);
        try
        {
            if (this.disposed)
            {
                context.Retire();
                throw SemanticException.LoadFailed("The host is shutting down.");
            }

            int existing = this.contexts.FindIndex(c => c.Key.Equals(request.Key));
            if (existing >= 0)
            {
                this.Retire(this.contexts[existing], "replaced by a reload");
                this.contexts.RemoveAt(existing);
            }

            this.contexts.Insert(0, context);
            while (this.contexts.Count > this.Capacity)
            {
                SemanticContext evicted = this.contexts[^1];
                this.contexts.RemoveAt(this.contexts.Count - 1);
                this.Retire(evicted, "evicted (least recently used)");
            }

            this.evaluations.RemoveAll(e => e.Key.Equals(request.Key));
            this.PublishSnapshot();
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
            if (this.disposed || this.contexts.Find(c => c.Key.Equals(request.Key)) is not { } context
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
                    int index = this.contexts.IndexOf(context);
                    if (index > 0)
                    {
                        this.contexts.RemoveAt(index);
                        this.contexts.Insert(0, context);
                        this.PublishSnapshot();
                    }

                    return index >= 0;
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
    /// a valid earlier evaluation, or a fresh evaluation pass after authorization.
    /// </summary>
    public async Task<EvaluationLease> AcquireEvaluationAsync(ContextRequest request, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
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
                this.ThrowIfDisposed();
                SemanticContext? context = this.contexts.Find(c => c.Key.Equals(request.Key));
                if (context is not null)
                {
                    FingerprintCheck check = context.Fingerprint.Check();
                    if (!check.IsStructural && context.Fingerprint.DynamicImports.Count == 0)
                    {
                        return new EvaluationLease(context.Evaluation, context, FromCache: true);
                    }

                    (reason, changed) = Why(request, check, context.Fingerprint);
                }

                int index = this.evaluations.FindIndex(e => e.Key.Equals(request.Key));
                if (index >= 0)
                {
                    (ContextKey key, EvaluationData data, ContextFingerprint fingerprint) = this.evaluations[index];
                    FingerprintCheck check = fingerprint.Check();
                    if (!check.IsStructural && fingerprint.DynamicImports.Count == 0)
                    {
                        this.evaluations.RemoveAt(index);
                        this.evaluations.Insert(0, (key, data, fingerprint));
                        return new EvaluationLease(data, null, FromCache: true);
                    }

                    if (context is null)
                    {
                        (reason, changed) = Why(request, check, fingerprint);
                    }
                }
            }
            finally
            {
                this.gate.Release();
            }

            if (reason == EvaluationReason.ColdLoad && !request.ForWrite
                && await this.TryRestoreAsync(request, cancellationToken).ConfigureAwait(false) is { } restored)
            {
                using ContextLease lease = await this.InsertAsync(request, restored, fromCache: true).ConfigureAwait(false);
                return new EvaluationLease(restored.Evaluation, restored, FromCache: true);
            }

            await this.AuthorizeAsync(request, authorizer, reason, changed, cancellationToken).ConfigureAwait(false);

            EvaluationData evaluation;
            ContextFingerprint evaluationFingerprint;
            using (CancellationTokenSource linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, this.shutdown.Token))
            {
                await this.loadSlot.WaitAsync(linked.Token).ConfigureAwait(false);
                try
                {
                    this.ThrowIfDisposed();
                    evaluation = await this.Loader.EvaluateAsync(request, linked.Token).ConfigureAwait(false);
                    evaluationFingerprint = this.Loader.FingerprintEvaluation(evaluation);
                    Interlocked.Increment(ref this.evaluationCount);
                }
                finally
                {
                    this.loadSlot.Release();
                }
            }

            await this.gate.WaitAsync(CancellationToken.None).ConfigureAwait(false);
            try
            {
                this.evaluations.RemoveAll(e => e.Key.Equals(request.Key));
                this.evaluations.Insert(0, (request.Key, evaluation, evaluationFingerprint));
                if (this.evaluations.Count > EvaluationCapacity)
                {
                    this.evaluations.RemoveAt(this.evaluations.Count - 1);
                }
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
            this.ThrowIfDisposed();
            EvaluationData? reusable = null;
            int evaluationIndex = this.evaluations.FindIndex(e => e.Key.Equals(request.Key));
            if (evaluationIndex >= 0)
            {
                (_, EvaluationData data, ContextFingerprint fingerprint) = this.evaluations[evaluationIndex];
                if (!fingerprint.Check().IsStructural && fingerprint.DynamicImports.Count == 0)
                {
                    reusable = data;
                }
            }

            int index = this.contexts.FindIndex(c => c.Key.Equals(request.Key));
            if (index < 0)
            {
                return (null, EvaluationReason.ColdLoad, [], reusable);
            }

            SemanticContext context = this.contexts[index];
            FingerprintCheck check = context.Fingerprint.Check();
            if (check.IsStructural || (context.Fingerprint.DynamicImports.Count > 0 && !reevaluated))
            {
                (EvaluationReason reason, IReadOnlyList<string> changed) = Why(request, check, context.Fingerprint);
                return (null, reason, changed, reusable);
            }

            if (check.ContentChanges.Count > 0)
            {
                context.ReplaceSolution(RefreshDocuments(context.Solution, check.ContentChanges));
            }

            context.Fingerprint.Commit(check);
            this.contexts.RemoveAt(index);
            this.contexts.Insert(0, context);
            this.PublishSnapshot();
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

    private static (EvaluationReason, IReadOnlyList<string>) Why(ContextRequest request, FingerprintCheck check, ContextFingerprint fingerprint)
    {
        string workspace = request.Target.Workspace;
        return check.IsStructural
            ? (EvaluationReason.StructuralChange, check.StructuralChanges.Select(p => PathUtil.ToWorkspaceRelative(workspace, p)).Distinct().ToList())
            : (EvaluationReason.DynamicImports, fingerprint.DynamicImports.Select(d => PathUtil.ToWorkspaceRelative(workspace, d.File)).Distinct().ToList());
    }

    /// <summary>Asks for authorization with no lock but the per-key one held.</summary>
    private async Task AuthorizeAsync(
        ContextRequest request, IEvaluationAuthorizer? authorizer, EvaluationReason reason, IReadOnlyList<string> changed, CancellationToken cancellationToken)
    {
        string what = reason switch
        {
            EvaluationReason.ColdLoad => $"'{request.Target.RelativeTarget}' is not loaded yet",
            EvaluationReason.StructuralChange => $"build files of '{request.Target.RelativeTarget}' changed ({string.Join(", ", changed.Take(5))}{(changed.Count > 5 ? ", ..." : string.Empty)})",
            _ => $"'{request.Target.RelativeTarget}' imports build files through properties or wildcards ({string.Join(", ", changed.Take(5))}), which must be re-evaluated on every call",
        };
        // Checked before anyone is asked: without an SDK no approval could help.
        if (SdkInventory.FindSdks(SdkInventory.FindDotnetRoot()).Count == 0)
        {
            throw SemanticException.MissingPrerequisites(
                "No .NET SDK is installed (looked in the dotnet installation the host runs on). Install one from https://dotnet.microsoft.com/download.",
                command: null);
        }

        if (authorizer is null)
        {
            throw SemanticException.PermissionDenied($"MSBuild evaluation is needed because {what}, and no authorization is available in this context.");
        }

        AuthorizeEvaluationParams parameters = new(
            request.Target.Workspace,
            request.Target.RelativeTarget,
            request.Configuration,
            request.TargetFramework,
            reason,
            changed,
            request.Tool);
        this.log?.Info($"Asking to evaluate {request.Key} ({parameters.Reason}).");
        EvaluationAuthorization answer = await authorizer.AuthorizeAsync(parameters, cancellationToken).ConfigureAwait(false);
        if (!answer.Granted)
        {
            this.log?.Info($"Evaluation of {request.Key} was not authorized: {answer.Message}");
            throw SemanticException.PermissionDenied(
                $"MSBuild evaluation is needed because {what}, and it was not authorized: {answer.Message ?? "denied"}");
        }

        this.ThrowIfDisposed();
    }

    /// <summary>
    /// After the host renamed files itself (rename_file, undo/redo of one): moves the documents of the cached
    /// context for <paramref name="key"/> to their new paths (same project, new text read from disk) and
    /// accepts the rename in the fingerprint, so no MSBuild re-evaluation is needed. No context: nothing to do.
    /// </summary>
    public async Task MoveDocumentsAsync(ContextKey key, IReadOnlyList<(string From, string To)> moves, CancellationToken cancellationToken)
    {
        await this.gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            SemanticContext? context = this.contexts.Find(c => c.Key.Equals(key));
            if (context is null)
            {
                return;
            }

            Solution solution = context.Solution;
            foreach ((string from, string to) in moves)
            {
                SourceText text;
                using (FileStream stream = new(to, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete))
                {
                    text = SourceText.From(stream, encoding: null, checksumAlgorithm: SourceHashAlgorithm.Sha256);
                }

                foreach (DocumentId id in solution.GetDocumentIdsWithFilePath(from))
                {
                    if (solution.GetDocument(id) is not { } document)
                    {
                        continue;
                    }

                    string projectFolder = document.Project.FilePath is { } projectFile ? Path.GetDirectoryName(projectFile)! : Path.GetDirectoryName(to)!;
                    string relativeFolder = Path.GetRelativePath(projectFolder, Path.GetDirectoryName(to)!);
                    IReadOnlyList<string> folders = relativeFolder == "." ? [] : relativeFolder.Split(Path.DirectorySeparatorChar);
                    DocumentInfo info = DocumentInfo.Create(
                        DocumentId.CreateNewId(id.ProjectId, to),
                        Path.GetFileName(to),
                        folders,
                        document.SourceCodeKind,
                        TextLoader.From(TextAndVersion.Create(text, VersionStamp.Create(), to)),
                        to);
                    solution = solution.RemoveDocument(id).AddDocument(info);
                }

                context.Fingerprint.AcceptMove(from, to);
            }

            context.ReplaceSolution(solution);
        }
        finally
        {
            this.gate.Release();
        }
    }

    /// <summary>Reads changed files and swaps the text of every document (linked ones too) that has that path.</summary>
    internal static Solution RefreshDocuments(Solution solution, IReadOnlyList<string> changedFiles)
    {
        foreach (string path in changedFiles)
        {
            SourceText text;
            try
            {
                using FileStream stream = new(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
                text = SourceText.From(stream, encoding: null, checksumAlgorithm: SourceHashAlgorithm.Sha256);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                continue; // Gone or locked right now: the next check sees it again.
            }

            foreach (DocumentId id in solution.GetDocumentIdsWithFilePath(path))
            {
                if (solution.ContainsDocument(id))
                {
                    solution = solution.WithDocumentText(id, text, PreservationMode.PreserveIdentity);
                }
                else if (solution.ContainsAdditionalDocument(id))
                {
                    solution = solution.WithAdditionalDocumentText(id, text, PreservationMode.PreserveIdentity);
                }
                else if (solution.ContainsAnalyzerConfigDocument(id))
                {
                    solution = solution.WithAnalyzerConfigDocumentText(id, text);
                }
            }
        }

        return solution;
    }

    private void Retire(SemanticContext context, string why)
    {
        this.log?.Info($"Context {context.Key} {why}; {(context.ActiveLeases > 0 ? "disposed when its queries finish" : "disposed")}.");
        context.Retire();
    }

    private void PublishSnapshot()
    {
        List<LoadedContextInfo> infos = this.contexts
            .Select(c => new LoadedContextInfo(c.Key.TargetPath, c.Key.Configuration, c.Key.TargetFramework, c.ProjectCount, c.FromSnapshot))
            .ToList();
        lock (this.snapshotGate)
        {
            this.snapshot = infos;
        }
    }

    private void ThrowIfDisposed()
    {
        if (this.disposed)
        {
            throw SemanticException.LoadFailed("The host is shutting down.");
        }
    }

    /// <summary>
    /// Shutdown: cancels loads, retires every context (disposed once its queries finish). Does not wait
    /// for pending authorizations or running queries.
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        await this.shutdown.CancelAsync().ConfigureAwait(false);
        await this.gate.WaitAsync().ConfigureAwait(false);
        try
        {
            if (this.disposed)
            {
                return;
            }

            this.disposed = true;
            foreach (SemanticContext context in this.contexts)
            {
                this.Retire(context, "released at shutdown");
            }

            this.contexts.Clear();
            this.evaluations.Clear();
            this.PublishSnapshot();
        }
        finally
        {
            this.gate.Release();
        }
    }
}
