using System.Diagnostics;
using System.Globalization;
using System.Runtime;

namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// What the host process has cost so far, for its log's exit line: CPU, the time its threads spent in the
/// JIT (elapsed, summed over threads, so it can pass the CPU figure on a busy machine; the Roslyn
/// assemblies are IL only, so a cold host compiles most of what it runs), and the garbage collector's
/// pauses. It tells where a start-up's cost went without a profiler (issue 39).
/// </summary>
public static class ProcessCost
{
    public static string Describe()
    {
        using Process self = Process.GetCurrentProcess();
        CultureInfo invariant = CultureInfo.InvariantCulture;
        return string.Create(invariant,
            $"CPU {self.TotalProcessorTime.TotalSeconds:0.00} s (user {self.UserProcessorTime.TotalSeconds:0.00} s), "
            + $"in the JIT {System.Runtime.JitInfo.GetCompilationTime().TotalSeconds:0.00} s for {System.Runtime.JitInfo.GetCompiledMethodCount():N0} methods, "
            + $"GC pauses {GC.GetTotalPauseDuration().TotalSeconds:0.00} s ({GC.CollectionCount(0)}/{GC.CollectionCount(1)}/{GC.CollectionCount(2)} gen0/1/2, "
            + $"{(GCSettings.IsServerGC ? "server" : "workstation")}{(GCSettings.LatencyMode == GCLatencyMode.Batch ? ", non-concurrent" : string.Empty)}), "
            + $"peak working set {self.PeakWorkingSet64 / (1024 * 1024)} MiB");
    }
}
