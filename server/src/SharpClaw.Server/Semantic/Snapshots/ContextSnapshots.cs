using System.Diagnostics;
using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.Data.Sqlite;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Fingerprints;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Server.Semantic.Snapshots;

/// <summary>
/// Warm restart: after an authorized load the cache hands the context here and its approved snapshot is
/// written to the workspace's store (in the background; <see cref="FlushAsync"/> waits at shutdown). A later
/// host that finds no live context asks <see cref="TryRestore"/> first: the snapshot is used only when it was
/// written by this host version under the same MSBuild environment, every fingerprint input is unchanged
/// (<see cref="ContextFingerprint.Check"/>, exactly the live cache's invalidation rule), every analyzer is still
/// trusted and every referenced file exists. Anything else returns null with a log line, and the caller does
/// the normal authorized load. Approvals are never stored: the row holds evaluated data and stamps only.
/// </summary>
public sealed class ContextSnapshots(SnapshotStore store, AnalyzerTrust trust, HostLog? log)
{
    private readonly Lock gate = new();
    private readonly List<Task> pending = [];

    /// <summary>Snapshots written by this host (tests).</summary>
    public int WriteCount => Volatile.Read(ref this.writeCount);

    private int writeCount;

    public SemanticContext? TryRestore(ContextRequest request)
    {
        long started = Stopwatch.GetTimestamp();
        ContextKey key = request.Key;
        string workspace = request.Target.Workspace;
        PersistedContext? snapshot;
        try
        {
            snapshot = store.Read(workspace, key.TargetPath, key.Configuration, key.TargetFramework);
        }
        catch (Exception ex) when (ex is SqliteException or IOException or UnauthorizedAccessException)
        {
            log?.Warn($"Snapshot of {key} not read ({ex.Message}); loading with authorization.");
            return null;
        }

        if (snapshot is null)
        {
            return null;
        }

        string? why = Mismatch(snapshot, key);
        ContextFingerprint? fingerprint = null;
        if (why is null)
        {
            fingerprint = ContextFingerprint.Import(snapshot.Fingerprint);
            FingerprintCheck check = fingerprint.Check();
            if (check.IsStructural)
            {
                why = BuildInputsChanged(check, workspace);
            }
            else
            {
                fingerprint.Commit(check); // Changed documents are read from disk by the rebuilt solution.
            }
        }

        if (why is null && snapshot.Projects.SelectMany(p => p.Analyzers).FirstOrDefault(a => !trust.IsTrusted(a)) is { } untrusted)
        {
            why = $"analyzer {untrusted} is not under the installed SDK";
        }

        RebuiltSolution? rebuilt = null;
        if (why is null)
        {
            try
            {
                rebuilt = SnapshotRebuilder.Rebuild(snapshot);
            }
            catch (Exception ex) when (ex is SnapshotUnusableException or IOException or BadImageFormatException or UnauthorizedAccessException)
            {
                why = ex.Message;
            }
        }

        if (why is not null || rebuilt is null || fingerprint is null)
        {
            log?.Info($"Approved snapshot of {key} not used: {why}; loading with authorization.");
            return null;
        }

        TimeSpan duration = Stopwatch.GetElapsedTime(started);
        EvaluationData data = new(snapshot.Evaluation, snapshot.Imports, snapshot.Assets);
        log?.Info(string.Create(
            CultureInfo.InvariantCulture,
            $"Restored {request.Target.RelativeTarget} [{key.Configuration}{(key.TargetFramework is null ? string.Empty : ", " + key.TargetFramework)}] from the approved snapshot: "
            + $"{rebuilt.Solution.ProjectIds.Count} projects in {duration.TotalMilliseconds:0} ms, no evaluation."));
        return new SemanticContext(
            key, request.Target, data, rebuilt.Workspace, rebuilt.Solution, fingerprint,
            snapshot.ExcludedAnalyzers, snapshot.PartialLoad, snapshot.LoadWarnings, rebuilt.Frameworks, duration)
        {
            SubstitutedAnalyzers = snapshot.SubstitutedAnalyzers,
            FromSnapshot = true,
        };
    }

    /// <summary>
    /// Persists a freshly loaded context: captured now (call it under the cache gate: the fingerprint changes only
    /// there), written in the background (a failure only costs the next host a load).
    /// </summary>
    public void Save(SemanticContext context)
    {
        PersistedContext? snapshot;
        try
        {
            snapshot = SnapshotCapture.TryCapture(context, context.Solution);
        }
        catch (Exception ex) when (ex is InvalidOperationException or NotSupportedException or ArgumentException)
        {
            log?.Warn($"Approved snapshot of {context.Key} not captured: {ex.Message}");
            return;
        }

        if (snapshot is null)
        {
            log?.Info($"Context {context.Key} is not persisted (dynamic imports, or a project only MSBuild can describe).");
            return;
        }

        Task write = Task.Run(() =>
        {
            long started = Stopwatch.GetTimestamp();
            try
            {
                store.Write(context.Target.Workspace, snapshot);
                Interlocked.Increment(ref this.writeCount);
                log?.Debug(string.Create(CultureInfo.InvariantCulture, $"Approved snapshot of {context.Key} stored in {Stopwatch.GetElapsedTime(started).TotalMilliseconds:0} ms."));
            }
            catch (Exception ex) when (ex is SqliteException or IOException or UnauthorizedAccessException or InvalidOperationException or NotSupportedException)
            {
                log?.Warn($"Approved snapshot of {context.Key} not stored: {ex.Message}");
            }
        });
        lock (this.gate)
        {
            this.pending.RemoveAll(t => t.IsCompleted);
            this.pending.Add(write);
        }
    }

    /// <summary>Evaluations written by this host (tests).</summary>
    public int EvaluationWriteCount => Volatile.Read(ref this.evaluationWriteCount);

    private int evaluationWriteCount;

    /// <summary>
    /// The kept evaluation-only pass of <paramref name="request"/> and its fingerprint, when it is still valid by the
    /// live cache's rule (<see cref="ContextFingerprint.AllowsReuse"/>) and was written by this host version in this
    /// MSBuild environment; null otherwise, with a log line, and the caller evaluates with authorization.
    /// </summary>
    public (EvaluationData Data, ContextFingerprint Fingerprint)? TryRestoreEvaluation(ContextRequest request)
    {
        long started = Stopwatch.GetTimestamp();
        ContextKey key = request.Key;
        string workspace = request.Target.Workspace;
        PersistedEvaluation? row;
        try
        {
            row = store.ReadEvaluation(workspace, key.TargetPath, key.Configuration, key.TargetFramework);
        }
        catch (Exception ex) when (ex is SqliteException or IOException or UnauthorizedAccessException)
        {
            log?.Warn($"Kept evaluation of {key} not read ({ex.Message}); evaluating with authorization.");
            return null;
        }

        if (row is null)
        {
            return null;
        }

        string? why = Mismatch(row, key);
        ContextFingerprint? fingerprint = null;
        if (why is null)
        {
            fingerprint = ContextFingerprint.Import(row.Fingerprint);
            FingerprintCheck check = fingerprint.Check();
            if (!fingerprint.AllowsReuse(check))
            {
                why = check.IsStructural ? BuildInputsChanged(check, workspace) : "it imports build files only MSBuild can resolve";
            }
            else
            {
                fingerprint.Commit(check);
            }
        }

        if (why is not null || fingerprint is null)
        {
            log?.Info($"Kept evaluation of {key} not used: {why}; evaluating with authorization.");
            return null;
        }

        log?.Info(string.Create(
            CultureInfo.InvariantCulture,
            $"Reused the kept evaluation of {request.Target.RelativeTarget} [{key.Configuration}{(key.TargetFramework is null ? string.Empty : ", " + key.TargetFramework)}]: "
            + $"{row.Evaluation.Projects.Count} projects in {Stopwatch.GetElapsedTime(started).TotalMilliseconds:0} ms, no build file changed."));
        return (new EvaluationData(row.Evaluation, row.Imports, row.Assets), fingerprint);
    }

    /// <summary>
    /// Keeps an authorized evaluation-only pass for a later host: captured now, written in the background (a failure
    /// only costs the next host an evaluation). An evaluation with imports only MSBuild can resolve is never kept.
    /// </summary>
    public void SaveEvaluation(ContextRequest request, EvaluationData data, ContextFingerprint fingerprint)
    {
        if (fingerprint.DynamicImports.Count > 0)
        {
            return;
        }

        ContextKey key = request.Key;
        PersistedEvaluation row = new()
        {
            Format = PersistedEvaluation.CurrentFormat,
            HostVersion = SnapshotCapture.Version(),
            Environment = SnapshotEnvironment.Current(),
            TargetPath = key.TargetPath,
            Configuration = key.Configuration,
            TargetFramework = key.TargetFramework,
            Evaluation = data.Snapshot,
            Imports = new Dictionary<string, ProjectImports>(data.Imports, PathUtil.Comparer),
            Assets = new Dictionary<string, AssetsFileInfo?>(data.Assets, PathUtil.Comparer),
            Fingerprint = fingerprint.Export(),
        };
        Task write = Task.Run(() =>
        {
            try
            {
                store.WriteEvaluation(request.Target.Workspace, row);
                Interlocked.Increment(ref this.evaluationWriteCount);
            }
            catch (Exception ex) when (ex is SqliteException or IOException or UnauthorizedAccessException or InvalidOperationException or NotSupportedException)
            {
                log?.Warn($"Evaluation of {key} not kept: {ex.Message}");
            }
        });
        lock (this.gate)
        {
            this.pending.RemoveAll(t => t.IsCompleted);
            this.pending.Add(write);
        }
    }

    /// <summary>Waits (bounded) for snapshots still being written: at shutdown, so a short CLI call leaves its snapshot behind.</summary>
    public async Task FlushAsync(TimeSpan timeout)
    {
        Task[] writes;
        lock (this.gate)
        {
            writes = [.. this.pending];
        }

        await Task.WhenAny(Task.WhenAll(writes), Task.Delay(timeout)).ConfigureAwait(false);
    }

    /// <summary>Why a kept row (a snapshot or an evaluation) cannot serve <paramref name="key"/> in this host, or null.</summary>
    private static string? Mismatch(PersistedEvaluation snapshot, ContextKey key)
    {
        if (snapshot.HostVersion != SnapshotCapture.Version())
        {
            return $"written by host {snapshot.HostVersion}";
        }

        if (snapshot.Environment != SnapshotEnvironment.Current())
        {
            return "the MSBuild/NuGet/dotnet environment variables differ";
        }

        return new ContextKey(snapshot.TargetPath, snapshot.Configuration, snapshot.TargetFramework).Equals(key)
            ? null
            : "the row belongs to another context";
    }

    /// <summary>The log's reason for a fingerprint check that found build inputs changed: the first five, workspace-relative.</summary>
    private static string BuildInputsChanged(FingerprintCheck check, string workspace) =>
        $"build inputs changed ({string.Join(", ", check.StructuralChanges.Take(5).Select(p => PathUtil.ToWorkspaceRelative(workspace, p)))}{(check.StructuralChanges.Count > 5 ? ", ..." : string.Empty)})";
}
