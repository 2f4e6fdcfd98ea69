using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Status;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The four-context LRU cache and its leases, with a one-project fixture in eight configurations: one host and
/// one test, so the loads that fill the cache are paid once for eviction order, leases and concurrent queries.
/// </summary>
public sealed class ContextCacheTests
{
    [Fact]
    public async Task FifthContext_EvictsTheLeastRecentlyUsed_WhileLeasesKeepTheirWorkspaceAlive_AndQueriesDuringEvictionsNeverTouchADisposedWorkspace()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("TopLevelWins", "Top.slnx");

        // Eviction alone: no approved snapshots behind the cache (with them, an evicted context is restored, WarmRestartTests).
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { PersistSnapshots = false });

        foreach (string configuration in new[] { "C1", "C2", "C3", "C4" })
        {
            Assert.False((await host.InspectAsync(fixture.Root, configuration: configuration)).FromCache);
        }

        // Least recently used, not first loaded: touching C1 makes C2 the one to go.
        Assert.True((await host.InspectAsync(fixture.Root, configuration: "C1")).FromCache);
        await host.InspectAsync(fixture.Root, configuration: "C5");
        HostStatus status = await host.StatusAsync();
        Assert.Equal(["C5", "C1", "C4", "C3"], status.LoadedContexts.Select(c => c.Configuration));
        Assert.All(status.LoadedContexts, c => Assert.Equal((fixture.Path("Top.slnx"), (string?)null, 1), (c.Target, c.TargetFramework, c.ProjectCount)));

        // A query holds C3 (acquiring it made it the most recent); using the others makes it the least recent.
        using ContextLease c3 = await host.CachedLeaseAsync(fixture.Root, configuration: "C3");
        SemanticContext c3Context = c3.Context;
        foreach (string configuration in new[] { "C5", "C1", "C4" })
        {
            Assert.True((await host.InspectAsync(fixture.Root, configuration: configuration)).FromCache);
        }

        await host.InspectAsync(fixture.Root, configuration: "C6");
        Assert.Equal(["C6", "C4", "C1", "C5"], (await host.StatusAsync()).LoadedContexts.Select(c => c.Configuration));

        // Evicted but still leased: retired, not disposed, and its snapshot still compiles.
        Assert.True(c3Context.IsRetired);
        Assert.False(c3Context.IsDisposed);
        Compilation compilation = (await c3.Solution.Projects.Single().GetCompilationAsync())!;
        Assert.Empty(compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));

        c3.Dispose();
        Assert.True(c3Context.IsDisposed);

        // C3 is gone: using it again needs evaluation, hence authorization.
        int asked = host.Client.AuthorizationRequests.Count;
        host.Client.DenyAll();
        await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => host.InspectAsync(fixture.Root, configuration: "C3"));
        Assert.Equal(EvaluationReason.ColdLoad, host.Client.AuthorizationRequests[^1].Reason);
        Assert.Equal(asked + 1, host.Client.AuthorizationRequests.Count);

        // Queries on every loaded context while two more loads evict two of them: a query leases its context or is
        // refused, and is never handed a disposed workspace. (On this test's four loaded contexts: a test of its own
        // loaded four more, for the same cache state.)
        host.Client.GrantAll();
        string[] loaded = [.. (await host.StatusAsync()).LoadedContexts.Select(c => c.Configuration!)];
        Assert.Equal(["C6", "C4", "C1", "C5"], loaded);
        using CancellationTokenSource stop = new();
        List<string> failures = [];
        int queries = 0;
        async Task QueryLoopAsync(string configuration)
        {
            while (!stop.IsCancellationRequested)
            {
                ContextLease lease;
                try
                {
                    lease = await host.CachedLeaseAsync(fixture.Root, configuration: configuration);
                }
                catch (SemanticException ex) when (ex.Kind == SemanticErrorKind.PermissionDenied)
                {
                    return; // Evicted: a cached-only query is refused, never handed a disposed workspace.
                }

                using (lease)
                {
                    try
                    {
                        Assert.False(lease.Context.IsDisposed);
                        Compilation compilation = (await lease.Solution.Projects.Single().GetCompilationAsync())!;
                        _ = compilation.GetDiagnostics();
                        Interlocked.Increment(ref queries);
                    }
                    catch (Exception ex)
                    {
                        lock (failures)
                        {
                            failures.Add($"{configuration}: {ex}");
                        }
                    }
                }

                // Paced, not spinning: four loops that never yield took both cores from the loads that evict
                // (650 s and a timeout on a loaded machine); a query every 20 ms still overlaps every eviction.
                await Task.Delay(20, CancellationToken.None);
            }
        }

        Task[] loops = loaded.Select(c => Task.Run(() => QueryLoopAsync(c))).ToArray();
        await host.InspectAsync(fixture.Root, configuration: "C7");
        await host.InspectAsync(fixture.Root, configuration: "C8");
        await stop.CancelAsync();
        await Task.WhenAll(loops);

        Assert.Empty(failures);
        Assert.True(queries > 0);
        IReadOnlyList<SemanticContext> contexts = await host.Cache.GetContextsAsync();
        Assert.Equal(4, contexts.Count);
        Assert.All(contexts, c => Assert.False(c.IsDisposed));
    }
}
