using System.Collections.Immutable;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.MSBuild;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Bench;

/// <summary>
/// The same comparisons on a real, already restored solution: cold load through the host beside a direct
/// <c>OpenSolutionAsync</c> (alternating), then warm resolve / references / hierarchy of one type and the
/// diagnostics of one project beside the direct Roslyn calls, interleaved, with the answers compared.
/// </summary>
internal static class RealBenchmark
{
    public static async Task<int> RunAsync(string solution, string typeName, string projectName, int runs, int iterations, string resultsDirectory, string benchName)
    {
        solution = Path.GetFullPath(solution);
        string workspace = Path.GetDirectoryName(solution)!;
        await LoadBenchmark.DirectLoadAsync(solution); // warm-up, not counted
        List<double> hostLoads = [];
        List<double> directLoads = [];
        int projects = 0;
        for (int run = 0; run < runs; run++)
        {
            for (int step = 0; step < 2; step++)
            {
                _ = LoadBenchmark.HeapAfterFullGc();
                if ((step == 0) == (run % 2 == 0))
                {
                    (double ms, int count) = await LoadBenchmark.HostColdLoadAsync(workspace, solution);
                    hostLoads.Add(ms);
                    projects = count;
                }
                else
                {
                    directLoads.Add(await LoadBenchmark.DirectLoadAsync(solution));
                }
            }

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  cold load run {run + 1}: host {hostLoads[^1]:0} ms, direct {directLoads[^1]:0} ms"));
        }

        List<BenchRow> rows = [new("cold load (host solutionInspect vs direct OpenSolutionAsync)", hostLoads, directLoads)];

        await using LoadBenchmark.InProcessHost host = await LoadBenchmark.InProcessHost.StartAsync();
        await host.InspectAsync(workspace, solution);
        using MSBuildWorkspace direct = MSBuildWorkspace.Create(new Dictionary<string, string> { ["Configuration"] = "Debug" });
        Solution loaded = await direct.OpenSolutionAsync(solution);
        foreach (Project p in loaded.Projects)
        {
            _ = await p.GetCompilationAsync();
        }

        AnalyzerTrust trust = AnalyzerTrust.FromInstalledSdks();
        Project project = loaded.Projects.Where(p => p.Name == projectName || p.Name.StartsWith(projectName + "(", StringComparison.Ordinal)).OrderBy(p => p.Name, StringComparer.Ordinal).First();
        async Task<INamedTypeSymbol> TypeAsync() => (await project.GetCompilationAsync())!.GetTypeByMetadataName(typeName)!;
        string relative(string path) => Path.GetRelativePath(workspace, path).Replace('\\', '/');

        List<(string Measure, Func<Task<string>> Host, Func<Task<string>> Direct)> cases =
        [
            ("resolve " + typeName,
                async () => (await host.InvokeAsync<SymbolResolveResult>(ProtocolMethods.SymbolResolve, new SymbolResolveParams { Workspace = workspace, Target = solution, Name = typeName, Project = projectName, Tool = "bench" })).Symbol.Locations.Select(l => $"{l.Path}:{l.Line}").Order(StringComparer.Ordinal).First(),
                async () => (await TypeAsync()).Locations.Where(l => l.IsInSource).Select(l => $"{relative(l.GetLineSpan().Path)}:{l.GetLineSpan().StartLinePosition.Line + 1}").Order(StringComparer.Ordinal).First()),
            ("references of " + typeName + " (limit 50)",
                async () => (await host.InvokeAsync<FindReferencesResult>(ProtocolMethods.FindReferences, new FindReferencesParams { Workspace = workspace, Target = solution, Name = typeName, Project = projectName, Tool = "bench" })).Total.ToString(CultureInfo.InvariantCulture),
                async () => (await SymbolFinder.FindReferencesAsync(await TypeAsync(), loaded)).SelectMany(r => r.Locations)
                    .Where(l => !l.IsImplicit && l.Location.IsInSource && l.Document is not SourceGeneratedDocument)
                    .Select(l => (l.Location.SourceTree!.FilePath, l.Location.SourceSpan.Start)).Distinct().Count().ToString(CultureInfo.InvariantCulture)),
            ("hierarchy of " + typeName,
                async () => (await host.InvokeAsync<TypeHierarchyResult>(ProtocolMethods.TypeHierarchy, new TypeHierarchyParams { Workspace = workspace, Target = solution, Name = typeName, Project = projectName, Tool = "bench" })).DerivedTypes.Total.ToString(CultureInfo.InvariantCulture),
                async () => (await SymbolFinder.FindDerivedClassesAsync(await TypeAsync(), loaded, transitive: true)).Select(t => t.ToDisplayString()).Distinct().Count().ToString(CultureInfo.InvariantCulture)),
            ($"diagnostics of project {project.Name}",
                async () => (await host.InvokeAsync<DiagnosticsResult>(ProtocolMethods.Diagnostics, new DiagnosticsParams { Workspace = workspace, Target = solution, Project = project.FilePath is { } file ? relative(file) : projectName, Tool = "bench" })).Total.ToString(CultureInfo.InvariantCulture),
                async () =>
                {
                    Compilation compilation = (await project.GetCompilationAsync())!;
                    ImmutableArray<DiagnosticAnalyzer> analyzers = [.. project.AnalyzerReferences.Where(r => trust.IsTrusted(r.FullPath)).SelectMany(r => r.GetAnalyzers(project.Language))];
                    ImmutableArray<Diagnostic> all = analyzers.IsEmpty ? compilation.GetDiagnostics() : await compilation.WithAnalyzers(analyzers, project.AnalyzerOptions).GetAllDiagnosticsAsync();
                    return all.Where(d => !d.IsSuppressed && d.Location.IsInSource && d.Severity >= DiagnosticSeverity.Warning)
                        .Select(d => (d.Location.GetLineSpan().ToString(), d.Id, d.GetMessage(CultureInfo.InvariantCulture))).Distinct().Count().ToString(CultureInfo.InvariantCulture);
                }),
        ];

        foreach ((string measure, Func<Task<string>> hostQuery, Func<Task<string>> directQuery) in cases)
        {
            string ours = string.Empty;
            string theirs = string.Empty;
            for (int i = 0; i < 2; i++)
            {
                ours = await hostQuery();
                theirs = await directQuery();
            }

            BenchRow row = new(measure, [], []);
            for (int i = 0; i < iterations; i++)
            {
                for (int side = 0; side < 2; side++)
                {
                    long started = Stopwatch.GetTimestamp();
                    if ((side == 0) == (i % 2 == 0))
                    {
                        ours = await hostQuery();
                        row.Ours.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                    }
                    else
                    {
                        theirs = await directQuery();
                        row.Baseline.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                    }
                }
            }

            row.Extra["answer"] = ours;
            row.Extra["same_answer"] = ours == theirs;
            rows.Add(row);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {measure}: host {BenchReport.Percentile(row.Ours, 0.5):0.00} / {BenchReport.Percentile(row.Ours, 0.95):0.00} ms, direct {BenchReport.Percentile(row.Baseline, 0.5):0.00} / {BenchReport.Percentile(row.Baseline, 0.95):0.00} ms, answer {ours}{(ours == theirs ? string.Empty : " != direct " + theirs)}"));
        }

        string written = await BenchReport.WriteAsync(resultsDirectory, benchName, rows, new Dictionary<string, JsonNode?>
        {
            ["solution"] = $"{Path.GetFileName(solution)} ({projects} projects)",
            ["iterations"] = iterations,
            ["runs"] = runs,
        });
        Console.WriteLine($"Wrote {written}");
        return 0;
    }
}
