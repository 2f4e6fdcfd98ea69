using Microsoft.CodeAnalysis;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Fingerprints;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Semantic.OpenDocuments;

namespace SharpClaw.Server.Semantic.Contexts;

/// <summary>Identifies a compilation context: which target, evaluated how.</summary>
/// <param name="TargetPath">Full path of the .sln/.slnx/.csproj.</param>
/// <param name="Configuration">MSBuild Configuration.</param>
/// <param name="TargetFramework">Requested framework, or null for each project's own.</param>
public sealed record ContextKey(string TargetPath, string Configuration, string? TargetFramework)
{
    public bool Equals(ContextKey? other) =>
        other is not null
        && PathUtil.Comparer.Equals(this.TargetPath, other.TargetPath)
        && string.Equals(this.Configuration, other.Configuration, StringComparison.Ordinal)
        && string.Equals(this.TargetFramework, other.TargetFramework, StringComparison.Ordinal);

    public override int GetHashCode() =>
        HashCode.Combine(PathUtil.Comparer.GetHashCode(this.TargetPath), this.Configuration, this.TargetFramework);

    public override string ToString() => $"{this.TargetPath} [{this.Configuration}{(this.TargetFramework is null ? string.Empty : ", " + this.TargetFramework)}]";
}

/// <summary>What a request wants from the cache.</summary>
/// <param name="Target">The resolved target (and the workspace it was requested in).</param>
/// <param name="Configuration">MSBuild Configuration.</param>
/// <param name="TargetFramework">Requested framework or null.</param>
/// <param name="Tool">Tool name for the authorization request, or null.</param>
/// <param name="Progress">Where load progress goes, or null.</param>
/// <param name="Call">The client's id of the call this request serves (echoed in authorization requests), or null.</param>
public sealed record ContextRequest(TargetSelection Target, string Configuration, string? TargetFramework, string? Tool, ILoadProgressSink? Progress = null, string? Call = null)
{
    public ContextKey Key { get; } = new(Target.TargetPath, Configuration, TargetFramework);

    /// <summary>
    /// The request may write files (edits, an LSP method sent with apply): it keeps the authorization rules of a
    /// load and never uses a context restored from the approved snapshot, which serves read-only queries only.
    /// </summary>
    public bool ForWrite { get; init; }
}

/// <summary>
/// Evaluated MSBuild data of a target plus the derived facts results need (imports, assets). Immutable.
/// </summary>
public sealed record EvaluationData(
    EvaluationSnapshot Snapshot,
    IReadOnlyDictionary<string, ProjectImports> Imports,
    IReadOnlyDictionary<string, AssetsFileInfo?> Assets)
{
    public IReadOnlyList<DynamicImport> DynamicImports =>
        this.Imports.Values.SelectMany(i => i.DynamicImports).DistinctBy(d => (d.File, d.Expression)).ToList();
}

/// <summary>
/// One loaded compilation context: the MSBuildWorkspace (or, restored from the approved snapshot, an
/// AdhocWorkspace holding the same projects), its current (refreshed, analyzer-filtered)
/// <see cref="Solution"/> snapshot, the evaluation it was loaded with and its fingerprint.
/// Lifetime: reference counted by <see cref="ContextLease"/>s; once retired (evicted, replaced, shut
/// down) the workspace is disposed when the last lease is released, so no query ever sees a
/// disposed workspace. Mutable members change only under the cache gate.
/// </summary>
public sealed class SemanticContext
{
    private readonly Lock gate = new();
    private int leases;
    private bool retired;

    internal SemanticContext(
        ContextKey key,
        TargetSelection target,
        EvaluationData evaluation,
        Workspace workspace,
        Solution solution,
        ContextFingerprint fingerprint,
        IReadOnlyList<AnalyzerExclusion> excludedAnalyzers,
        IReadOnlyList<EvaluationFailure> partialLoad,
        IReadOnlyList<EvaluationFailure> loadWarnings,
        IReadOnlyDictionary<ProjectId, string?> frameworks,
        TimeSpan loadDuration)
    {
        this.Key = key;
        this.Target = target;
        this.Evaluation = evaluation;
        this.Workspace = workspace;
        this.Solution = solution;
        this.Fingerprint = fingerprint;
        this.ExcludedAnalyzers = excludedAnalyzers;
        this.PartialLoad = partialLoad;
        this.LoadWarnings = loadWarnings;
        this.Frameworks = frameworks;
        this.LoadDuration = loadDuration;
        this.LoadedAtUtc = DateTime.UtcNow;
    }

    public ContextKey Key { get; }

    /// <summary>The target as first requested (its workspace may differ from later requests').</summary>
    public TargetSelection Target { get; }

    public EvaluationData Evaluation { get; }

    internal Workspace Workspace { get; }

    /// <summary>The newest snapshot (source refreshes replace it). Leases keep the one they got.</summary>
    public Solution Solution { get; private set; }

    /// <summary>Lays the editor's open buffers over <see cref="Solution"/> for leases.</summary>
    internal OpenDocumentOverlay Overlay { get; } = new();

    public ContextFingerprint Fingerprint { get; }

    public IReadOnlyList<AnalyzerExclusion> ExcludedAnalyzers { get; }

    /// <summary>Package-supplied analyzers/generators replaced by the installed SDK's copy of the same assembly.</summary>
    public IReadOnlyList<AnalyzerSubstitution> SubstitutedAnalyzers { get; init; } = [];

    /// <summary>Projects that failed to load (evaluation or design-time build).</summary>
    public IReadOnlyList<EvaluationFailure> PartialLoad { get; }

    /// <summary>Errors MSBuild/Roslyn reported for projects that still loaded.</summary>
    public IReadOnlyList<EvaluationFailure> LoadWarnings { get; }

    /// <summary>The framework each Roslyn project was evaluated for (null when unknown).</summary>
    public IReadOnlyDictionary<ProjectId, string?> Frameworks { get; }

    public TimeSpan LoadDuration { get; }

    /// <summary>
    /// What the parallel design-time pass returned for this context (<see cref="Loading.DesignTimeDigest"/>), kept only
    /// when it has dynamic imports (re-evaluated on every call; the same digest keeps the context); null otherwise and
    /// when Roslyn's loader loaded it or it was restored.
    /// </summary>
    public string? DesignTimeDigest { get; init; }

    /// <summary>
    /// For a context with dynamic imports: the evaluation that vouches for it, so a later call whose evaluation matches
    /// it runs no design-time pass (<see cref="Loading.ImportedFilesCheck"/>). Set by the cold load (when its pass listed its
    /// imports) and by each re-evaluation, under the cache's lock on this context's key.
    /// </summary>
    public Loading.ImportedFilesCheck? ImportedFilesCheck { get; set; }

    /// <summary>
    /// For a context with dynamic imports: when (<see cref="System.Diagnostics.Stopwatch"/> timestamp) the MSBuild run
    /// that last loaded or vouched for it started. A call that arrived before that moment, waiting beside the call that
    /// ran it, takes it as its own fresh evaluation. Set under the cache's lock on this context's key.
    /// </summary>
    public long EvaluatedFrom { get; set; }

    /// <summary>Rebuilt from the approved snapshot in the store (no MSBuild ran in this host for it).</summary>
    public bool FromSnapshot { get; init; }

    public DateTime LoadedAtUtc { get; }

    /// <summary>How many source-only refreshes were applied (diagnostics and tests).</summary>
    public int RefreshCount { get; private set; }

    public int ProjectCount => this.Solution.ProjectIds.Count;

    public bool IsDisposed { get; private set; }

    public bool IsRetired
    {
        get
        {
            lock (this.gate)
            {
                return this.retired;
            }
        }
    }

    public int ActiveLeases
    {
        get
        {
            lock (this.gate)
            {
                return this.leases;
            }
        }
    }

    internal void ReplaceSolution(Solution solution)
    {
        this.Solution = solution;
        this.RefreshCount++;
    }

    /// <summary>Takes a lease; false when the context was already retired.</summary>
    internal bool TryAddLease()
    {
        lock (this.gate)
        {
            if (this.retired)
            {
                return false;
            }

            this.leases++;
            return true;
        }
    }

    internal void ReleaseLease()
    {
        bool dispose;
        lock (this.gate)
        {
            this.leases--;
            dispose = this.retired && this.leases == 0 && !this.IsDisposed;
            if (dispose)
            {
                this.IsDisposed = true;
            }
        }

        if (dispose)
        {
            this.Workspace.Dispose();
        }
    }

    /// <summary>No new leases; the workspace is disposed now or when the last lease goes.</summary>
    internal void Retire()
    {
        bool dispose;
        lock (this.gate)
        {
            this.retired = true;
            dispose = this.leases == 0 && !this.IsDisposed;
            if (dispose)
            {
                this.IsDisposed = true;
            }
        }

        if (dispose)
        {
            this.Workspace.Dispose();
        }
    }
}

/// <summary>
/// A query's hold on a context: the <see cref="Solution"/> snapshot it got stays valid (its workspace is
/// not disposed) until the lease is disposed. Dispose exactly once, when the query is done.
/// </summary>
public sealed class ContextLease : IDisposable
{
    private int disposed;

    internal ContextLease(SemanticContext context, Solution solution, bool fromCache)
    {
        this.Context = context;
        this.Solution = solution;
        this.FromCache = fromCache;
    }

    public SemanticContext Context { get; }

    /// <summary>The snapshot to query: analyzer-filtered, with source refreshes up to acquisition.</summary>
    public Solution Solution { get; }

    /// <summary>True when no evaluation happened for this acquisition.</summary>
    public bool FromCache { get; }

    /// <summary>The editor buffers laid over <see cref="Solution"/> (their text may differ from the disk).</summary>
    public OpenDocumentSnapshot Buffers { get; init; } = OpenDocumentSnapshot.Empty;

    public void Dispose()
    {
        if (Interlocked.Exchange(ref this.disposed, 1) == 0)
        {
            this.Context.ReleaseLease();
        }
    }
}
