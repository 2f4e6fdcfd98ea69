using System.Globalization;

namespace SharpClaw.Bench;

/// <summary>
/// <c>generate --projects 50 --files 20 --out /tmp/synth</c> writes a synthetic solution;
/// <c>load [--solution X.slnx | --projects 50 --files 20] [--runs 3] [--refreshes 10] [--results DIR]</c>
/// benchmarks loading it; <c>queries [...] [--iterations 30] [--name queries-50]</c> measures warm read-tool latency (p50/p95) against direct Roslyn calls
/// interleaved in the same process (writes bench/results/NAME.json);
/// <c>rename [...] [--runs 5]</c> measures rename preview and apply against <c>Renamer.RenameSymbolAsync</c> called directly;
/// <c>fingerprint [...] [--iterations 200]</c> measures one context fingerprint check. Results go to bench/results/ (git-ignored) unless --results says otherwise.
/// </summary>
internal static class Program
{
    private static async Task<int> Main(string[] args)
    {
        if (args.Length == 0 || args[0] is "-h" or "--help")
        {
            Console.WriteLine("""
                SharpClaw.Bench
                  generate --projects 50 --files 20 --out /tmp/synth
                  load [--solution /tmp/synth/Synth.slnx | --projects 50 --files 20 --out /tmp/synth] [--runs 3] [--refreshes 10] [--results bench/results]
                  queries [--projects 50 --files 20 --out /tmp/synth] [--iterations 30] [--results bench/results] [--name queries-50]
                  real --solution X.sln --type Ns.Type --project Name [--runs 2] [--iterations 10] [--name real]
                  sizes [--sizes 10,50,200] [--files 20] [--iterations 10] [--name sizes]
                  rename [--solution /tmp/synth/Synth.slnx | --projects 50 --files 20 --out /tmp/synth] [--runs 5] [--results bench/results]
                  warm [--solution /tmp/synth/Synth.slnx | --projects 50 --files 20 --out /tmp/synth] [--runs 3] [--restarts 3] [--name warm-restart-50]
                  generate-multi [--shape multi|real12] [--files 24] [--out /tmp/synth-multi]   (multi: Core with 5 frameworks + 2 adapters; real12: 12 projects, Core with 8 frameworks and --files workers, 5 adapters with 2-5, 4 test projects, 2 apps)
                  diagnostics [--solution X.slnx | --shape multi|real12 --files 24 --out /tmp/synth-multi] [--iterations 10] [--name diagnostics-multi]   (one multi-targeted project's diagnostics vs CompilationWithAnalyzers and compiler-only)
                  rename-preview [--solution X.slnx | --shape multi|real12 --files 24 --out /tmp/synth-multi] [--iterations 10]   (rename preview vs direct Renamer + GetDiagnostics of the changed documents, interleaved)
                  rename-trace [--solution X.slnx | --shape multi|real12 --files 24 --out /tmp/synth-multi] [--runs 3]   (where a rename preview's time goes, step by step)
                  queries --shape real12 [--files 200] [--iterations 30] [--name queries-real12]   (the query rows on the real-shaped multi-targeted synthetic)
                  fingerprint [--solution /tmp/synth/Synth.slnx | --projects 50 --files 20 --out /tmp/synth] [--iterations 200]
                  heap --side host|direct --solution X.slnx   (GC heap after load and after compiling, this side alone in this process)
                  load-compare --solution X.slnx [--processes N]   (parallel design-time load vs MSBuildWorkspace: time and every difference; exit 1 when they differ)
                  probe [--solution X.slnx | --projects 50 --files 20 --out /tmp/synth] [--iterations 100] [--name Symbol | breakdown | navigate:ACTION:Symbol]
                  direct-callers --solution X.slnx --type Ns.Type --member Name   (stdin: one line per question)
                  hierarchy-check --solution X.slnx --types 'Ns.IFoo;Ns.Base<T>'  (host subtypes vs a direct Roslyn union over every flavour, generators run; exit 1 on a difference the generator caveat does not name)
                """);
            return args.Length == 0 ? 2 : 0;
        }

        Dictionary<string, string> options = new(StringComparer.Ordinal);
        for (int i = 1; i + 1 < args.Length; i += 2)
        {
            options[args[i].TrimStart('-')] = args[i + 1];
        }

        int projects = Int(options, "projects", 50);
        int files = Int(options, "files", 20);
        string output = options.GetValueOrDefault("out") ?? Path.Combine(Path.GetTempPath(), "sharpclaw-synth");
        switch (args[0])
        {
            case "generate":
                Console.WriteLine(SyntheticSolution.Generate(output, projects, files));
                return 0;
            case "load":
                string solution = options.GetValueOrDefault("solution") ?? SyntheticSolution.Generate(output, projects, files);
                string results = options.GetValueOrDefault("results") ?? Path.Combine(FindRepositoryRoot(), "bench", "results");
                return await LoadBenchmark.RunAsync(solution, Int(options, "runs", 3), Int(options, "refreshes", 10), results, options.GetValueOrDefault("name") ?? "load");
            case "warm":
                return await WarmRestartBenchmark.RunAsync(
                    options.GetValueOrDefault("solution") ?? SyntheticSolution.Generate(output, projects, files),
                    Int(options, "runs", 3),
                    Int(options, "restarts", 3),
                    options.GetValueOrDefault("results") ?? Path.Combine(FindRepositoryRoot(), "bench", "results"),
                    options.GetValueOrDefault("name") ?? "warm-restart-50");
            case "real":
                return await RealBenchmark.RunAsync(
                    options["solution"],
                    options["type"],
                    options["project"],
                    Int(options, "runs", 2),
                    Int(options, "iterations", 10),
                    options.GetValueOrDefault("results") ?? Path.Combine(FindRepositoryRoot(), "bench", "results"),
                    options.GetValueOrDefault("name") ?? "real");
            case "sizes":
                return await SizesBenchmark.RunAsync(
                    [.. (options.GetValueOrDefault("sizes") ?? "10,50,200").Split(',').Select(v => int.Parse(v, CultureInfo.InvariantCulture))],
                    files,
                    Int(options, "iterations", 10),
                    options.GetValueOrDefault("results") ?? Path.Combine(FindRepositoryRoot(), "bench", "results"),
                    options.GetValueOrDefault("name") ?? "sizes");
            case "generate-multi":
                Console.WriteLine(MultiTargetSynthetic.Generate(MultiOutput(options), Shape(options), Int(options, "files", 24)));
                return 0;
            case "queries" when options.ContainsKey("shape"):
                MultiTargetSynthetic.Plan queryPlan = MultiTargetSynthetic.PlanFor(Shape(options), Int(options, "files", 24));
                return await QueryBenchmark.RunAsync(
                    MultiSolution(options),
                    queryPlan.Queries ?? throw new ArgumentException($"The {queryPlan.Shape} shape has no query targets; the query bench runs on real12 or the --projects synthetics."),
                    Int(options, "iterations", 30),
                    options.GetValueOrDefault("results") ?? Path.Combine(FindRepositoryRoot(), "bench", "results"),
                    options.GetValueOrDefault("name") ?? $"queries-{queryPlan.Shape}");
            case "queries":
                string querySolution = options.GetValueOrDefault("solution") ?? SyntheticSolution.Generate(output, projects, files);
                string queryResults = options.GetValueOrDefault("results") ?? Path.Combine(FindRepositoryRoot(), "bench", "results");
                return await QueryBenchmark.RunAsync(
                    querySolution,
                    SyntheticSolution.NamesFor(projects, files).Targets,
                    Int(options, "iterations", 30),
                    queryResults,
                    options.GetValueOrDefault("name") ?? string.Create(CultureInfo.InvariantCulture, $"queries-{projects}"));
            case "heap":
                return await HeapProbe.RunAsync(options["side"], options["solution"], Int(options, "wait", 0));
            case "load-compare":
                return await LoadCompare.RunAsync(options["solution"], Int(options, "processes", 0));
            case "probe":
                return await Probe.RunAsync(options.GetValueOrDefault("solution") ?? SyntheticSolution.Generate(output, projects, files), Int(options, "iterations", 100), options.GetValueOrDefault("name"));
            case "rename":
                string renameSolution = options.GetValueOrDefault("solution") ?? SyntheticSolution.Generate(output, projects, files);
                string renameResults = options.GetValueOrDefault("results") ?? Path.Combine(FindRepositoryRoot(), "bench", "results");
                return await RenameBenchmark.RunAsync(renameSolution, Int(options, "runs", 5), renameResults);
            case "diagnostics":
                return await DiagnosticsBenchmark.RunAsync(
                    MultiSolution(options),
                    MultiTargetSynthetic.PlanFor(Shape(options), Int(options, "files", 24)),
                    Int(options, "iterations", 10),
                    options.GetValueOrDefault("results") ?? Path.Combine(FindRepositoryRoot(), "bench", "results"),
                    options.GetValueOrDefault("name") ?? "diagnostics-multi");
            case "rename-preview":
                return await RenamePreviewBenchmark.RunAsync(
                    MultiSolution(options),
                    MultiTargetSynthetic.PlanFor(Shape(options), Int(options, "files", 24)),
                    Int(options, "iterations", 10),
                    options.GetValueOrDefault("results") ?? Path.Combine(FindRepositoryRoot(), "bench", "results"),
                    options.GetValueOrDefault("name") ?? "rename-preview");
            case "rename-trace":
                return await RenameTrace.RunAsync(
                    MultiSolution(options),
                    Int(options, "runs", 3));
            case "direct-callers":
                return await DirectCallersServer.RunAsync(options["solution"], options["type"], options["member"]);
            case "hierarchy-check":
                return await HierarchyCheck.RunAsync(options["solution"], options["types"].Split(';'));
            case "fingerprint":
                string fingerprintSolution = options.GetValueOrDefault("solution") ?? SyntheticSolution.Generate(output, projects, files);
                return FingerprintBenchmark.Run(fingerprintSolution, Int(options, "iterations", 200));
            default:
                Console.Error.WriteLine($"Unknown command '{args[0]}'.");
                return 2;
        }
    }

    /// <summary>--shape: "multi" (the small three-project multi-targeted synthetic, the default) or "real12" (MultiTargetSynthetic.GenerateRealShaped).</summary>
    private static string Shape(Dictionary<string, string> options) => options.GetValueOrDefault("shape") ?? "multi";

    /// <summary>--solution, or the multi-targeted synthetic of --shape and --files generated (restored) in --out.</summary>
    private static string MultiSolution(Dictionary<string, string> options) =>
        options.GetValueOrDefault("solution") ?? MultiTargetSynthetic.Generate(MultiOutput(options), Shape(options), Int(options, "files", 24));

    private static string MultiOutput(Dictionary<string, string> options) =>
        options.GetValueOrDefault("out") ?? Path.Combine(Path.GetTempPath(), Shape(options) == "multi" ? "sharpclaw-synth-multi" : "sharpclaw-synth-" + Shape(options));

    private static int Int(Dictionary<string, string> options, string name, int fallback) =>
        options.TryGetValue(name, out string? value) ? int.Parse(value, CultureInfo.InvariantCulture) : fallback;

    private static string FindRepositoryRoot()
    {
        for (DirectoryInfo? directory = new(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (Directory.Exists(Path.Combine(directory.FullName, "bench")) && Directory.Exists(Path.Combine(directory.FullName, "server")))
            {
                return directory.FullName;
            }
        }

        return Directory.GetCurrentDirectory();
    }
}
