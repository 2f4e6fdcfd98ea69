using SharpClaw.Protocol;

namespace SharpClaw.Server.Hosting;

/// <summary>
/// Admits requests by their <see cref="RequestScheduling"/>: any number of shared (reading) requests together,
/// one exclusive (mutating) request alone. First come, first served: a reader that arrives after a waiting mutating request
/// waits behind it, so a stream of reads cannot starve an edit. Lifecycle, document-sync and
/// outside-the-solution requests pass straight through.
/// </summary>
public sealed class RequestGate
{
    private readonly object sync = new();
    private readonly LinkedList<Waiter> queue = new();
    private int readers;
    private bool writer;

    /// <summary>Readers running now (for tests and the log).</summary>
    public int ActiveReaders
    {
        get
        {
            lock (this.sync)
            {
                return this.readers;
            }
        }
    }

    /// <summary>True while a mutating request runs.</summary>
    public bool MutatingActive
    {
        get
        {
            lock (this.sync)
            {
                return this.writer;
            }
        }
    }

    /// <summary>Waits until a request scheduled as <paramref name="scheduling"/> may run; dispose the result when it finished.</summary>
    public Task<IDisposable> EnterAsync(RequestScheduling scheduling, CancellationToken cancellationToken)
    {
        if (scheduling is RequestScheduling.Lifecycle or RequestScheduling.DocumentSync or RequestScheduling.OutsideSolution)
        {
            return Task.FromResult<IDisposable>(Released.Instance);
        }

        bool mutating = scheduling == RequestScheduling.Exclusive;
        lock (this.sync)
        {
            if (this.queue.Count == 0 && this.CanEnter(mutating))
            {
                return Task.FromResult(this.Grant(mutating));
            }

            cancellationToken.ThrowIfCancellationRequested();
            Waiter waiter = new(mutating);
            LinkedListNode<Waiter> node = this.queue.AddLast(waiter);
            waiter.Registration = cancellationToken.Register(() =>
            {
                lock (this.sync)
                {
                    if (node.List is null)
                    {
                        return;
                    }

                    this.queue.Remove(node);
                    this.Pump();
                }

                waiter.Completion.TrySetCanceled(cancellationToken);
            });
            return waiter.Completion.Task;
        }
    }

    private bool CanEnter(bool mutating) => mutating ? !this.writer && this.readers == 0 : !this.writer;

    private IDisposable Grant(bool mutating)
    {
        if (mutating)
        {
            this.writer = true;
        }
        else
        {
            this.readers++;
        }

        return new Releaser(this, mutating);
    }

    /// <summary>Admits waiters from the front while they fit (under the lock).</summary>
    private void Pump()
    {
        while (this.queue.First is { } first && this.CanEnter(first.Value.Mutating))
        {
            this.queue.RemoveFirst();
            Waiter waiter = first.Value;
            waiter.Registration.Unregister(); // never Dispose under the lock: it waits for a running callback, which waits for the lock
            waiter.Completion.TrySetResult(this.Grant(waiter.Mutating));
            if (waiter.Mutating)
            {
                return;
            }
        }
    }

    private void Release(bool mutating)
    {
        lock (this.sync)
        {
            if (mutating)
            {
                this.writer = false;
            }
            else
            {
                this.readers--;
            }

            this.Pump();
        }
    }

    private sealed class Waiter(bool mutating)
    {
        public bool Mutating { get; } = mutating;

        public TaskCompletionSource<IDisposable> Completion { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public CancellationTokenRegistration Registration { get; set; }
    }

    private sealed class Releaser(RequestGate gate, bool mutating) : IDisposable
    {
        private int disposed;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref this.disposed, 1) == 0)
            {
                gate.Release(mutating);
            }
        }
    }

    private sealed class Released : IDisposable
    {
        public static Released Instance { get; } = new();

        public void Dispose()
        {
        }
    }
}
