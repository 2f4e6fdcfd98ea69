namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// Background work that can wait until no request is in flight: an approved snapshot's store write started while the
/// request that loaded the context still compiles and searches takes a core from it (on 2 cores, about 0.1 s of a
/// cold first answer). Queued work starts when the last request in flight ends, after <see cref="DefaultMaxWait"/> at the
/// latest (a host answering without pause still writes), or at once on <see cref="StartAll"/> (shutdown).
/// </summary>
public sealed class IdleWork(TimeSpan? maxWait = null)
{
    /// <summary>The longest queued work waits for an idle host, unless the constructor says otherwise (tests).</summary>
    public static readonly TimeSpan DefaultMaxWait = TimeSpan.FromSeconds(10);

    private readonly TimeSpan maxWait = maxWait ?? DefaultMaxWait;
    private readonly Lock gate = new();
    private readonly List<Task> queued = [];
    private int inFlight;

    /// <summary>Requests in flight now (tests).</summary>
    public int InFlight
    {
        get
        {
            lock (this.gate)
            {
                return this.inFlight;
            }
        }
    }

    /// <summary>One request in flight until the returned scope is disposed.</summary>
    public IDisposable Enter()
    {
        lock (this.gate)
        {
            this.inFlight++;
        }

        return new Scope(this);
    }

    /// <summary>
    /// <paramref name="work"/> on the thread pool: now when no request is in flight, else once none is (or after
    /// the longest wait). The returned task completes when it has run (its exceptions are the work's to catch).
    /// </summary>
    public Task Run(Action work)
    {
        Task task = new(work);
        lock (this.gate)
        {
            if (this.inFlight > 0)
            {
                this.queued.Add(task);
                _ = Task.Delay(this.maxWait).ContinueWith(_ => Start(task), TaskScheduler.Default);
                return task;
            }
        }

        Start(task);
        return task;
    }

    /// <summary>Starts every queued work now (shutdown: what is written must not wait for an idle moment).</summary>
    public void StartAll()
    {
        Task[] ready;
        lock (this.gate)
        {
            ready = [.. this.queued];
            this.queued.Clear();
        }

        foreach (Task task in ready)
        {
            Start(task);
        }
    }

    private static void Start(Task task)
    {
        try
        {
            task.Start(TaskScheduler.Default);
        }
        catch (InvalidOperationException)
        {
            // Already started: by the idle moment, by StartAll or by its longest wait, whichever came first.
        }
    }

    private void Exit()
    {
        lock (this.gate)
        {
            if (--this.inFlight > 0)
            {
                return;
            }
        }

        this.StartAll();
    }

    private sealed class Scope(IdleWork owner) : IDisposable
    {
        private int disposed;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref this.disposed, 1) == 0)
            {
                owner.Exit();
            }
        }
    }
}
