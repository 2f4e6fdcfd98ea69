using System.Collections.Immutable;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.MSBuild;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;

namespace SharpClaw.Bench;

/// <summary>
/// Warm latency (p50/p95) of the read tools through the in-memory host (JSON-RPC round trip, cache
/// acquire, selector resolution, paging) against the equivalent direct Roslyn call on an already
/// loaded, compiled MSBuildWorkspace solution in the same process.
/// </summary>
internal static class QueryBenchmark
{
    public static async Task<int> RunAsync(string solution, int iterations, string resultsDirectory)
    {
        solution = Path.GetFullPath(solution);
        string workspace = Path.GetDirectoryName(solution)!;
        Console.WriteLine($"Provisioning: dotnet restore {solution} (not timed)");
        using (Process restore = Process.Start(new ProcessStartInfo("dotnet", ["restore", solution, "-nologo", "-v:q"]) { WorkingDirectory = workspace })!)
        {
            await restore.WaitForExitAsync();
        }

        // Names in the synthetic solution: Lib000 is referenced (transitively) by every other project.
        const string Resolve = "Lib025.Type05.Compute(int)";
        const string References = "Lib000.Type00.Compute(int)";
        const string Hierarchy = "Lib010.Type03";
        const string DiagnosticsProject = "Lib049";

        List<(string Measure, List<double> Host, List<double> Direct)> rows = [];
        await using (LoadBenchmark.InProcessHost host = await LoadBenchmark.InProcessHost.StartAsync())
        {
            Console.WriteLine("Host: cold load + warm-up (not counted)...");
            await host.InspectAsync(workspace, solution);
            SymbolResolveParams resolve = new() { Workspace = workspace, Target = solution, Name = Resolve, Tool = "bench" };
            FindReferencesParams references = new() { Workspace = workspace, Target = solution, Name = References, Tool = "bench" };
            TypeHierarchyParams hierarchy = new() { Workspace = workspace, Target = solution, Name = Hierarchy, Tool = "bench" };
            DiagnosticsParams diagnostics = new() { Workspace = workspace, Target = solution, Project = DiagnosticsProject, Tool = "bench" };

            rows.Add(("symbolResolve", await Measure(iterations, () => host.InvokeAsync<SymbolResolveResult>(ProtocolMethods.SymbolResolve, resolve)), []));
            rows.Add(("findReferences (limit 50)", await Measure(iterations, () => host.InvokeAsync<FindReferencesResult>(ProtocolMethods.FindReferences, references)), []));
            rows.Add(("typeHierarchy", await Measure(iterations, () => host.InvokeAsync<TypeHierarchyResult>(ProtocolMethods.TypeHierarchy, hierarchy)), []));
            rows.Add(($"diagnostics (project {DiagnosticsProject})", await Measure(iterations, () => host.InvokeAsync<DiagnosticsResult>(ProtocolMethods.Diagnostics, diagnostics)), []));
        }

        Console.WriteLine("Direct: load + compile (not counted)...");
        using (MSBuildWorkspace direct = MSBuildWorkspace.Create(new Dictionary<string, string> { ["Configuration"] = "Debug" }))
        {
            Solution loaded = await direct.OpenSolutionAsync(solution);
            foreach (Project project in loaded.Projects)
            {
                _ = await project.GetCompilationAsync();
            }

            async Task<INamedTypeSymbol> TypeAsync(string project, string metadataName) =>
                (await loaded.Projects.Single(p => p.Name == project).GetCompilationAsync())!.GetTypeByMetadataName(metadataName)!;

            rows[0].Direct.AddRange(await Measure(iterations, async () =>
                (await TypeAsync("Lib025", "Lib025.Type05")).GetMembers("Compute").OfType<IMethodSymbol>().Single(m => m.Parameters.Length == 1)));
            rows[1].Direct.AddRange(await Measure(iterations, async () =>
                (await SymbolFinder.FindReferencesAsync((await TypeAsync("Lib000", "Lib000.Type00")).GetMembers("Compute").Single(), loaded)).SelectMany(r => r.Locations).Count()));
            rows[2].Direct.AddRange(await Measure(iterations, async () =>
                (await SymbolFinder.FindDerivedClassesAsync(await TypeAsync("Lib010", "Lib010.Type03"), loaded, transitive: true)).Count()));
            rows[3].Direct.AddRange(await Measure(iterations, async () =>
            {
                Project project = loaded.Projects.Single(p => p.Name == DiagnosticsProject);
                Compilation compilation = (await project.GetCompilationAsync())!;
                ImmutableArray<DiagnosticAnalyzer> analyzers = [.. project.AnalyzerReferences.SelectMany(r => r.GetAnalyzers(project.Language))];
                return analyzers.IsEmpty
                    ? compilation.GetDiagnostics().Length
                    : (await compilation.WithAnalyzers(analyzers, project.AnalyzerOptions).GetAllDiagnosticsAsync()).Length;
            }));
        }

        StringBuilder report = new();
        report.AppendLine(CultureInfo.InvariantCulture, $"# Read-tool warm latency ({Path.GetFileName(solution)}, {iterations} iterations each)");
        report.AppendLine();
        report.AppendLine("| Query | host p50 | host p95 | direct Roslyn p50 | direct Roslyn p95 |");
        report.AppendLine("| --- | ---: | ---: | ---: | ---: |");
        foreach ((string measure, List<double> hostTimes, List<double> directTimes) in rows)
        {
            report.AppendLine(CultureInfo.InvariantCulture, $"| {measure} | {P(hostTimes, 0.5):0.0} ms | {P(hostTimes, 0.95):0.0} ms | {P(directTimes, 0.5):0.0} ms | {P(directTimes, 0.95):0.0} ms |");
        }

        report.AppendLine();
        report.AppendLine("Direct: resolve = GetTypeByMetadataName + GetMembers; references = SymbolFinder.FindReferencesAsync; hierarchy = FindDerivedClassesAsync; diagnostics = GetAllDiagnosticsAsync with the project's analyzers (whole project).");
        Console.WriteLine(report.ToString());
        Directory.CreateDirectory(resultsDirectory);
        string file = Path.Combine(resultsDirectory, "queries-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + ".md");
        await File.WriteAllTextAsync(file, report.ToString());
        Console.WriteLine($"Wrote {file}");
        return 0;
    }

    private static async Task<List<double>> Measure<T>(int iterations, Func<Task<T>> query)
    {
        for (int i = 0; i < 3; i++)
        {
            _ = await query(); // warm-up
        }

        List<double> times = [];
        for (int i = 0; i < iterations; i++)
        {
            long started = Stopwatch.GetTimestamp();
            _ = await query();
            times.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        }

        return times;
    }

    private static double P(List<double> values, double quantile)
    {
        if (values.Count == 0)
        {
            return double.NaN;
        }

        List<double> sorted = [.. values.Order()];
        return sorted[Math.Min(sorted.Count - 1, (int)Math.Ceiling(quantile * sorted.Count) - 1)];
    }
}
