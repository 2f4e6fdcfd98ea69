using System.Collections.Concurrent;
using Microsoft.Data.Sqlite;
using SharpClaw.Protocol.Store;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Semantic.OpenDocuments;

namespace SharpClaw.Server.Store;

/// <summary>
/// <c>sharpclaw/symbolSearch</c>, <c>sharpclaw/workspaceSearch</c> and <c>sharpclaw/clearStore</c>: validates the params, opens the
/// workspace's store (<see cref="StoreDatabase"/>) once per host, refreshes its syntax index and answers from
/// it. Nothing here loads MSBuild, compiles or runs project code, so nothing asks for authorization. One
/// query per workspace at a time in this host (other hosts are kept apart by SQLite's locks). A store found
/// damaged mid-query is deleted with a log line and rebuilt once.
/// A query that must answer by a time (<c>answerBy</c>: an MCP call's load wait) and meets a build that would
/// pass it answers from the files indexed so far and says how many are pending; the build goes on in the
/// background, a chunk at a time, giving the store to each query that waits for it (which again answers by
/// its own time) until nothing is pending.
/// </summary>
public sealed class StoreService(OpenDocumentStore openDocuments, HostLog? log, string? stateRoot = null) : IDisposable
{
    /// <summary>Characters of source a refresh must parse before its garbage is worth a full collection (<see cref="ReleaseParseGarbage"/>).</summary>
    private const long BulkParseChars = 4 * 1024 * 1024;

    private readonly ConcurrentDictionary<string, WorkspaceStore> stores = new(PathUtil.Comparer);

    /// <summary>Ends the background builds when the host ends.</summary>
    private readonly CancellationTokenSource lifetime = new();

    /// <summary>Where a large index build reports its progress (<see cref="IndexProgress"/>); set by the host server.</summary>
    public ILoadProgressSink? Progress { get; set; }

    public Task<SymbolSearchResult> SymbolSearchAsync(SymbolSearchParams parameters, CancellationToken cancellationToken)
    {
        string workspace = ValidWorkspace(parameters.Workspace);
        string query = Required(parameters.Query, "query");
        int offset = ParamCheck.Bounded<SymbolSearchParams>(nameof(SymbolSearchParams.Offset), parameters.Offset);
        int limit = ParamCheck.Bounded<SymbolSearchParams>(nameof(SymbolSearchParams.Limit), parameters.Limit);
        string? kind = string.IsNullOrWhiteSpace(parameters.Kind) ? null : parameters.Kind.Trim().ToLowerInvariant();
        string? container = string.IsNullOrWhiteSpace(parameters.Container) ? null : parameters.Container.Trim();
        return this.RunAsync(workspace, AnswerTime(parameters.AnswerBy), cancellationToken, (database, image, counts) =>
        {
            (List<SymbolSearchItem> page, int total) = SymbolSearch.Find(image, query, kind, container, offset, limit);
            bool truncated = offset + page.Count < total;
            return new SymbolSearchResult(query, page, total, offset, limit, truncated, truncated ? offset + page.Count : null, counts.Current, counts.Reindexed)
            {
                PendingFiles = counts.PendingOrNone,
            };
        });
    }

    public Task<WorkspaceSearchResult> WorkspaceSearchAsync(WorkspaceSearchParams parameters, CancellationToken cancellationToken)
    {
        string workspace = ValidWorkspace(parameters.Workspace);
        if (string.IsNullOrEmpty(parameters.Query))
        {
            throw SemanticException.InvalidRequest("'query' is required.");
        }

        string query = parameters.Query;
        if (query.Contains('\n', StringComparison.Ordinal) && parameters.Regex != true)
        {
            throw SemanticException.InvalidRequest("'query' matches within one line: it cannot contain a line break.");
        }

        int offset = ParamCheck.Bounded<WorkspaceSearchParams>(nameof(WorkspaceSearchParams.Offset), parameters.Offset);
        int limit = ParamCheck.Bounded<WorkspaceSearchParams>(nameof(WorkspaceSearchParams.Limit), parameters.Limit);
        return this.RunAsync(workspace, AnswerTime(parameters.AnswerBy), cancellationToken, (database, image, counts) =>
        {
            TextSearch.Found found = TextSearch.Find(database, image.Files.Keys, query, parameters.Regex == true, parameters.CaseSensitive == true, parameters.Paths, offset, limit, cancellationToken);
            bool truncated = offset + found.Page.Count < found.Total;
            return new WorkspaceSearchResult(query, found.Page, found.Total, offset, limit, truncated, truncated ? offset + found.Page.Count : null, found.Files, counts.Current, counts.Reindexed)
            {
                PendingFiles = counts.PendingOrNone,
                PathsMatchedFiles = found.PathsMatchedFiles,
            };
        });
    }

    /// <summary>Closes this host's connection to the workspace's store and deletes its files (SharpClaw: Clear Cache).</summary>
    public async Task<ClearStoreResult> ClearAsync(ClearStoreParams parameters, CancellationToken cancellationToken)
    {
        string workspace = ValidWorkspace(parameters.Workspace);
        WorkspaceStore store = this.stores.GetOrAdd(workspace, w => new WorkspaceStore(w));
        await EnterAsync(store, cancellationToken).ConfigureAwait(false);
        try
        {
            store.Dispose(); // A background build finds no database and ends.
            string path = Path.Combine(StateFolder.ForWorkspace(workspace, this.Root()), StoreDatabase.FileName);
            long bytes = new[] { path, path + "-wal" }.Where(File.Exists).Sum(f => new FileInfo(f).Length);
            bool existed = File.Exists(path);
            StoreDatabase.Delete(path);
            log?.Info($"Store {path} cleared ({bytes} bytes).");
            return new ClearStoreResult(path, existed && !File.Exists(path), bytes);
        }
        finally
        {
            store.Gate.Release();
        }
    }

    public void Dispose()
    {
        this.lifetime.Cancel();
        foreach (WorkspaceStore store in this.stores.Values)
        {
            // A background build stops at its next file; its connection is closed only once it let go of the store.
            bool held = store.Building && store.Gate.Wait(TimeSpan.FromSeconds(5));
            store.Dispose();
            if (held)
            {
                store.Gate.Release();
            }
        }

        this.stores.Clear();
    }

    /// <summary>A request's <c>answerBy</c> (Unix milliseconds) as a time, or null; a value of 0 or less is no time at all.</summary>
    private static DateTimeOffset? AnswerTime(long? answerBy) => answerBy switch
    {
        null => null,
        > 0 => DateTimeOffset.FromUnixTimeMilliseconds(answerBy.Value),
        _ => throw SemanticException.InvalidRequest($"'answerBy' is a time in Unix milliseconds, greater than 0: {answerBy}."),
    };

    /// <summary>Waits for the workspace's store, counted as waiting meanwhile so a background build hands it over after its chunk.</summary>
    private static async Task EnterAsync(WorkspaceStore store, CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref store.Waiting);
        try
        {
            await store.Gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            Interlocked.Decrement(ref store.Waiting);
        }
    }

    private async Task<T> RunAsync<T>(string workspace, DateTimeOffset? answerBy, CancellationToken cancellationToken, Func<StoreDatabase, IndexImage, IndexCounts, T> answer)
    {
        WorkspaceStore store = this.stores.GetOrAdd(workspace, w => new WorkspaceStore(w));
        await EnterAsync(store, cancellationToken).ConfigureAwait(false);
        Func<bool>? pastAnswerTime = answerBy is { } by ? () => DateTimeOffset.UtcNow >= by : null;
        try
        {
            return await Task.Run(
                () =>
                {
                    for (int attempt = 0; ; attempt++)
                    {
                        try
                        {
                            if (store.Database is not null && !File.Exists(store.Database.Path))
                            {
                                // Cleared by another host (SharpClaw: Clear Cache): start a new one, not the deleted file.
                                store.Dispose();
                            }

                            store.Database ??= StoreDatabase.Open(workspace, this.Root(), log);
                            IndexCounts counts = this.Refresh(store, pastAnswerTime, cancellationToken);
                            T result = answer(store.Database, store.Image!, counts);
                            if (counts.Pending > 0 && !store.Building)
                            {
                                store.Building = true;
                                _ = this.BuildInBackgroundAsync(store);
                            }

                            return result;
                        }
                        catch (Exception ex) when (attempt == 0 && store.Database is not null && (ex is SqliteException sqlite ? StoreDatabase.IsDamaged(sqlite) : ex is InvalidDataException or EndOfStreamException))
                        {
                            log?.Warn($"Store {store.Database.Path} is damaged ({ex.Message}); discarded and rebuilt.");
                            string path = store.Database.Path;
                            store.Dispose();
                            StoreDatabase.Delete(path);
                        }
                    }
                },
                cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            store.Gate.Release();
        }
    }

    /// <summary>One refresh of the store's index under its gate, logged; the image kept for the next one.</summary>
    private IndexCounts Refresh(WorkspaceStore store, Func<bool>? stopEarly, CancellationToken cancellationToken)
    {
        long started = System.Diagnostics.Stopwatch.GetTimestamp();
        (IndexCounts counts, IndexImage image) = SyntaxIndex.Refresh(store.Database!, store.Image, store.Tree, store.Workspace, openDocuments.Snapshot, this.Progress, stopEarly, cancellationToken);
        store.Image = image;
        if (counts.Reindexed > 0)
        {
            string pending = counts.Pending > 0 ? $"; {counts.Pending} left for the background build" : string.Empty;
            log?.Info($"Store of {store.Workspace}: {counts.Reindexed} of {counts.Indexed} C# files parsed in {System.Diagnostics.Stopwatch.GetElapsedTime(started).TotalMilliseconds:F0} ms{pending}.");
            if (counts.ParsedChars >= BulkParseChars)
            {
                ReleaseParseGarbage(store.Workspace);
            }
        }

        return counts;
    }

    /// <summary>
    /// Finishes a build a query's answer time cut short: a refresh at a time under the gate, each ending after the chunk
    /// during which a query started waiting (that query then refreshes and answers by its own time). Ends when nothing
    /// is pending, when the store was cleared (SharpClaw: Clear Cache) or when the host ends; a failure is logged and
    /// left to the next query.
    /// </summary>
    private async Task BuildInBackgroundAsync(WorkspaceStore store)
    {
        await Task.Yield();
        CancellationToken cancellationToken = this.lifetime.Token;
        try
        {
            for (bool building = true; building;)
            {
                await store.Gate.WaitAsync(cancellationToken).ConfigureAwait(false);
                try
                {
                    if (store.Database is null)
                    {
                        log?.Info($"Store of {store.Workspace}: cleared; the background build ends.");
                        building = false;
                    }
                    else
                    {
                        building = await Task.Run(() => this.Refresh(store, () => Volatile.Read(ref store.Waiting) > 0, cancellationToken).Pending > 0, cancellationToken).ConfigureAwait(false);
                    }

                    store.Building = building;
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    store.Building = false;
                    log?.Warn($"Store of {store.Workspace}: the background build stopped ({ex.Message}); the next query goes on with it.");
                    return;
                }
                finally
                {
                    store.Gate.Release();
                }
            }
        }
        catch (OperationCanceledException)
        {
            // The host is ending.
        }
    }

    /// <summary>
    /// A full collection that hands the freed memory back to the system, after a refresh that parsed a lot. The
    /// syntax trees of a bulk parse are garbage as soon as their declarations are read, but the collector keeps the
    /// heap they grew for a long time in a host that then idles (measured on dotnet/efcore, 5,761 files and 91 MB
    /// of source: a working set of 533 MB after the first index, 196 MB after this collection, which took 0.2 s of
    /// a 13.5 s build). Small refreshes never pay for it.
    /// </summary>
    private void ReleaseParseGarbage(string workspace)
    {
        long before = Environment.WorkingSet;
        long started = System.Diagnostics.Stopwatch.GetTimestamp();
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        log?.Info($"Store of {workspace}: memory of the parse released in {System.Diagnostics.Stopwatch.GetElapsedTime(started).TotalMilliseconds:F0} ms (working set {before / (1024 * 1024)} → {Environment.WorkingSet / (1024 * 1024)} MB).");
    }

    private string Root() => stateRoot is null ? StateFolder.Root() : StateFolder.Root(stateRoot);

    private static string ValidWorkspace(string? workspace)
    {
        if (string.IsNullOrWhiteSpace(workspace))
        {
            throw SemanticException.InvalidRequest("'workspace' is required.");
        }

        if (!Path.IsPathFullyQualified(workspace))
        {
            throw SemanticException.InvalidRequest($"'workspace' must be an absolute path: {workspace}.");
        }

        string normalized = PathUtil.Normalize(workspace);
        if (!Directory.Exists(normalized))
        {
            throw SemanticException.InvalidRequest($"The workspace folder {normalized} does not exist.");
        }

        return normalized;
    }

    private static string Required(string? value, string name) =>
        string.IsNullOrWhiteSpace(value) ? throw SemanticException.InvalidRequest($"'{name}' is required.") : value.Trim();

    private sealed class WorkspaceStore(string workspace) : IDisposable
    {
        public string Workspace { get; } = workspace;

        public SemaphoreSlim Gate { get; } = new(1, 1);

        public StoreDatabase? Database { get; set; }

        /// <summary>Queries waiting for <see cref="Gate"/>: a background build hands the store over after its chunk while there are any.</summary>
        public int Waiting;

        /// <summary>A background build is finishing what a query's answer time cut short (read and written under <see cref="Gate"/>).</summary>
        public bool Building { get; set; }

        /// <summary>The index as this host last saw it; read again whenever another host committed (<see cref="IndexImage.Current"/>).</summary>
        public IndexImage? Image { get; set; }

        /// <summary>The workspace's folders and files as this host last listed them (kept across a cleared store: it is the disk's, not the store's).</summary>
        public WorkspaceTree Tree { get; } = new(workspace);

        public void Dispose()
        {
            this.Database?.Dispose();
            this.Database = null;
            this.Image = null;
        }
    }
}
