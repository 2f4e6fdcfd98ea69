using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace SharpClaw.Bench;

/// <summary>One measured row: ours beside the baseline measured in the same run.</summary>
internal sealed record BenchRow(string Measure, List<double> Ours, List<double> Baseline)
{
    /// <summary>Extra facts of the row (answer tokens, whether both sides gave the same answer, goal, ...).</summary>
    public Dictionary<string, JsonNode?> Extra { get; } = [];
}

/// <summary>
/// Writes <c>bench/results/NAME.json</c> in the one format every benchmark shares (scripts/bench-readme.mjs
/// turns these files into the README's tables):
/// <c>{ "rows": [ { "measure", "ours": { "p50_ms", "p95_ms" }, "baseline": { "p50_ms", "p95_ms" }, "ratio_p50" } ] }</c>
/// plus the run's facts (machine, solution, iterations) beside "rows".
/// </summary>
internal static class BenchReport
{
    public static double Percentile(IReadOnlyList<double> values, double quantile)
    {
        if (values.Count == 0)
        {
            return double.NaN;
        }

        List<double> sorted = [.. values.Order()];
        return sorted[Math.Clamp((int)Math.Ceiling(quantile * sorted.Count) - 1, 0, sorted.Count - 1)];
    }

    public static async Task<string> WriteAsync(string resultsDirectory, string name, IEnumerable<BenchRow> rows, Dictionary<string, JsonNode?> facts)
    {
        JsonArray array = [];
        foreach (BenchRow row in rows)
        {
            JsonObject item = new() { ["measure"] = row.Measure, ["ours"] = Stats(row.Ours) };
            if (row.Baseline.Count > 0)
            {
                item["baseline"] = Stats(row.Baseline);
                item["ratio_p50"] = Round(Percentile(row.Ours, 0.5) / Math.Max(Percentile(row.Baseline, 0.5), 0.001), 2);
                item["ratio_p95"] = Round(Percentile(row.Ours, 0.95) / Math.Max(Percentile(row.Baseline, 0.95), 0.001), 2);
            }

            foreach ((string key, JsonNode? value) in row.Extra)
            {
                item[key] = value?.DeepClone(); // a row may be written more than once (the sizes bench writes after every size)
            }

            array.Add(item);
        }

        JsonObject root = new()
        {
            ["bench"] = name,
            ["date_utc"] = DateTime.UtcNow.ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture),
            ["cores"] = Environment.ProcessorCount,
            ["runtime"] = RuntimeInformation.FrameworkDescription,
            ["gc"] = System.Runtime.GCSettings.IsServerGC ? "server" : "workstation",
            ["load_average"] = LoadAverage(),
        };
        foreach ((string key, JsonNode? value) in facts)
        {
            root[key] = value;
        }

        root["rows"] = array;
        Directory.CreateDirectory(resultsDirectory);
        string file = Path.Combine(resultsDirectory, name + ".json");
        await File.WriteAllTextAsync(file, root.ToJsonString(new JsonSerializerOptions { WriteIndented = true }) + "\n");
        return file;
    }

    /// <summary>p50/p95 in milliseconds, and n (the number of samples).</summary>
    public static JsonObject Stats(IReadOnlyList<double> values) => new()
    {
        ["p50_ms"] = Round(Percentile(values, 0.5), 2),
        ["p95_ms"] = Round(Percentile(values, 0.95), 2),
        ["n"] = values.Count,
    };

    public static double Round(double value, int digits) => double.IsFinite(value) ? Math.Round(value, digits) : -1;

    /// <summary>The 1-minute load average (Linux), so a reader sees how busy the shared machine was.</summary>
    private static string? LoadAverage()
    {
        try
        {
            return File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg").Split(' ')[0] : null;
        }
        catch (IOException)
        {
            return null;
        }
    }
}
