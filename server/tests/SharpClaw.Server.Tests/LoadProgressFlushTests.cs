using Nerdbank.Streams;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Loading;
using StreamJsonRpc;
using Xunit;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Progress leaves before the answer it precedes (JsonRpcLoadProgressSink.FlushAsync, awaited by HostJsonRpc
/// before each response). The sink sends from its own task: on a loaded machine a 520-file index's last
/// "100 % (stored …)" step left after the answer, and the CLI, which ends on the answer, never printed it
/// (host-e2e cliContract, seen in a .ci/run). A slow connection makes that overtaking certain here.
/// </summary>
public sealed class LoadProgressFlushTests
{
    [Fact]
    public async Task AFlushedSink_SendsEveryEarlierStep_BeforeWhatFollows()
    {
        (Stream hostSide, Stream clientSide) = FullDuplexStream.CreatePair();
        using JsonRpc host = JsonRpc.Attach(new SlowWrites(hostSide));
        List<string> received = [];
        TaskCompletionSource answered = new(TaskCreationOptions.RunContinuationsAsynchronously);
        using JsonRpc client = new(clientSide);
        client.AddLocalRpcTarget(new Receiver(received, answered));
        client.StartListening();
        using HostLog log = new(TextWriter.Null);
        JsonRpcLoadProgressSink sink = new(host, log);

        for (int i = 1; i <= 20; i++)
        {
            sink.Report(new LoadProgressParams(ProgressKind.Index, "syntax index of w", string.Empty, null, i, 20, $"parsed F{i}.cs", i * 5));
        }

        await sink.FlushAsync();
        await host.NotifyAsync("answer");
        await answered.Task.WaitAsync(TimeSpan.FromSeconds(30));

        lock (received)
        {
            Assert.Equal([.. Enumerable.Range(1, 20).Select(i => $"step {i}"), "answer"], received);
        }
    }

    [Fact]
    public async Task AFlush_WithNothingReported_OrAfterTheConnectionIsGone_CompletesAtOnce()
    {
        (Stream hostSide, Stream clientSide) = FullDuplexStream.CreatePair();
        JsonRpc host = JsonRpc.Attach(hostSide);
        using HostLog log = new(TextWriter.Null);
        JsonRpcLoadProgressSink sink = new(host, log);
        await sink.FlushAsync().WaitAsync(TimeSpan.FromSeconds(1));

        host.Dispose();
        await clientSide.DisposeAsync();
        sink.Report(new LoadProgressParams(ProgressKind.Load, "w", "Debug", null, 1, 1, "A.csproj", 100));
        // The send fails (the connection is gone) and the flush still completes, well inside its 2 s limit.
        await sink.FlushAsync().WaitAsync(TimeSpan.FromSeconds(1.5));
    }

    private sealed class Receiver(List<string> received, TaskCompletionSource answered)
    {
        [JsonRpcMethod(ProtocolMethods.LoadProgress, UseSingleObjectParameterDeserialization = true)]
        public void Progress(LoadProgressParams progress)
        {
            lock (received)
            {
                received.Add($"step {progress.ProjectIndex}");
            }
        }

        [JsonRpcMethod("answer")]
        public void Answer()
        {
            lock (received)
            {
                received.Add("answer");
            }

            answered.TrySetResult();
        }
    }

    /// <summary>A connection whose every write takes 20 ms: the sink's task is still sending when the answer is ready.</summary>
    private sealed class SlowWrites(Stream inner) : Stream
    {
        public override bool CanRead => inner.CanRead;
        public override bool CanSeek => false;
        public override bool CanWrite => inner.CanWrite;
        public override long Length => throw new NotSupportedException();
        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }
        public override void Flush() => inner.Flush();
        public override Task FlushAsync(CancellationToken cancellationToken) => inner.FlushAsync(cancellationToken);
        public override int Read(byte[] buffer, int offset, int count) => inner.Read(buffer, offset, count);
        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) => inner.ReadAsync(buffer, cancellationToken);
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
        public override void Write(byte[] buffer, int offset, int count) => inner.Write(buffer, offset, count);

        public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
        {
            await Task.Delay(20, cancellationToken).ConfigureAwait(false);
            await inner.WriteAsync(buffer, cancellationToken).ConfigureAwait(false);
        }

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                inner.Dispose();
            }

            base.Dispose(disposing);
        }
    }
}
