namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// Threads kept for long <see cref="StatBatch"/> runs: as many as a run has asked for, each started on the first
/// run that needed it and then waiting for the next. Before each run every helper is pinned to a core
/// other than the caller's (<see cref="CoreAffinity"/>, Linux), so the kernel cannot wake it beside the caller, and
/// the caller never waits for a thread to be created. One run at a time: a second concurrent run is told no and
/// uses the thread pool.
/// </summary>
internal static class StatHelpers
{
    private static readonly object Gate = new();
    private static readonly List<Helper> Helpers = [];

    /// <summary>
    /// Runs <paramref name="work"/> on this thread and on <paramref name="count"/> helpers at once, and returns
    /// when all are done; false, without running anything, when another run holds the helpers.
    /// <paramref name="work"/> must not throw: it runs on threads that have no caller to throw to.
    /// </summary>
    public static bool TryRun(int count, Action work)
    {
        if (!Monitor.TryEnter(Gate))
        {
            return false;
        }

        try
        {
            while (Helpers.Count < count)
            {
                Helpers.Add(new Helper());
            }

            List<int> elsewhere = CoreAffinity.CoresOtherThanThisThreads();
            using CountdownEvent done = new(count);
            for (int i = 0; i < count; i++)
            {
                Helper helper = Helpers[i];
                int core = elsewhere.Count > 0 ? elsewhere[i % elsewhere.Count] : -1;
                if (core >= 0 && helper.Core != core && CoreAffinity.Pin(helper.ThreadId, core))
                {
                    helper.Core = core;
                }

                helper.Start(work, done);
            }

            work();
            done.Wait();
            return true;
        }
        finally
        {
            Monitor.Exit(Gate);
        }
    }

    /// <summary>One kept thread: waits for a run, runs its work, signals, waits again.</summary>
    private sealed class Helper
    {
        private readonly SemaphoreSlim wake = new(0);
        private readonly ManualResetEventSlim started = new();
        private Action? work;
        private CountdownEvent? done;

        public Helper()
        {
            new Thread(this.Loop) { IsBackground = true, Name = "SharpClaw stat" }.Start();
            this.started.Wait();
        }

        /// <summary>The kernel's id of the thread, for pinning it (-1: none here).</summary>
        public int ThreadId { get; private set; } = -1;

        /// <summary>The core it is pinned to (-1: none).</summary>
        public int Core { get; set; } = -1;

        public void Start(Action work, CountdownEvent done)
        {
            this.work = work;
            this.done = done;
            this.wake.Release();
        }

        private void Loop()
        {
            this.ThreadId = CoreAffinity.ThisThreadId();
            this.started.Set();
            while (true)
            {
                this.wake.Wait();
                try
                {
                    this.work!();
                }
                catch (Exception)
                {
                    // The work reports its own failures to its caller; nothing may end this thread (or the host).
                }
                finally
                {
                    this.done!.Signal();
                }
            }
        }
    }
}
