using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Status;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>The four-context LRU cache and its leases, with a one-project fixture in five configurations.</summary>
public sealed class ContextCacheTests
{
    [Fact]
    public async Task FifthContext_EvictsTheLeastRecentlyUsed_WhileLeasesKeepTheirWorkspaceAlive()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("TopLevelWins");
        fixture.Restore("Top.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();

        foreach (string configuration in new[] { "C1", "C2", "C3", "C4" })
        {
            Assert.False((await host.InspectAsync(fixture.Root, configuration: configuration)).FromCache);
        }

        // Touch C1 so C2 becomes the least recently used; keep a query running on C2.
        Assert.True((await host.InspectAsync(fixture.Root, configuration: "C1")).FromCache);
        using ContextLease c2 = await host.CachedLeaseAsync(fixture.Root, configuration: "C2");
        SemanticContext c2Context = c2.Context;

        await host.InspectAsync(fixture.Root, configuration: "C5");

        HostStatus status = await host.StatusAsync();
        Assert.Equal(["C5", "C1", "C4", "C3"], status.LoadedContexts.Select(c => c.Configuration));
        Assert.All(status.LoadedContexts, c => Assert.Equal((fixture.Path("Top.slnx"), (string?)null, 1), (c.Target, c.TargetFramework, c.ProjectCount)));

        // Evicted but still leased: retired, not disposed, and its snapshot still compiles.
        Assert.True(c2Context.IsRetired);
        Assert.False(c2Context.IsDisposed);
        Compilation compilation = (await c2.Solution.Projects.Single().GetCompilationAsync())!;
        Assert.Empty(compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));

        c2.Dispose();
        Assert.True(c2Context.IsDisposed);

        // C2 is gone: using it again needs evaluation, hence authorization.
        int asked = host.Client.AuthorizationRequests.Count;
        host.Client.DenyAll();
        await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => host.InspectAsync(fixture.Root, configuration: "C2"));
        Assert.Equal(EvaluationReason.ColdLoad, host.Client.AuthorizationRequests[^1].Reason);
        Assert.Equal(asked + 1, host.Client.AuthorizationRequests.Count);
    }

    [Fact]
    public async Task ConcurrentQueriesDuringEvictions_NeverTouchADisposedWorkspace()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("TopLevelWins");
        fixture.Restore("Top.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();
        foreach (string configuration in new[] { "A", "B", "C", "D" })
        {
            await host.InspectAsync(fixture.Root, configuration: configuration);
        }

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
                catch (SharpClaw.Server.Semantic.SemanticException ex) when (ex.Kind == SemanticErrorKind.PermissionDenied)
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
            }
        }

        Task[] loops = new[] { "A", "B", "C", "D" }.Select(c => Task.Run(() => QueryLoopAsync(c))).ToArray();
        await host.InspectAsync(fixture.Root, configuration: "E");
        await host.InspectAsync(fixture.Root, configuration: "F");
        await stop.CancelAsync();
        await Task.WhenAll(loops);

        Assert.Empty(failures);
        Assert.True(queries > 0);
        IReadOnlyList<SemanticContext> contexts = await host.Cache.GetContextsAsync();
        Assert.Equal(4, contexts.Count);
        Assert.All(contexts, c => Assert.False(c.IsDisposed));
    }
}
