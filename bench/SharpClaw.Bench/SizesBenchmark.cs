using System.Diagnostics;
using System.Globalization;
using System.Text.Json.Nodes;

namespace SharpClaw.Bench;

/// <summary>
/// The budget by solution size: for each synthetic size (10, 50, 200 projects by default) a cold load through the
/// host beside a direct <c>OpenSolutionAsync</c>, warm resolve / references / hierarchy beside the direct Roslyn
/// calls (interleaved), and the GC heap after loading and compiling everything beside a direct workspace's.
/// Writes one bench/results/NAME.json whose rows carry <c>size</c> and <c>kind</c> (the README pivots them).
/// </summary>
internal static class SizesBenchmark
{
    public static async Task<int> RunAsync(IReadOnlyList<int> sizes, int files, int iterations, string resultsDirectory, string benchName)
    {
        List<BenchRow> rows = [];
        List<int> measured = [];
        foreach (int size in sizes)
        {
            long sizeStarted = Stopwatch.GetTimestamp();
            string output = Path.Combine(Path.GetTempPath(), string.Create(CultureInfo.InvariantCulture, $"sharpclaw-synth-sizes-{size}"));
            string solution = SyntheticSolution.Generate(output, size, files);
            string workspace = Path.GetDirectoryName(solution)!;
            Console.WriteLine($"== {size} projects: restore (not timed), direct warm-up load (not counted)");
            LoadBenchmark.Run("dotnet", workspace, "restore", solution, "-nologo", "-v:q");
            await LoadBenchmark.DirectLoadAsync(solution);

            List<double> host = [];
            List<double> direct = [];
            for (int run = 0; run < 2; run++)
            {
                for (int step = 0; step < 2; step++)
                {
                    _ = LoadBenchmark.HeapAfterFullGc();
                    if ((step == 0) == (run == 0))
                    {
                        host.Add((await LoadBenchmark.HostColdLoadAsync(workspace, solution)).Ms);
                    }
                    else
                    {
                        direct.Add(await LoadBenchmark.DirectLoadAsync(solution));
                    }
                }
            }

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  cold load host {string.Join(", ", host.Select(v => v.ToString("0", CultureInfo.InvariantCulture)))} ms, direct {string.Join(", ", direct.Select(v => v.ToString("0", CultureInfo.InvariantCulture)))} ms"));
            rows.Add(Row(size, "cold load", host, direct, "<= 0.7x", BenchReport.Percentile(host, 0.5) <= 0.7 * BenchReport.Percentile(direct, 0.5)));

            HashSet<string> warm = ["resolve", "references (limit 50)", "hierarchy"];
            (List<BenchRow> queries, _, _) = await QueryBenchmark.MeasureAsync(solution, SyntheticSolution.NamesFor(size, files).Targets, iterations, warm.Contains);
            foreach (BenchRow query in queries)
            {
                BenchRow row = Row(size, "warm " + query.Measure, query.Ours, query.Baseline, "<= 1.5x + 2 ms", (bool?)query.Extra["meets_goal"]?.GetValue<bool>());
                row.Extra["same_answer"] = query.Extra["same_answer"]?.DeepClone();
                rows.Add(row);
            }

            (long hostLoad, long hostCompile) = await HeapProbe.MeasureAsync("host", solution);
            (long directLoad, long directCompile) = await HeapProbe.MeasureAsync("direct", solution);
            rows.Add(MemoryRow(size, "GC heap after load", hostLoad, directLoad));
            rows.Add(MemoryRow(size, "GC heap after compiling all", hostCompile, directCompile));
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {size} projects measured in {Stopwatch.GetElapsedTime(sizeStarted).TotalMinutes:0.0} min"));

            // Written after every size, so a run stopped during a large size still leaves the smaller ones.
            measured.Add(size);
            string file = await BenchReport.WriteAsync(resultsDirectory, benchName, rows, new Dictionary<string, JsonNode?>
            {
                ["solution"] = $"synthetic solutions of {string.Join(", ", measured)} projects, {files + 1} files per library",
                ["iterations"] = iterations,
                ["method"] = "per size: 2 cold loads per side alternating after a direct warm-up; warm queries interleaved with the direct Roslyn call; heap after a forced full GC, host context vs a bare MSBuildWorkspace, each in a process of its own",
            });
            Console.WriteLine($"Wrote {file}");
        }

        return 0;
    }

    private static BenchRow Row(int size, string kind, List<double> ours, List<double> baseline, string goal, bool? meets)
    {
        BenchRow row = new(string.Create(CultureInfo.InvariantCulture, $"{size} projects: {kind}"), ours, baseline);
        row.Extra["size"] = size;
        row.Extra["kind"] = kind;
        row.Extra["goal"] = goal;
        row.Extra["meets_goal"] = meets;
        return row;
    }

    private static BenchRow MemoryRow(int size, string kind, long ours, long baseline)
    {
        double ratio = (double)ours / Math.Max(1, baseline);
        BenchRow row = Row(size, kind, [], [], "<= 1.3x", ratio <= 1.3);
        row.Extra["ours"] = new JsonObject { ["mb"] = ours / 1024 / 1024 };
        row.Extra["baseline"] = new JsonObject { ["mb"] = baseline / 1024 / 1024 };
        row.Extra["ratio"] = Math.Round(ratio, 2);
        return row;
    }
}
