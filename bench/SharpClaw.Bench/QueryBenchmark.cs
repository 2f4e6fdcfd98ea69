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
        const string Describe = "Lib025.Type05.Describe(int)";

        List<(string Measure, List<double> Host, List<double> Direct, int Tokens)> rows = [];
        async Task Row<T>(string measure, Func<Task<T>> query)
            where T : notnull
        {
            (List<double> times, T last) = await Measure(iterations, query);
            rows.Add((measure, times, [], CompactSize.Tokens(last)));
        }

        string documentPath = "src/Lib025/Type05.cs";
        await using (LoadBenchmark.InProcessHost host = await LoadBenchmark.InProcessHost.StartAsync())
        {
            Console.WriteLine("Host: cold load + warm-up (not counted)...");
            await host.InspectAsync(workspace, solution);
            SymbolResolveParams resolve = new() { Workspace = workspace, Target = solution, Name = Resolve, Tool = "bench" };
            FindReferencesParams references = new() { Workspace = workspace, Target = solution, Name = References, Tool = "bench" };
            TypeHierarchyParams hierarchy = new() { Workspace = workspace, Target = solution, Name = Hierarchy, Tool = "bench" };
            DiagnosticsParams diagnostics = new() { Workspace = workspace, Target = solution, Project = DiagnosticsProject, Tool = "bench" };
            NavigateParams Navigate(string action, string name) => new() { Workspace = workspace, Target = solution, Action = action, Name = name, Tool = "bench" };
            Task<NavigateResult> Nav(NavigateParams parameters) => host.InvokeAsync<NavigateResult>(ProtocolMethods.Navigate, parameters);

            await Row("symbolResolve", () => host.InvokeAsync<SymbolResolveResult>(ProtocolMethods.SymbolResolve, resolve));
            await Row("findReferences (limit 50)", () => host.InvokeAsync<FindReferencesResult>(ProtocolMethods.FindReferences, references));
            await Row("typeHierarchy", () => host.InvokeAsync<TypeHierarchyResult>(ProtocolMethods.TypeHierarchy, hierarchy));
            await Row($"diagnostics (project {DiagnosticsProject})", () => host.InvokeAsync<DiagnosticsResult>(ProtocolMethods.Diagnostics, diagnostics));
            await Row("navigate definition", () => Nav(Navigate("definition", Resolve)));
            await Row("navigate references (limit 50)", () => Nav(Navigate("references", References)));
            await Row("navigate callers (limit 50)", () => Nav(Navigate("callers", References)));
            await Row("navigate callees", () => Nav(Navigate("callees", Resolve)));
            await Row("navigate hover", () => Nav(Navigate("hover", Describe)));
            await Row("navigate impact", () => Nav(Navigate("impact", References)));
            await Row("symbols, document", () => host.InvokeAsync<SymbolsResult>(ProtocolMethods.Symbols, new SymbolsParams { Workspace = workspace, Target = solution, Path = documentPath, Tool = "bench" }));
            await Row("symbols, workspace query (limit 50)", () => host.InvokeAsync<SymbolsResult>(ProtocolMethods.Symbols, new SymbolsParams { Workspace = workspace, Target = solution, Query = "Describe", Tool = "bench" }));
            await Row("diagnostics (one file)", () => host.InvokeAsync<DiagnosticsResult>(ProtocolMethods.Diagnostics, diagnostics with { Project = null, Path = documentPath }));
            BulkNavigateParams bulk = new()
            {
                Workspace = workspace,
                Target = solution,
                Tool = "bench",
                Queries =
                [
                    new BulkNavigateQuery { Action = "definition", Name = Resolve },
                    new BulkNavigateQuery { Action = "hover", Name = Describe },
                    new BulkNavigateQuery { Action = "callees", Name = Resolve },
                    new BulkNavigateQuery { Action = "references", Name = References },
                ],
            };
            await Row("bulk_navigate (definition, hover, callees, references)", () => host.InvokeAsync<BulkNavigateResult>(ProtocolMethods.BulkNavigate, bulk));
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
            async Task<IMethodSymbol> ComputeAsync(string project, string type) =>
                (await TypeAsync(project, type)).GetMembers("Compute").OfType<IMethodSymbol>().Single(m => m.Parameters.Length == 1);
            async Task Direct<T>(int row, Func<Task<T>> query) => rows[row].Direct.AddRange((await Measure(iterations, query)).Times);

            await Direct(0, () => ComputeAsync("Lib025", "Lib025.Type05"));
            await Direct(1, async () => (await SymbolFinder.FindReferencesAsync(await ComputeAsync("Lib000", "Lib000.Type00"), loaded)).SelectMany(r => r.Locations).Count());
            await Direct(2, async () => (await SymbolFinder.FindDerivedClassesAsync(await TypeAsync("Lib010", "Lib010.Type03"), loaded, transitive: true)).Count());
            await Direct(3, async () =>
            {
                Project project = loaded.Projects.Single(p => p.Name == DiagnosticsProject);
                Compilation compilation = (await project.GetCompilationAsync())!;
                ImmutableArray<DiagnosticAnalyzer> analyzers = [.. project.AnalyzerReferences.SelectMany(r => r.GetAnalyzers(project.Language))];
                return analyzers.IsEmpty
                    ? compilation.GetDiagnostics().Length
                    : (await compilation.WithAnalyzers(analyzers, project.AnalyzerOptions).GetAllDiagnosticsAsync()).Length;
            });
            await Direct(4, async () => (await ComputeAsync("Lib025", "Lib025.Type05")).Locations.Length);
            await Direct(5, async () => (await SymbolFinder.FindReferencesAsync(await ComputeAsync("Lib000", "Lib000.Type00"), loaded)).SelectMany(r => r.Locations).Count());
            await Direct(6, async () => (await SymbolFinder.FindCallersAsync(await ComputeAsync("Lib000", "Lib000.Type00"), loaded)).Count());
            await Direct(7, async () =>
            {
                IMethodSymbol method = await ComputeAsync("Lib025", "Lib025.Type05");
                SyntaxReference reference = method.DeclaringSyntaxReferences[0];
                SemanticModel model = (await loaded.GetDocument(reference.SyntaxTree)!.GetSemanticModelAsync())!;
                return (await reference.GetSyntaxAsync()).DescendantNodes().OfType<Microsoft.CodeAnalysis.CSharp.Syntax.InvocationExpressionSyntax>().Count(i => model.GetSymbolInfo(i).Symbol is not null);
            });
            await Direct(8, async () =>
            {
                ISymbol describe = (await TypeAsync("Lib025", "Lib025.Type05")).GetMembers("Describe").Single();
                return describe.ToDisplayString() + describe.GetDocumentationCommentXml();
            });
            await Direct(9, async () =>
            {
                IMethodSymbol compute = await ComputeAsync("Lib000", "Lib000.Type00");
                int references = (await SymbolFinder.FindReferencesAsync(compute, loaded)).SelectMany(r => r.Locations).Count();
                return references + (await SymbolFinder.FindCallersAsync(compute, loaded)).Count() + (await SymbolFinder.FindImplementationsAsync(compute, loaded)).Count();
            });
            await Direct(10, async () =>
            {
                Document document = loaded.Projects.Single(p => p.Name == "Lib025").Documents.Single(d => d.FilePath!.EndsWith("Type05.cs", StringComparison.Ordinal));
                SemanticModel model = (await document.GetSemanticModelAsync())!;
                return (await document.GetSyntaxRootAsync())!.DescendantNodes().OfType<Microsoft.CodeAnalysis.CSharp.Syntax.MemberDeclarationSyntax>().Count(m => model.GetDeclaredSymbol(m) is not null);
            });
            await Direct(11, async () => (await SymbolFinder.FindSourceDeclarationsWithPatternAsync(loaded, "Describe")).Count());
            await Direct(12, async () =>
            {
                Document document = loaded.Projects.Single(p => p.Name == "Lib025").Documents.Single(d => d.FilePath!.EndsWith("Type05.cs", StringComparison.Ordinal));
                return (await document.GetSemanticModelAsync())!.GetDiagnostics().Length;
            });
            await Direct(13, async () =>
            {
                IMethodSymbol resolve = await ComputeAsync("Lib025", "Lib025.Type05");
                ISymbol describe = (await TypeAsync("Lib025", "Lib025.Type05")).GetMembers("Describe").Single();
                int references = (await SymbolFinder.FindReferencesAsync(await ComputeAsync("Lib000", "Lib000.Type00"), loaded)).SelectMany(r => r.Locations).Count();
                return resolve.Locations.Length + describe.ToDisplayString().Length + references;
            });
        }

        StringBuilder report = new();
        report.AppendLine(CultureInfo.InvariantCulture, $"# Read-tool warm latency ({Path.GetFileName(solution)}, {iterations} iterations each)");
        report.AppendLine();
        report.AppendLine("| Query | host p50 | host p95 | direct Roslyn p50 | direct Roslyn p95 | answer tokens |");
        report.AppendLine("| --- | ---: | ---: | ---: | ---: | ---: |");
        foreach ((string measure, List<double> hostTimes, List<double> directTimes, int tokens) in rows)
        {
            report.AppendLine(CultureInfo.InvariantCulture, $"| {measure} | {P(hostTimes, 0.5):0.0} ms | {P(hostTimes, 0.95):0.0} ms | {P(directTimes, 0.5):0.0} ms | {P(directTimes, 0.95):0.0} ms | {tokens} |");
        }

        report.AppendLine();
        report.AppendLine("Direct: resolve/definition = GetTypeByMetadataName + GetMembers; references = SymbolFinder.FindReferencesAsync; hierarchy = FindDerivedClassesAsync; diagnostics = GetAllDiagnosticsAsync with the project's analyzers (whole project); callers = FindCallersAsync; callees = invocations of the body bound by the semantic model; hover = ToDisplayString + documentation XML; impact = references + callers + implementations; document symbols = GetDeclaredSymbol per member declaration; workspace symbols = FindSourceDeclarationsWithPatternAsync; one file diagnostics = the document's semantic model diagnostics; bulk = definition + hover + references called one after another.");
        report.AppendLine("Answer tokens: characters of the compact text an agent receives with default limits (estimated by the bench in the tools' formats), divided by 4.");
        Console.WriteLine(report.ToString());
        Directory.CreateDirectory(resultsDirectory);
        string file = Path.Combine(resultsDirectory, "queries-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + ".md");
        await File.WriteAllTextAsync(file, report.ToString());
        Console.WriteLine($"Wrote {file}");
        return 0;
    }

    private static async Task<(List<double> Times, T Last)> Measure<T>(int iterations, Func<Task<T>> query)
    {
        T last = default!;
        for (int i = 0; i < 3; i++)
        {
            last = await query(); // warm-up
        }

        List<double> times = [];
        for (int i = 0; i < iterations; i++)
        {
            long started = Stopwatch.GetTimestamp();
            last = await query();
            times.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        }

        return (times, last);
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
