using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Contexts;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// Starts query <paramref name="index"/> (one-based) of a bulk call: <paramref name="run"/> starts the query on the
/// thread pool, and the task returned stands for the query (its section, or timeout if unfinished when the call times
/// out). Tests delay or observe single queries here; without a hook each query simply starts.
/// </summary>
public delegate Task<BulkNavigateSection> BulkNavigateQueryHook(int index, Func<CancellationToken, Task<BulkNavigateSection>> run, CancellationToken cancellationToken);

/// <summary>
/// <c>sharpclaw/bulkNavigate</c>: 1–16 navigate queries on one snapshot, run concurrently. A failing query
/// fills only its own section; when the overall timeout passes, finished sections stay and the rest say timeout.
/// </summary>
/// <param name="cache">The semantic contexts.</param>
/// <param name="clock">Measures the overall timeout (tests pass a clock they fire by hand); the system clock by default.</param>
/// <param name="queryHook">Wraps each query (tests only); null runs them as they are.</param>
public sealed class BulkNavigateService(SemanticContextCache cache, TimeProvider? clock = null, BulkNavigateQueryHook? queryHook = null)
{
    public async Task<BulkNavigateResult> BulkNavigateAsync(BulkNavigateParams parameters, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
    {
        IReadOnlyList<BulkNavigateQuery> queries = parameters.Queries ?? [];
        ParamCheck.Count<BulkNavigateParams>(nameof(BulkNavigateParams.Queries), queries.Count);
        int timeoutSeconds = ParamCheck.Bounded<BulkNavigateParams>(nameof(BulkNavigateParams.TimeoutSeconds), parameters.TimeoutSeconds);

        // Shared options are checked once: a bad offset or limit fails the whole call.
        int offset = ParamCheck.Bounded<BulkNavigateParams>(nameof(BulkNavigateParams.Offset), parameters.Offset);
        int limit = ParamCheck.Bounded<BulkNavigateParams>(nameof(BulkNavigateParams.Limit), parameters.Limit);

        ContextRequest request = SemanticWorkspaceService.CreateRequest(parameters);
        using ContextLease lease = await cache.AcquireAsync(request, authorizer, cancellationToken).ConfigureAwait(false);
        string workspace = request.Target.Workspace;

        using CancellationTokenSource stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        Task<BulkNavigateSection>[] running = [.. queries.Select((query, i) =>
        {
            Task<BulkNavigateSection> Run(CancellationToken token) => Task.Run(() => RunOneAsync(lease, workspace, parameters, query, i + 1, offset, limit, token), token);
            return queryHook is null ? Run(stop.Token) : queryHook(i + 1, Run, stop.Token);
        })];
        Task all = Task.WhenAll(running);
        using CancellationTokenSource timer = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        TimeSpan timeout = TimeSpan.FromSeconds(timeoutSeconds);
        Task finished = await Task.WhenAny(all, Task.Delay(timeout, clock ?? TimeProvider.System, timer.Token)).ConfigureAwait(false);
        await timer.CancelAsync().ConfigureAwait(false); // No timer left running once every query finished.
        cancellationToken.ThrowIfCancellationRequested();
        bool timedOut = finished != all;
        if (timedOut)
        {
            await stop.CancelAsync().ConfigureAwait(false);
        }

        List<BulkNavigateSection> sections = [];
        for (int i = 0; i < running.Length; i++)
        {
            Task<BulkNavigateSection> task = running[i];
            sections.Add(task.IsCompletedSuccessfully && !(timedOut && task.Result.Error?.Code == SemanticErrorKind.Cancelled)
                ? task.Result
                : new BulkNavigateSection(i + 1, Action(queries[i]), Target(queries[i]), null, new BulkNavigateError(SemanticErrorKind.Timeout, "The bulk call timed out before this query finished. Send it alone or with fewer queries.", null)));
        }

        // Leases must not end while a cancelled query still reads the snapshot.
        try
        {
            await all.WaitAsync(TimeSpan.FromSeconds(10), CancellationToken.None).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is TimeoutException or OperationCanceledException)
        {
            // Stragglers: their sections already say timeout.
        }

        return new BulkNavigateResult(sections, timedOut);
    }

    private static async Task<BulkNavigateSection> RunOneAsync(ContextLease lease, string workspace, BulkNavigateParams shared, BulkNavigateQuery query, int index, int offset, int limit, CancellationToken cancellationToken)
    {
        string action = Action(query);
        string target = Target(query);
        try
        {
            string normalized = ParamCheck.OneOf<BulkNavigateQuery>(nameof(BulkNavigateQuery.Action), query.Action);
            NavigateParams parameters = new()
            {
                Action = normalized,
                Name = query.Name,
                Path = query.Path,
                Line = query.Line,
                Character = query.Character,
                Context = shared.Context,
            };
            NavigateResult result = await NavigateService.RunAsync(lease, workspace, parameters, normalized, offset, limit, cancellationToken).ConfigureAwait(false);
            return new BulkNavigateSection(index, action, target, result, null);
        }
        catch (SemanticException ex)
        {
            IReadOnlyList<string>? candidates = ex.Error.Symbols is { Count: > 0 } symbols
                ? [.. symbols.Select(s => s.Text)]
                : ex.Error.Candidates is { Count: > 0 } list ? list : null;
            return new BulkNavigateSection(index, action, target, null, new BulkNavigateError(ex.Kind, ex.Message, candidates));
        }
        catch (OperationCanceledException)
        {
            return new BulkNavigateSection(index, action, target, null, new BulkNavigateError(SemanticErrorKind.Cancelled, "Cancelled.", null));
        }
    }

    private static string Action(BulkNavigateQuery query) => query.Action?.Trim() ?? string.Empty;

    /// <summary>What the query named: its symbol, or file:line:character as sent.</summary>
    private static string Target(BulkNavigateQuery query)
    {
        if (!string.IsNullOrWhiteSpace(query.Name))
        {
            return query.Name.Trim();
        }

        string position = query.Line is { } line ? query.Character is { } character ? $":{line}:{character}" : $":{line}" : string.Empty;
        return (query.Path?.Trim() ?? string.Empty) + position;
    }
}
