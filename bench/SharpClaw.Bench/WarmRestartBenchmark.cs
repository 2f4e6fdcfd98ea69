using System.Diagnostics;
using System.Globalization;
using System.Text.Json.Nodes;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Handlers;

namespace SharpClaw.Bench;

/// <summary>
/// Warm restart (issue 17): a new host (a fresh in-process HostServer on the same state folder) answering
/// <c>sharpclaw/solutionInspect</c> from the approved snapshot in the store — store read, fingerprint check,
/// AdhocWorkspace rebuild, no MSBuild — beside the cold authorized load that wrote it (evaluation pass plus
/// MSBuildWorkspace, with the authorization round trip). Each run starts from an empty state folder; the cold
/// and warm hosts of a run alternate, so on a busy machine both sides see the same load.
/// </summary>
internal static class WarmRestartBenchmark
{
    public static async Task<int> RunAsync(string solution, int runs, int restarts, string resultsDirectory, string benchName)
    {
        solution = Path.GetFullPath(solution);
        string workspace = Path.GetDirectoryName(solution)!;
        Console.WriteLine($"Provisioning: dotnet restore {solution} (not timed)");
        LoadBenchmark.Run("dotnet", workspace, "restore", solution, "-nologo", "-v:q");
        Console.WriteLine("Warm-up (not counted)...");
        await LoadBenchmark.DirectLoadAsync(solution);

        List<double> cold = [];
        List<double> warm = [];
        int projects = 0;
        for (int run = 1; run <= runs; run++)
        {
            string state = Path.Combine(Path.GetTempPath(), "sharpclaw-bench-warm-" + Guid.NewGuid().ToString("N"));
            try
            {
                HostServerOptions options = new() { StateRoot = state };
                await using (LoadBenchmark.InProcessHost host = await LoadBenchmark.InProcessHost.StartAsync(options))
                {
                    long started = Stopwatch.GetTimestamp();
                    SolutionInspectResult result = await host.InspectAsync(workspace, solution);
                    cold.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                    projects = result.Projects.Count;
                    if (result.FromSnapshot || result.FromCache)
                    {
                        throw new InvalidOperationException("The cold host did not load.");
                    }

                    await host.Cache.Snapshots!.FlushAsync(TimeSpan.FromMinutes(1)); // Not timed: the write happens after the answer.
                }

                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  run {run}: cold {cold[^1],8:0} ms ({projects} projects)"));
                for (int restart = 0; restart < restarts; restart++)
                {
                    LoadBenchmark.HeapAfterFullGc();
                    await using LoadBenchmark.InProcessHost host = await LoadBenchmark.InProcessHost.StartAsync(options);
                    long started = Stopwatch.GetTimestamp();
                    SolutionInspectResult result = await host.InspectAsync(workspace, solution);
                    warm.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                    if (!result.FromSnapshot)
                    {
                        throw new InvalidOperationException("The restarted host did not use the approved snapshot.");
                    }

                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  run {run}: warm {warm[^1],8:0} ms"));
                }
            }
            finally
            {
                Directory.Delete(state, recursive: true);
            }
        }

        double ratio = BenchReport.Percentile(warm, 0.5) / BenchReport.Percentile(cold, 0.5);
        BenchRow row = new($"warm restart: a new host's solutionInspect from the approved snapshot (store read, fingerprint check, AdhocWorkspace rebuild; no MSBuild, no approval) vs the cold authorized load, {projects} projects", warm, cold);
        row.Extra["goal"] = "<= 0.1x";
        row.Extra["meets_goal"] = ratio <= 0.1;
        string file = await BenchReport.WriteAsync(resultsDirectory, benchName, [row], new Dictionary<string, JsonNode?>
        {
            ["solution"] = $"{Path.GetFileName(solution)}: {projects} projects",
            ["runs"] = runs,
            ["method"] = $"per run: an empty state folder, one cold host (timed solutionInspect, snapshot written untimed), then {restarts} new hosts on that folder (timed solutionInspect each); in-process hosts, so host start and JIT are not in either side (the CLI bench has them)",
        });
        Console.WriteLine($"Wrote {file}");
        return 0;
    }
}
