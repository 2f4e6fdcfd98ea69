using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic;
using SharpClaw.Server.Semantic.Cache;

namespace SharpClaw.Server.Handlers;

/// <summary>What the host was started with (command line in the real process, anything in tests).</summary>
public sealed record HostServerOptions
{
    /// <summary>Log folder from --log-directory; wins over initializationOptions.logDirectory.</summary>
    public string? LogDirectory { get; init; }

    /// <summary>Client process from --clientProcessId; watched from startup.</summary>
    public int? ClientProcessId { get; init; }

    /// <summary>When the host started; defaults to when the <see cref="HostState"/> was created.</summary>
    public DateTime? StartedAtUtc { get; init; }

    /// <summary>How often client processes are polled.</summary>
    public TimeSpan ParentPollInterval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>How many compilation contexts the cache keeps.</summary>
    public int ContextCapacity { get; init; } = SemanticContextCache.DefaultCapacity;

    /// <summary>The clock proposals expire by (tests inject one).</summary>
    public TimeProvider? Clock { get; init; }

    /// <summary>The root of the store (<c>--store-directory</c>: VS Code's extension storage; tests); null: <see cref="StateFolder.Root()"/>.</summary>
    public string? StateRoot { get; init; }

    /// <summary>Keep approved snapshots in the store and restore from them (warm restart); benches of cold loads turn it off.</summary>
    public bool PersistSnapshots { get; init; } = true;

    /// <summary>Called before each file write of an edit (tests inject faults and external edits).</summary>
    public Semantic.Edits.EditWriteHook? WriteHook { get; init; }

    /// <summary>Called after an apply's last write, before its record is settled (tests end the host in that window).</summary>
    public Func<Task>? ApplySettlingHook { get; init; }
}

/// <summary>Where the host learned which client process to follow.</summary>
public enum ClientProcessSource
{
    CommandLine,
    Initialize,
}

/// <summary>
/// What outlives a connection: the compilation contexts, the edit service (proposals, journal) and the store.
/// A stdio host has one connection and owns them; the resident host (<c>Hosting/ResidentHost</c>) keeps one set
/// for every connection it serves (several at once).
/// </summary>
public sealed class HostServices : IAsyncDisposable
{
    public HostServices(HostLog log, HostServerOptions options)
    {
        this.Cache = new SemanticContextCache(
            log,
            options.ContextCapacity,
            snapshots: options.PersistSnapshots ? trust => new Semantic.Snapshots.ContextSnapshots(new Semantic.Snapshots.SnapshotStore(log, options.StateRoot), trust, log) : null);
        this.Semantic = new SemanticWorkspaceService(this.Cache);
        this.Edits = new Semantic.Edits.EditService(this.Cache, options.Clock, options.WriteHook, options.ApplySettlingHook);
        this.Store = new Store.StoreService(this.Cache.OpenDocuments, log, options.StateRoot);
        this.Cache.Progress = this.Progress;
        this.Store.Progress = this.Progress;
    }

    /// <summary>Where loads and index builds report progress: every connection attached at the moment.</summary>
    public Semantic.Loading.LoadProgressFanOut Progress { get; } = new();

    public SemanticContextCache Cache { get; }

    public SemanticWorkspaceService Semantic { get; }

    public Semantic.Edits.EditService Edits { get; }

    public Store.StoreService Store { get; }

    public async ValueTask DisposeAsync()
    {
        this.Store.Dispose();
        await this.Cache.DisposeAsync().ConfigureAwait(false);
    }
}

/// <summary>State shared by the request handlers of one host connection.</summary>
public sealed class HostState : IDisposable
{
    private readonly Lock gate = new();
    private readonly List<ParentProcessWatcher> watchers = [];
    private readonly HostServices services;

    /// <summary>A connection's state over <paramref name="shared"/> services, or over services of its own (null) that it disposes.</summary>
    public HostState(HostLog log, HostServerOptions options, HostServices? shared = null)
    {
        this.Log = log;
        this.Options = options;
        DateTime started = options.StartedAtUtc?.ToUniversalTime() ?? DateTime.UtcNow;

        // Millisecond precision, like JavaScript's Date.toISOString().
        this.StartedAtUtc = new DateTime(started.Ticks - (started.Ticks % TimeSpan.TicksPerMillisecond), DateTimeKind.Utc);
        this.OwnsServices = shared is null;
        this.services = shared ?? new HostServices(log, options);
    }

    /// <summary>False on a resident host's connection: its services outlive it.</summary>
    public bool OwnsServices { get; }

    /// <summary>The per-user store: the syntax-only index behind symbol_search and workspace_search.</summary>
    public Store.StoreService Store => this.services.Store;

    /// <summary>Proposals, the edit journal and the writer of <c>sharpclaw/edit</c> / undo / redo.</summary>
    public Semantic.Edits.EditService Edits => this.services.Edits;

    /// <summary>The compilation contexts (lifecycle-owned: released at shutdown/dispose).</summary>
    public SemanticContextCache Cache => this.services.Cache;

    public SemanticWorkspaceService Semantic => this.services.Semantic;

    /// <summary>Load and index progress of the services, sent to every attached connection.</summary>
    public Semantic.Loading.LoadProgressFanOut Progress => this.services.Progress;

    public HostLog Log { get; }

    public HostServerOptions Options { get; }

    public HostLifecycle Lifecycle { get; } = new();

    public DateTime StartedAtUtc { get; }

    /// <summary>The client process reported in status: initialize's processId, else --clientProcessId.</summary>
    public int? ClientProcessId { get; private set; }

    /// <summary>
    /// Watches <paramref name="processId"/> and requests exit (code 0) when it is gone.
    /// Watching the same pid twice is a no-op.
    /// </summary>
    public void WatchClientProcess(int processId, ClientProcessSource source)
    {
        lock (this.gate)
        {
            if (source == ClientProcessSource.Initialize || this.ClientProcessId is null)
            {
                this.ClientProcessId = processId;
            }

            if (this.watchers.Exists(w => w.ProcessId == processId))
            {
                return;
            }

            this.Log.Info($"Watching client process {processId} (from {(source == ClientProcessSource.Initialize ? "initialize" : "--clientProcessId")}).");
            this.watchers.Add(ParentProcessWatcher.Start(
                processId,
                reason => this.Lifecycle.RequestExit(0, reason),
                this.Options.ParentPollInterval));
        }
    }

    public void Dispose()
    {
        if (this.OwnsServices)
        {
            _ = this.services.DisposeAsync().AsTask();
        }

        lock (this.gate)
        {
            foreach (ParentProcessWatcher watcher in this.watchers)
            {
                watcher.Dispose();
            }

            this.watchers.Clear();
        }
    }
}
