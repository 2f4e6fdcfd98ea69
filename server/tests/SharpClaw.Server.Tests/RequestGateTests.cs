using System.Reflection;
using SharpClaw.Protocol;
using SharpClaw.Server.Hosting;
using StreamJsonRpc;

namespace SharpClaw.Server.Tests;

/// <summary>The handler table (every method says whether it mutates) and the gate that serializes mutating requests against readers.</summary>
public sealed class RequestGateTests
{
    [Fact]
    public void EveryJsonRpcMethodOfTheHost_IsInTheHandlerTable()
    {
        List<string> methods = typeof(HostServer).Assembly.GetTypes()
            .SelectMany(t => t.GetMethods(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static))
            .Select(m => m.GetCustomAttribute<JsonRpcMethodAttribute>()?.Name)
            .OfType<string>()
            .Distinct()
            .ToList();
        Assert.NotEmpty(methods);
        Assert.DoesNotContain(methods, m => !HandlerTable.Methods.ContainsKey(m));
        Assert.Equal(RequestScheduling.Exclusive, HandlerTable.SchedulingOf("sharpclaw/edit"));
        Assert.Equal(RequestScheduling.Exclusive, HandlerTable.SchedulingOf("sharpclaw/undoEdit"));
        Assert.Equal(RequestScheduling.Exclusive, HandlerTable.SchedulingOf("sharpclaw/redoEdit"));
        Assert.Equal(RequestScheduling.Shared, HandlerTable.SchedulingOf("sharpclaw/symbolResolve"));
        Assert.Equal(RequestScheduling.OutsideSolution, HandlerTable.SchedulingOf("sharpclaw/resolveTarget"));
        Assert.Equal(RequestScheduling.OutsideSolution, HandlerTable.SchedulingOf("sharpclaw/projectGraph"));
    }

    [Fact]
    public async Task AReader_WaitsForARunningMutatingRequest_AndReadersRunTogether()
    {
        RequestGate gate = new();
        IDisposable edit = await gate.EnterAsync(RequestScheduling.Exclusive, CancellationToken.None);
        Task<IDisposable> reader = gate.EnterAsync(RequestScheduling.Shared, CancellationToken.None);
        Task<IDisposable> status = gate.EnterAsync(RequestScheduling.Lifecycle, CancellationToken.None);
        Assert.True(status.IsCompletedSuccessfully, "status never waits for an edit");
        Task<IDisposable> graph = gate.EnterAsync(RequestScheduling.OutsideSolution, CancellationToken.None);
        Assert.True(graph.IsCompletedSuccessfully, "the verifier's projectGraph never waits for an edit (it may hold the workspace lock the edit waits for)");
        // Fixed waits in this class: what they assert is that a request does not get in meanwhile.
        await Task.Delay(200);
        Assert.False(reader.IsCompleted, "a reader must not run while an edit runs");

        edit.Dispose();
        using IDisposable first = await reader.WaitAsync(TimeSpan.FromSeconds(5));
        using IDisposable second = await gate.EnterAsync(RequestScheduling.Shared, CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(5));
        Assert.Equal(2, gate.ActiveReaders);
    }

    [Fact]
    public async Task TwoMutatingRequests_DoNotInterleave_AndALaterReaderQueuesBehindAWaitingEdit()
    {
        RequestGate gate = new();
        IDisposable reading = await gate.EnterAsync(RequestScheduling.Shared, CancellationToken.None);
        Task<IDisposable> firstEdit = gate.EnterAsync(RequestScheduling.Exclusive, CancellationToken.None);
        Task<IDisposable> laterReader = gate.EnterAsync(RequestScheduling.Shared, CancellationToken.None);
        Task<IDisposable> secondEdit = gate.EnterAsync(RequestScheduling.Exclusive, CancellationToken.None);
        await Task.Delay(100);
        Assert.False(firstEdit.IsCompleted, "an edit waits for the reader before it");
        Assert.False(laterReader.IsCompleted, "a reader after a waiting edit does not overtake it");

        reading.Dispose();
        IDisposable edit = await firstEdit.WaitAsync(TimeSpan.FromSeconds(5));
        Assert.True(gate.MutatingActive);
        await Task.Delay(100);
        Assert.False(secondEdit.IsCompleted, "two edits never run at once");
        Assert.False(laterReader.IsCompleted);

        edit.Dispose();
        (await laterReader.WaitAsync(TimeSpan.FromSeconds(5))).Dispose();
        (await secondEdit.WaitAsync(TimeSpan.FromSeconds(5))).Dispose();
        Assert.False(gate.MutatingActive);
        Assert.Equal(0, gate.ActiveReaders);
    }

    [Fact]
    public async Task AWaitingRequest_CanBeCancelled_WithoutBlockingTheOthers()
    {
        RequestGate gate = new();
        IDisposable edit = await gate.EnterAsync(RequestScheduling.Exclusive, CancellationToken.None);
        using CancellationTokenSource cancel = new();
        Task<IDisposable> cancelled = gate.EnterAsync(RequestScheduling.Exclusive, cancel.Token);
        Task<IDisposable> reader = gate.EnterAsync(RequestScheduling.Shared, CancellationToken.None);
        await cancel.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cancelled);
        edit.Dispose();
        (await reader.WaitAsync(TimeSpan.FromSeconds(5))).Dispose();
    }
}
