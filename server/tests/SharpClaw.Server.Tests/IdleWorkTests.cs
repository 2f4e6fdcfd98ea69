using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Background writes wait for a host with no request in flight (IdleWork): an approved snapshot's store write no
/// longer takes a core from the answer that loaded the context, and is still written once that answer is out, after
/// the longest wait while requests keep coming, or at shutdown.
/// </summary>
public sealed class IdleWorkTests
{
    private static readonly TimeSpan Ran = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task WorkAskedWhileARequestIsInFlight_StartsWhenTheLastOneEnds_AndAtOnceOnAnIdleHost()
    {
        IdleWork idle = new(maxWait: TimeSpan.FromHours(1));
        await idle.Run(() => { }).WaitAsync(Ran);

        IDisposable first = idle.Enter();
        IDisposable second = idle.Enter();
        Task queued = idle.Run(() => { });

        // Fixed waits in this class: what they assert is that the queued work does not start meanwhile.
        await Task.Delay(200);
        Assert.False(queued.IsCompleted, "the work ran while two requests were in flight");
        first.Dispose();
        first.Dispose(); // A scope counts once, however often it is disposed.
        await Task.Delay(200);
        Assert.False(queued.IsCompleted, "the work ran while a request was still in flight");
        Assert.Equal(1, idle.InFlight);

        second.Dispose();
        await queued.WaitAsync(Ran);
        Assert.Equal(0, idle.InFlight);
    }

    [Fact]
    public async Task QueuedWork_StartsAfterTheLongestWait_OrAtOnceOnStartAll_WhileRequestsStayInFlight()
    {
        IdleWork idle = new(maxWait: TimeSpan.FromMilliseconds(300));
        using IDisposable busy = idle.Enter();
        await idle.Run(() => { }).WaitAsync(Ran);

        IdleWork shuttingDown = new(maxWait: TimeSpan.FromHours(1));
        using IDisposable stillBusy = shuttingDown.Enter();
        Task queued = shuttingDown.Run(() => { });
        shuttingDown.StartAll();
        await queued.WaitAsync(Ran);
    }

    [Fact]
    public async Task TheSnapshotOfAnAuthorizedLoad_IsWrittenOnceTheLoadingRequestHasAnswered_WithoutAShutdown()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("Calculator", "Calculator.slnx");
        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });

        SolutionInspectResult loaded = await host.InspectAsync(fixture.Root);
        Assert.False(loaded.FromSnapshot);
        Assert.Equal(0, host.Host.Server.State.Idle.InFlight);

        // Well under IdleWork's longest wait (10 s): a write that only that wait started would not count.
        Assert.True(await Poll.UntilAsync(() => host.Cache.Snapshots!.WriteCount == 1, TimeSpan.FromSeconds(5)), "no snapshot was written within 5 s of the answer");
    }
}
