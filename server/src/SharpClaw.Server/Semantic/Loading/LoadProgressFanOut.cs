using SharpClaw.Protocol.Semantic;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>
/// The load and index progress of a host's shared services, sent to every connection attached now: a resident host
/// serves several connections at once, and a load one of them started is the load every other one waits on too.
/// A connection that ends detaches, so nothing is sent to a closed connection.
/// </summary>
public sealed class LoadProgressFanOut : ILoadProgressSink
{
    private readonly Lock gate = new();
    private ILoadProgressSink[] sinks = [];

    public void Report(LoadProgressParams progress)
    {
        foreach (ILoadProgressSink sink in Volatile.Read(ref this.sinks))
        {
            sink.Report(progress);
        }
    }

    /// <summary>Sends progress to <paramref name="sink"/> until the returned handle is disposed.</summary>
    public IDisposable Attach(ILoadProgressSink sink)
    {
        lock (this.gate)
        {
            this.sinks = [.. this.sinks, sink];
        }

        return new Detach(this, sink);
    }

    private sealed class Detach(LoadProgressFanOut owner, ILoadProgressSink sink) : IDisposable
    {
        public void Dispose()
        {
            lock (owner.gate)
            {
                owner.sinks = [.. owner.sinks.Where(s => !ReferenceEquals(s, sink))];
            }
        }
    }
}
