using System.Diagnostics;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Status;
using SharpClaw.Server.Semantic;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Navigation;

namespace SharpClaw.Bench;

/// <summary>
/// Profiling probe: after a cold load and warm-up, runs host queries in a loop (run it under
/// <c>dotnet-trace collect --profile cpu-sampling</c> to see where a warm query spends its time).
/// </summary>
internal static class Probe
{
    public static async Task<int> RunAsync(string solution, int iterations, string? name = null)
    {
        solution = Path.GetFullPath(solution);
        string workspace = Path.GetDirectoryName(solution)!;
        await using LoadBenchmark.InProcessHost host = await LoadBenchmark.InProcessHost.StartAsync();
        await host.InspectAsync(workspace, solution);
        SymbolResolveParams resolve = new() { Workspace = workspace, Target = solution, Name = name ?? "Lib001.Type01.Compute(int)", Tool = "bench" };
        NavigateParams references = new() { Workspace = workspace, Target = solution, Action = "hover", Name = "Lib001.Type01.Describe(int)", Tool = "bench" };
        SymbolsParams file = new() { Workspace = workspace, Target = solution, Path = "src/Lib001/Type01.cs", Tool = "bench" };
        for (int i = 0; i < 3 && name is null; i++)
        {
            await host.InvokeAsync<NavigateResult>(ProtocolMethods.Navigate, references);
            await host.InvokeAsync<SymbolsResult>(ProtocolMethods.Symbols, file);
        }

        if (name?.StartsWith("navigate:", StringComparison.Ordinal) == true)
        {
            // navigate:ACTION:NAME — the answer (for before/after comparisons on a real solution) and its warm time.
            string[] parts = name.Split(':', 3);
            NavigateParams navigate = new() { Workspace = workspace, Target = solution, Action = parts[1], Name = parts[2], Tool = "bench" };
            NavigateResult answer = await host.InvokeAsync<NavigateResult>(ProtocolMethods.Navigate, navigate);
            Console.WriteLine($"total {answer.Total}: {string.Join("; ", (answer.Related ?? []).Select(r => $"{r.Name}{(r.Via is null ? string.Empty : " via " + r.Via)}").Order(StringComparer.Ordinal))}");
            await ReportWarmAsync(parts[1], iterations, () => host.InvokeAsync<NavigateResult>(ProtocolMethods.Navigate, navigate));
            return 0;
        }

        if (name?.StartsWith("symbols:", StringComparison.Ordinal) == true)
        {
            // symbols:QUERY — csharp_symbols' workspace query: its first page and its warm time.
            SymbolsParams query = new() { Workspace = workspace, Target = solution, Query = name["symbols:".Length..], Tool = "bench" };
            SymbolsResult answer = await host.InvokeAsync<SymbolsResult>(ProtocolMethods.Symbols, query);
            Console.WriteLine($"total {answer.Total}: {string.Join("; ", answer.Items.Take(5).Select(i => $"{i.Path}:{i.Line}:{i.Character} {i.Kind} {i.Name}"))}");
            await ReportWarmAsync("symbols", iterations, () => host.InvokeAsync<SymbolsResult>(ProtocolMethods.Symbols, query));
            return 0;
        }

        if (name == "heap")
        {
            // The loaded host, idle after a full GC, for dotnet-gcdump: what it keeps beyond the solution.
            Console.WriteLine($"heap {LoadBenchmark.HeapAfterFullGc() / 1024 / 1024} MB; pid {Environment.ProcessId}; waiting {iterations} s");
            await Task.Delay(TimeSpan.FromSeconds(iterations));
            return 0;
        }

        if (name == "breakdown")
        {
            await BreakdownAsync(host, workspace, solution, resolve with { Name = "Lib001.Type01.Compute(int)" }, iterations);
            return 0;
        }

        Console.WriteLine("warm; looping");
        double r = 0, f = 0, d = 0;
        for (int i = 0; i < iterations; i++)
        {
            long t = Stopwatch.GetTimestamp();
            await host.InvokeAsync<SymbolResolveResult>(ProtocolMethods.SymbolResolve, resolve);
            r += Stopwatch.GetElapsedTime(t).TotalMilliseconds;
            if (name is not null)
            {
                continue; // only the resolve of the given name
            }

            t = Stopwatch.GetTimestamp();
            await host.InvokeAsync<NavigateResult>(ProtocolMethods.Navigate, references);
            f += Stopwatch.GetElapsedTime(t).TotalMilliseconds;
            t = Stopwatch.GetTimestamp();
            await host.InvokeAsync<SymbolsResult>(ProtocolMethods.Symbols, file);
            d += Stopwatch.GetElapsedTime(t).TotalMilliseconds;
        }

        Console.WriteLine($"mean resolve {r / iterations:0.00} ms, hover {f / iterations:0.00} ms, document symbols {d / iterations:0.00} ms");
        return 0;
    }

    /// <summary>Where a warm resolve's time goes: RPC round trip, request, cache acquire (fingerprint), the query itself.</summary>
    private static async Task BreakdownAsync(LoadBenchmark.InProcessHost host, string workspace, string solution, SymbolResolveParams resolve, int iterations)
    {
        SymbolQueryService queries = new(host.Cache);
        Dictionary<string, List<double>> times = [];
        void Add(string what, long started)
        {
            if (!times.TryGetValue(what, out List<double>? list))
            {
                times[what] = list = [];
            }

            list.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        }

        for (int i = 0; i < iterations + 5; i++)
        {
            bool counted = i >= 5;
            long t = Stopwatch.GetTimestamp();
            await host.InvokeAsync<HostStatus>(ProtocolMethods.Status, new { });
            if (counted) { Add("rpc status round trip", t); }
            t = Stopwatch.GetTimestamp();
            ContextRequest request = SemanticWorkspaceService.CreateRequest(resolve);
            if (counted) { Add("create request (target discovery)", t); }
            t = Stopwatch.GetTimestamp();
            using (ContextLease lease = await host.Cache.AcquireAsync(request, null, CancellationToken.None))
            {
                if (counted) { Add("cache acquire (incl. fingerprint check)", t); }
                t = Stopwatch.GetTimestamp();
                _ = lease.Context.Fingerprint.Check();
                if (counted) { Add("fingerprint check alone", t); }
            }

            t = Stopwatch.GetTimestamp();
            await queries.ResolveAsync(resolve, null, CancellationToken.None);
            if (counted) { Add("resolve in process (no rpc)", t); }
            t = Stopwatch.GetTimestamp();
            await host.InvokeAsync<SymbolResolveResult>(ProtocolMethods.SymbolResolve, resolve);
            if (counted) { Add("resolve over rpc", t); }
        }

        foreach ((string what, List<double> list) in times)
        {
            Console.WriteLine($"{what,-45} p50 {BenchReport.Percentile(list, 0.5),7:0.000} ms  p95 {BenchReport.Percentile(list, 0.95),7:0.000} ms");
        }
    }

    /// <summary>Times <paramref name="call"/> <paramref name="iterations"/> times and prints its p50 and p95.</summary>
    private static async Task ReportWarmAsync(string label, int iterations, Func<Task> call)
    {
        List<double> warm = [];
        for (int i = 0; i < iterations; i++)
        {
            long started = Stopwatch.GetTimestamp();
            await call();
            warm.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        }

        Console.WriteLine($"warm {label}: p50 {BenchReport.Percentile(warm, 0.5):0.00} ms, p95 {BenchReport.Percentile(warm, 0.95):0.00} ms over {iterations}");
    }
}
