using System.Collections.Immutable;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.MSBuild;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Bench;

/// <summary>
/// Warm latency (p50/p95) of the read tools through the in-memory host (JSON-RPC round trip, cache acquire
/// with its fingerprint check, selector resolution, paging) beside the direct Roslyn call answering the same
/// question on an MSBuildWorkspace holding the same solution in the same process. The two sides run
/// interleaved, one query each in turn (the order alternating), so a busy shared machine slows both alike
/// and the ratio stays meaningful. Each row also compares the answers (a count or a location each side
/// computes independently) and reports <c>same_answer</c>.
/// </summary>
internal static class QueryBenchmark
{
    /// <summary>
    /// What the query rows ask: a method (one int parameter) to resolve, hover and list callees of, and the type
    /// declaring it (with a Describe(int)); a method referenced across projects (references, callers, impact); a
    /// type whose derived classes are listed; the project of the one-project diagnostics row; the document of the
    /// one-file rows (in the resolve project); the solution's description given its project count.
    /// </summary>
    public sealed record Targets(
        string ResolveProject,
        string ResolveType,
        string ResolveMember,
        string ReferencesProject,
        string ReferencesType,
        string ReferencesMember,
        string HierarchyProject,
        string HierarchyType,
        string DiagnosticsProject,
        string DocumentPath,
        Func<int, string> Describe);

    private static readonly string[] ImpactOrder = ["references", "callers", "implementations"];

    private sealed record Case(string Measure, Func<Task<object>> Host, Func<object, string> HostAnswer, Func<Task<string>> Direct);

    public static async Task<int> RunAsync(string solution, Targets names, int iterations, string resultsDirectory, string benchName)
    {
        (List<BenchRow> rows, bool allSame, string description) = await MeasureAsync(solution, names, iterations, include: null);
        Dictionary<string, JsonNode?> facts = new()
        {
            ["solution"] = description,
            ["iterations"] = iterations,
            ["method"] = "host and direct Roslyn interleaved one query at a time (order alternating) in one process; warm: each side answered twice before timing",
            ["direct"] = "resolve/definition = GetTypeByMetadataName + GetMembers; references = SymbolFinder.FindReferencesAsync; hierarchy = FindDerivedClassesAsync (transitive) from every flavour of the declaring project, united; diagnostics = compiler + the same (SDK) analyzers the host keeps, a fresh CompilationWithAnalyzers per call; callers = FindCallersAsync; callees = invocations bound by the semantic model; hover = ToDisplayString + documentation XML; impact = references + callers + implementations; document symbols = GetDeclaredSymbol per member; workspace symbols = FindSourceDeclarationsWithPatternAsync; bulk = its four questions one after another; whole-solution diagnostics = one flavour per project (the first listed), as the host answers",
            ["all_same_answer"] = allSame,
        };
        string file = await BenchReport.WriteAsync(resultsDirectory, benchName, rows, facts);
        Console.WriteLine($"Wrote {file}");
        return allSame ? 0 : 1;
    }

    /// <summary>Measures the cases whose measure <paramref name="include"/> accepts (all when null).</summary>
    public static async Task<(List<BenchRow> Rows, bool AllSame, string Description)> MeasureAsync(string solution, Targets names, int iterations, Func<string, bool>? include)
    {
        solution = Path.GetFullPath(solution);
        string workspace = Path.GetDirectoryName(solution)!;
        Console.WriteLine($"Provisioning: dotnet restore {solution} (not timed)");
        using (Process restore = Process.Start(new ProcessStartInfo("dotnet", ["restore", solution, "-nologo", "-v:q"]) { WorkingDirectory = workspace })!)
        {
            await restore.WaitForExitAsync();
        }

        string mid = names.ResolveProject;
        string resolveName = $"{names.ResolveType}.{names.ResolveMember}(int)";
        string referencesName = $"{names.ReferencesType}.{names.ReferencesMember}(int)";
        string hierarchyName = names.HierarchyType;
        string describeName = $"{names.ResolveType}.Describe(int)";
        string documentPath = names.DocumentPath;
        string documentFile = "/" + Path.GetFileName(documentPath);

        await using LoadBenchmark.InProcessHost host = await LoadBenchmark.InProcessHost.StartAsync();
        Console.WriteLine("Host: cold load (not counted)...");
        SolutionInspectResult inspected = await host.InspectAsync(workspace, solution);
        Console.WriteLine("Direct: load (not counted)...");
        using MSBuildWorkspace direct = MSBuildWorkspace.Create(new Dictionary<string, string> { ["Configuration"] = "Debug" });
        Solution loaded = await direct.OpenSolutionAsync(solution);
        AnalyzerTrust trust = AnalyzerTrust.FromInstalledSdks();

        Project ProjectNamed(string name) =>
            loaded.Projects.Where(p => p.Name == name || p.Name.StartsWith(name + "(", StringComparison.Ordinal)).OrderBy(p => p.Name, StringComparer.Ordinal).First();
        async Task<INamedTypeSymbol> TypeAsync(string project, string metadataName) =>
            (await ProjectNamed(project).GetCompilationAsync())!.GetTypeByMetadataName(metadataName)!;
        async Task<IMethodSymbol> MethodAsync(string project, string type, string name) =>
            (await TypeAsync(project, type)).GetMembers(name).OfType<IMethodSymbol>().Single(m => m.Parameters.Length == 1);
        string Relative(string path) => Path.GetRelativePath(workspace, path).Replace('\\', '/');
        string At(Location location) => $"{Relative(location.GetLineSpan().Path)}:{location.GetLineSpan().StartLinePosition.Line + 1}";
        async Task<int> ReferenceCountAsync(ISymbol symbol) =>
            (await SymbolFinder.FindReferencesAsync(symbol, loaded)).SelectMany(r => r.Locations)
                .Where(l => !l.IsImplicit && l.Location.IsInSource && l.Document is not SourceGeneratedDocument)
                .Select(l => (l.Location.SourceTree!.FilePath, l.Location.SourceSpan.Start)).Distinct().Count();
        async Task<int> CallerCountAsync(ISymbol symbol) =>
            (await SymbolFinder.FindCallersAsync(symbol, loaded)).Where(c => c.Locations.Any(l => l.IsInSource)).Select(c => c.CallingSymbol.ToDisplayString()).Distinct().Count();
        async Task<int> CalleeCountAsync(IMethodSymbol method)
        {
            SyntaxReference reference = method.DeclaringSyntaxReferences[0];
            SemanticModel model = (await loaded.GetDocument(reference.SyntaxTree)!.GetSemanticModelAsync())!;
            return (await reference.GetSyntaxAsync()).DescendantNodes().OfType<InvocationExpressionSyntax>()
                .Select(i => model.GetSymbolInfo(i).Symbol?.OriginalDefinition).OfType<ISymbol>().Distinct(SymbolEqualityComparer.Default).Count();
        }

        // Derived classes over every flavour of the declaring project (a flavour sees only the projects compiled
        // against it: net472 adapters derive from Core(net472), not from Core(net10.0)), as the host answers.
        async Task<int> DerivedAsync(string project, string metadataName)
        {
            HashSet<string> derived = new(StringComparer.Ordinal);
            foreach (Project flavour in loaded.Projects.Where(p => p.Name == project || p.Name.StartsWith(project + "(", StringComparison.Ordinal)))
            {
                if ((await flavour.GetCompilationAsync())!.GetTypeByMetadataName(metadataName) is { } type)
                {
                    derived.UnionWith((await SymbolFinder.FindDerivedClassesAsync(type, loaded, transitive: true)).Select(t => t.ToDisplayString()));
                }
            }

            return derived.Count;
        }

        ImmutableArray<DiagnosticAnalyzer> TrustedAnalyzers(Project project) =>
            [.. project.AnalyzerReferences.Where(r => trust.IsTrusted(r.FullPath)).SelectMany(r => r.GetAnalyzers(project.Language))];
        static int Listed(IEnumerable<Diagnostic> diagnostics, SyntaxTree? only) => diagnostics
            .Where(d => !d.IsSuppressed && d.Location.IsInSource && d.Severity >= DiagnosticSeverity.Warning && (only is null || d.Location.SourceTree == only))
            .Select(d => (d.Location.GetLineSpan().ToString(), d.Id, d.GetMessage(CultureInfo.InvariantCulture))).Distinct().Count();
        async Task<int> ProjectDiagnosticsAsync(string name)
        {
            Project project = ProjectNamed(name);
            Compilation compilation = (await project.GetCompilationAsync())!;
            ImmutableArray<DiagnosticAnalyzer> analyzers = TrustedAnalyzers(project);
            return Listed(analyzers.IsEmpty ? compilation.GetDiagnostics() : await compilation.WithAnalyzers(analyzers, project.AnalyzerOptions).GetAllDiagnosticsAsync(), null);
        }

        async Task<int> FileDiagnosticsAsync(string name, string file)
        {
            Project project = ProjectNamed(name);
            Document document = project.Documents.Single(d => d.FilePath!.EndsWith(file, StringComparison.Ordinal));
            Compilation compilation = (await project.GetCompilationAsync())!;
            SyntaxTree tree = (await document.GetSyntaxTreeAsync())!;
            SemanticModel model = compilation.GetSemanticModel(tree);
            List<Diagnostic> found = [.. model.GetDiagnostics()];
            ImmutableArray<DiagnosticAnalyzer> analyzers = TrustedAnalyzers(project);
            if (!analyzers.IsEmpty)
            {
                CompilationWithAnalyzers withAnalyzers = compilation.WithAnalyzers(analyzers, project.AnalyzerOptions);
                found.AddRange(await withAnalyzers.GetAnalyzerSyntaxDiagnosticsAsync(tree, CancellationToken.None));
                found.AddRange(await withAnalyzers.GetAnalyzerSemanticDiagnosticsAsync(model, null, CancellationToken.None));
            }

            return Listed(found, tree);
        }

        async Task<int> DocumentSymbolCountAsync(string name, string file)
        {
            Document document = ProjectNamed(name).Documents.Single(d => d.FilePath!.EndsWith(file, StringComparison.Ordinal));
            SemanticModel model = (await document.GetSemanticModelAsync())!;
            // A field declaration declares its variables (GetDeclaredSymbol of the declaration itself is null).
            return (await document.GetSyntaxRootAsync())!.DescendantNodes().OfType<MemberDeclarationSyntax>().Sum(m => m switch
            {
                BaseNamespaceDeclarationSyntax => 0,
                BaseFieldDeclarationSyntax field => field.Declaration.Variables.Count(v => model.GetDeclaredSymbol(v) is not null),
                _ => model.GetDeclaredSymbol(m) is null ? 0 : 1,
            });
        }

        NavigateParams Navigate(string action, string name) => new() { Workspace = workspace, Target = solution, Action = action, Name = name, Tool = "bench" };
        async Task<object> Nav(string action, string name) => await host.InvokeAsync<NavigateResult>(ProtocolMethods.Navigate, Navigate(action, name));
        async Task<object> Call<T>(string method, object parameters) => (await host.InvokeAsync<T>(method, parameters))!;
        static string Total(object result) => result switch
        {
            FindReferencesResult r => r.Total.ToString(CultureInfo.InvariantCulture),
            NavigateResult n => n.Total.ToString(CultureInfo.InvariantCulture),
            DiagnosticsResult d => d.Total.ToString(CultureInfo.InvariantCulture),
            SymbolsResult s => s.Total.ToString(CultureInfo.InvariantCulture),
            _ => "?",
        };
        static string FirstLocation(ResolvedSymbol symbol) => $"{symbol.Locations[0].Path}:{symbol.Locations[0].Line}";
        DiagnosticsParams diagnostics = new() { Workspace = workspace, Target = solution, Project = names.DiagnosticsProject, Tool = "bench" };
        BulkNavigateParams bulk = new()
        {
            Workspace = workspace,
            Target = solution,
            Tool = "bench",
            Queries =
            [
                new BulkNavigateQuery { Action = "definition", Name = resolveName },
                new BulkNavigateQuery { Action = "hover", Name = describeName },
                new BulkNavigateQuery { Action = "callees", Name = resolveName },
                new BulkNavigateQuery { Action = "references", Name = referencesName },
            ],
        };

        List<Case> cases =
        [
            new("resolve", () => Call<SymbolResolveResult>(ProtocolMethods.SymbolResolve, new SymbolResolveParams { Workspace = workspace, Target = solution, Name = resolveName, Tool = "bench" }),
                r => FirstLocation(((SymbolResolveResult)r).Symbol),
                async () => At((await MethodAsync(mid, names.ResolveType, names.ResolveMember)).Locations[0])),
            new("references (limit 50)", () => Call<FindReferencesResult>(ProtocolMethods.FindReferences, new FindReferencesParams { Workspace = workspace, Target = solution, Name = referencesName, Tool = "bench" }),
                Total,
                async () => (await ReferenceCountAsync(await MethodAsync(names.ReferencesProject, names.ReferencesType, names.ReferencesMember))).ToString(CultureInfo.InvariantCulture)),
            new("hierarchy", () => Call<TypeHierarchyResult>(ProtocolMethods.TypeHierarchy, new TypeHierarchyParams { Workspace = workspace, Target = solution, Name = hierarchyName, Tool = "bench" }),
                r => ((TypeHierarchyResult)r).DerivedTypes.Total.ToString(CultureInfo.InvariantCulture),
                async () => (await DerivedAsync(names.HierarchyProject, hierarchyName)).ToString(CultureInfo.InvariantCulture)),
            new($"diagnostics, one project ({names.DiagnosticsProject})", () => Call<DiagnosticsResult>(ProtocolMethods.Diagnostics, diagnostics),
                Total,
                async () => (await ProjectDiagnosticsAsync(names.DiagnosticsProject)).ToString(CultureInfo.InvariantCulture)),
            new("diagnostics, one file", () => Call<DiagnosticsResult>(ProtocolMethods.Diagnostics, diagnostics with { Project = null, Path = documentPath }),
                Total,
                async () => (await FileDiagnosticsAsync(mid, documentFile)).ToString(CultureInfo.InvariantCulture)),
            new("navigate definition", () => Nav("definition", resolveName),
                r => $"{((NavigateResult)r).Locations![0].Path}:{((NavigateResult)r).Locations![0].Line}",
                async () => At((await MethodAsync(mid, names.ResolveType, names.ResolveMember)).Locations[0])),
            new("navigate references (limit 50)", () => Nav("references", referencesName),
                Total,
                async () => (await ReferenceCountAsync(await MethodAsync(names.ReferencesProject, names.ReferencesType, names.ReferencesMember))).ToString(CultureInfo.InvariantCulture)),
            new("navigate callers (limit 50)", () => Nav("callers", referencesName),
                Total,
                async () => (await CallerCountAsync(await MethodAsync(names.ReferencesProject, names.ReferencesType, names.ReferencesMember))).ToString(CultureInfo.InvariantCulture)),
            new("navigate callees", () => Nav("callees", resolveName),
                Total,
                async () => (await CalleeCountAsync(await MethodAsync(mid, names.ResolveType, names.ResolveMember))).ToString(CultureInfo.InvariantCulture)),
            new("navigate hover", () => Nav("hover", describeName),
                r => ((NavigateResult)r).Hover!.Contains("Describe", StringComparison.Ordinal) ? "Describe" : "?",
                async () =>
                {
                    ISymbol describe = (await TypeAsync(mid, names.ResolveType)).GetMembers("Describe").Single();
                    return (describe.ToDisplayString() + describe.GetDocumentationCommentXml()).Contains("Describe", StringComparison.Ordinal) ? "Describe" : "!";
                }),
            new("navigate impact (references + callers + implementations)", () => Nav("impact", referencesName),
                // Sections left out to fit the answer budget still give their totals (OmittedToFit), in the sections' order.
                r => string.Join("/", ((NavigateResult)r).Sections!.Select(s => (s.Action, s.Total)).Concat((((NavigateResult)r).OmittedToFit ?? []).Select(o => (o.Action, o.Total)))
                    .OrderBy(s => Array.IndexOf(ImpactOrder, s.Action)).Select(s => s.Total)),
                async () =>
                {
                    IMethodSymbol compute = await MethodAsync(names.ReferencesProject, names.ReferencesType, names.ReferencesMember);
                    int implementations = (await SymbolFinder.FindImplementationsAsync(compute, loaded)).Count();
                    return $"{await ReferenceCountAsync(compute)}/{await CallerCountAsync(compute)}/{implementations}";
                }),
            new("symbols, one document", () => Call<SymbolsResult>(ProtocolMethods.Symbols, new SymbolsParams { Workspace = workspace, Target = solution, Path = documentPath, Tool = "bench" }),
                Total,
                async () => (await DocumentSymbolCountAsync(mid, documentFile)).ToString(CultureInfo.InvariantCulture)),
            new("symbols, workspace query (limit 50)", () => Call<SymbolsResult>(ProtocolMethods.Symbols, new SymbolsParams { Workspace = workspace, Target = solution, Query = "Describe", Tool = "bench" }),
                Total,
                async () => (await SymbolFinder.FindSourceDeclarationsWithPatternAsync(loaded, "Describe")).Select(s => At(s.Locations[0])).Distinct().Count().ToString(CultureInfo.InvariantCulture)),
            new("bulk_navigate (definition, hover, callees, references)", () => Call<BulkNavigateResult>(ProtocolMethods.BulkNavigate, bulk),
                r => string.Join("/", ((BulkNavigateResult)r).Sections.Select(s => s.Result is null ? "error" : s.Action == "definition" ? $"{s.Result.Locations![0].Path}:{s.Result.Locations![0].Line}" : s.Action == "hover" ? "hover" : s.Result.Total.ToString(CultureInfo.InvariantCulture))),
                async () =>
                {
                    IMethodSymbol resolved = await MethodAsync(mid, names.ResolveType, names.ResolveMember);
                    ISymbol describe = (await TypeAsync(mid, names.ResolveType)).GetMembers("Describe").Single();
                    _ = describe.ToDisplayString() + describe.GetDocumentationCommentXml();
                    return $"{At(resolved.Locations[0])}/hover/{await CalleeCountAsync(resolved)}/{await ReferenceCountAsync(await MethodAsync(names.ReferencesProject, names.ReferencesType, names.ReferencesMember))}";
                }),
        ];

        Console.WriteLine("Compiling both sides (not counted)...");
        foreach (Project project in loaded.Projects)
        {
            _ = await project.GetCompilationAsync();
        }

        // Full-solution diagnostics, first call after the load (compilations built, no analyzer has run yet on
        // either side): the host analyzes projects in parallel; the direct baseline is the plain loop over projects.
        BenchRow? whole = null;
        if (include is null)
        {
            long started = Stopwatch.GetTimestamp();
            DiagnosticsResult all = await host.InvokeAsync<DiagnosticsResult>(ProtocolMethods.Diagnostics, new DiagnosticsParams { Workspace = workspace, Target = solution, Tool = "bench" });
            double hostMs = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
            started = Stopwatch.GetTimestamp();
            int directTotal = 0;
            // One flavour per project, the first listed, as the host answers a whole-solution question (each file once).
            foreach (Project project in loaded.Projects.Where(p => p.Language == LanguageNames.CSharp).GroupBy(p => p.FilePath).Select(g => g.First()))
            {
                Compilation compilation = (await project.GetCompilationAsync())!;
                ImmutableArray<DiagnosticAnalyzer> analyzers = TrustedAnalyzers(project);
                directTotal += Listed(analyzers.IsEmpty ? compilation.GetDiagnostics() : await compilation.WithAnalyzers(analyzers, project.AnalyzerOptions).GetAllDiagnosticsAsync(), null);
            }

            double directMs = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
            whole = new BenchRow("diagnostics, whole solution, first call (projects in parallel vs a loop over projects)", [hostMs], [directMs]);
            whole.Extra["answer"] = all.Total.ToString(CultureInfo.InvariantCulture);
            whole.Extra["same_answer"] = all.Total == directTotal || all.Total >= DiagnosticsService.MaxFiles;
            whole.Extra["goal"] = "<= 1.3x";
            whole.Extra["meets_goal"] = hostMs <= 1.3 * directMs;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  whole-solution diagnostics, first call: host {hostMs:0} ms, direct {directMs:0} ms, answer {all.Total} / {directTotal}"));
        }

        // Every question once on both sides before any timing (indexes, semantic models, analyzer results), then
        // a full GC, so no row pays for another row's first call or for the compile's garbage.
        List<Case> measured = [.. cases.Where(c => include is null || include(c.Measure))];
        foreach (Case item in measured)
        {
            _ = await item.Host();
            _ = await item.Direct();
        }

        _ = LoadBenchmark.HeapAfterFullGc();
        List<BenchRow> rows = [];
        bool allSame = true;
        foreach (Case item in measured)
        {
            object hostAnswer = null!;
            string directAnswer = string.Empty;
            for (int i = 0; i < 2; i++)
            {
                hostAnswer = await item.Host(); // warm-up, both sides
                directAnswer = await item.Direct();
            }

            BenchRow row = new(item.Measure, [], []);
            for (int i = 0; i < iterations; i++)
            {
                bool hostFirst = i % 2 == 0;
                for (int side = 0; side < 2; side++)
                {
                    long started = Stopwatch.GetTimestamp();
                    if ((side == 0) == hostFirst)
                    {
                        hostAnswer = await item.Host();
                        row.Ours.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                    }
                    else
                    {
                        directAnswer = await item.Direct();
                        row.Baseline.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                    }
                }
            }

            string ours = item.HostAnswer(hostAnswer);
            bool same = string.Equals(ours, directAnswer, StringComparison.Ordinal);
            allSame &= same;
            double p50 = BenchReport.Percentile(row.Ours, 0.5);
            double p95 = BenchReport.Percentile(row.Ours, 0.95);
            double budget50 = (1.5 * BenchReport.Percentile(row.Baseline, 0.5)) + 2;
            double budget95 = (1.5 * BenchReport.Percentile(row.Baseline, 0.95)) + 2;
            row.Extra["answer"] = ours;
            row.Extra["same_answer"] = same;
            row.Extra["answer_tokens"] = CompactSize.Tokens(hostAnswer);
            row.Extra["goal"] = "<= 1.5x baseline + 2 ms (p50 and p95)";
            row.Extra["meets_goal"] = p50 <= budget50 && p95 <= budget95;
            rows.Add(row);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  {item.Measure,-60} host {p50,7:0.00} / {p95,7:0.00} ms   direct {BenchReport.Percentile(row.Baseline, 0.5),7:0.00} / {BenchReport.Percentile(row.Baseline, 0.95),7:0.00} ms   {(p50 <= budget50 && p95 <= budget95 ? "ok " : "OVER")}  answer {ours}{(same ? string.Empty : $" != direct {directAnswer}")}"));
        }

        if (whole is not null)
        {
            rows.Add(whole);
            allSame &= (bool)whole.Extra["same_answer"]!;
        }

        return (rows, allSame, names.Describe(inspected.Projects.Count));
    }
}
