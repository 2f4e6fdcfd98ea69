using System.Runtime.InteropServices;

namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// Keeps the threads of one short parallel run on different cores (Linux only; elsewhere every call declines).
/// Linux places a new or woken thread on the core of the thread that started it when it judges the other cores
/// busy, and on a two-core VM it then often leaves both there for the whole run: each gets half a core, in
/// 4 ms slices (the store's freshness check of 10,405 paths took 28–30 ms that way instead of 14, in a fifth of
/// the runs). <see cref="StatHelpers"/> pins each kept helper to a core other than its caller's before waking it.
/// </summary>
internal static class CoreAffinity
{
    /// <summary>Bytes of a CPU mask: room for 1,024 cores, glibc's cpu_set_t.</summary>
    private const int MaskBytes = 128;

    /// <summary>
    /// The cores this thread may run on other than the one it runs on now, from the one after it round to the one
    /// before (so runs on different cores do not all pick core 0); empty when that cannot be known here.
    /// </summary>
    public static List<int> CoresOtherThanThisThreads()
    {
        List<int> others = [];
        if (!OperatingSystem.IsLinux())
        {
            return others;
        }

        try
        {
            byte[] allowed = new byte[MaskBytes];
            int current = sched_getcpu();
            if (sched_getaffinity(0, MaskBytes, allowed) != 0 || current < 0 || current >= MaskBytes * 8 || !Has(allowed, current))
            {
                return others;
            }

            for (int step = 1; step < MaskBytes * 8; step++)
            {
                int core = (current + step) % (MaskBytes * 8);
                if (Has(allowed, core))
                {
                    others.Add(core);
                }
            }

            return others;
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
        {
            return others;
        }
    }

    /// <summary>The kernel's id of this thread (what <see cref="Pin"/> takes), or -1 where there is none to know.</summary>
    public static int ThisThreadId()
    {
        if (!OperatingSystem.IsLinux())
        {
            return -1;
        }

        try
        {
            return gettid();
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
        {
            return -1;
        }
    }

    /// <summary>Pins a thread (by <see cref="ThisThreadId"/>) to one core; false (and nothing changed) when the system refuses.</summary>
    public static bool Pin(int threadId, int core)
    {
        byte[] mask = new byte[MaskBytes];
        mask[core / 8] |= (byte)(1 << (core % 8));
        try
        {
            return threadId > 0 && sched_setaffinity(threadId, MaskBytes, mask) == 0;
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException)
        {
            return false;
        }
    }

    private static bool Has(byte[] mask, int core) => (mask[core / 8] & (1 << (core % 8))) != 0;

    // pid 0: the calling thread.
    [DllImport("libc", SetLastError = true)]
    private static extern int sched_getaffinity(int pid, nint size, byte[] mask);

    [DllImport("libc", SetLastError = true)]
    private static extern int sched_setaffinity(int pid, nint size, byte[] mask);

    [DllImport("libc")]
    private static extern int sched_getcpu();

    [DllImport("libc")]
    private static extern int gettid();
}
