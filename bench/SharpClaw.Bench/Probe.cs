using System.Diagnostics;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;

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
}
