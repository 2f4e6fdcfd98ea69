using System.Collections.Immutable;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.MSBuild;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Bench;

/// <summary>
/// <c>diagnostics</c> of one multi-targeted project (<see cref="MultiTargetSynthetic"/>'s Core, five
/// frameworks) through the in-memory host, beside two direct Roslyn baselines on an MSBuildWorkspace of the
/// same solution in the same process: a fresh <see cref="CompilationWithAnalyzers"/> over the same (SDK)
/// analyzers the host keeps and the same flavour the host answers from (<c>GetAllDiagnosticsAsync</c>), and
/// the compiler alone (<c>Compilation.GetDiagnostics</c>). Each iteration first edits one file (a comment
/// appended: the host sees it on disk, the direct side through <c>WithDocumentText</c>), so every side pays
/// for a new compilation snapshot, as an agent does after each edit; a "repeated" row asks again unchanged.
/// The sides run interleaved, the order rotating. "same_answer" compares every listed diagnostic (path,
/// line, column, id, severity) with the direct analyzer answer filtered to the same severity.
/// </summary>
internal static class DiagnosticsBenchmark
{
    public static async Task<int> RunAsync(string solution, MultiTargetSynthetic.Plan plan, int iterations, string resultsDirectory, string benchName)
    {
        string Project = plan.DiagnosticsProject;
        string EditedFile = plan.DiagnosticsEditedFile;
        solution = Path.GetFullPath(solution);
        string workspace = Path.GetDirectoryName(solution)!;
        Console.WriteLine($"Provisioning: dotnet restore {solution} (not timed)");
        using (Process restore = Process.Start(new ProcessStartInfo("dotnet", ["restore", solution, "-nologo", "-v:q"]) { WorkingDirectory = workspace })!)
        {
            await restore.WaitForExitAsync();
        }

        string editedPath = Path.Combine(workspace, EditedFile);
        string original = await File.ReadAllTextAsync(editedPath);
        await using LoadBenchmark.InProcessHost host = await LoadBenchmark.InProcessHost.StartAsync();
        Console.WriteLine("Host: cold load (not counted)...");
        SolutionInspectResult inspected = await host.InspectAsync(workspace, solution);
        Console.WriteLine("Direct: load (not counted)...");
        using MSBuildWorkspace msbuild = MSBuildWorkspace.Create(new Dictionary<string, string> { ["Configuration"] = "Debug" });
        Solution direct = await msbuild.OpenSolutionAsync(solution);
        AnalyzerTrust trust = AnalyzerTrust.FromInstalledSdks();

        DiagnosticsParams Ask(string severity) => new() { Workspace = workspace, Target = solution, Project = Project, Severity = severity, Limit = 200, Tool = "bench" };
        DiagnosticsResult first = await host.InvokeAsync<DiagnosticsResult>(ProtocolMethods.Diagnostics, Ask("warning"));
        string framework = first.Projects.Single().TargetFramework ?? throw new InvalidOperationException("The host named no framework for Core.");
        ProjectId flavour = direct.Projects.Single(p => p.Name == $"{Project}({framework})").Id;
        DocumentId editedId = direct.GetProject(flavour)!.Documents.Single(d => d.FilePath == editedPath).Id;
        Console.WriteLine($"Answering flavour: {framework} (of {direct.Projects.Count(p => p.Name.StartsWith(Project + "(", StringComparison.Ordinal))} flavours of {Project})");

        int edits = 0;
        async Task EditHostAsync() => await File.WriteAllTextAsync(editedPath, original + $"// edit {++edits}\n");
        void EditDirect() => direct = direct.WithDocumentText(editedId, SourceText.From(original + $"// edit {++edits}\n"));

        static string Key(string path, int line, int character, string id, string severity) =>
            string.Create(CultureInfo.InvariantCulture, $"{path}:{line}:{character} {id} {severity}");
        static string Severity(DiagnosticSeverity severity) => severity switch
        {
            DiagnosticSeverity.Error => "error",
            DiagnosticSeverity.Warning => "warning",
            DiagnosticSeverity.Info => "information",
            _ => "hint",
        };

        List<string> Listed(IEnumerable<Diagnostic> diagnostics, DiagnosticSeverity minimum) => [.. diagnostics
            .Where(d => !d.IsSuppressed && d.Location.IsInSource && d.Severity >= minimum
                && d.Location.SourceTree!.FilePath.StartsWith(workspace, StringComparison.Ordinal) && !d.Location.SourceTree.FilePath.Contains("/obj/", StringComparison.Ordinal))
            .Select(d =>
            {
                FileLinePositionSpan span = d.Location.GetLineSpan();
                return Key(Path.GetRelativePath(workspace, span.Path).Replace('\\', '/'), span.StartLinePosition.Line + 1, span.StartLinePosition.Character + 1, d.Id, Severity(d.Severity));
            })
            .Distinct().Order(StringComparer.Ordinal)];

        async Task<List<string>> HostAsync(string severity)
        {
            DiagnosticsResult result = await host.InvokeAsync<DiagnosticsResult>(ProtocolMethods.Diagnostics, Ask(severity));
            if (result.Truncated)
            {
                throw new InvalidOperationException($"More than one page of diagnostics ({result.Total}): the bench compares whole answers.");
            }

            return [.. result.Diagnostics!.Select(d => Key(d.Path, d.Line, d.Character, d.Id, d.Severity)).Order(StringComparer.Ordinal)];
        }

        async Task<List<string>> AnalyzersAsync(DiagnosticSeverity minimum)
        {
            Project project = direct.GetProject(flavour)!;
            Compilation compilation = (await project.GetCompilationAsync())!;
            ImmutableArray<DiagnosticAnalyzer> analyzers = [.. project.AnalyzerReferences.Where(r => trust.IsTrusted(r.FullPath)).SelectMany(r => r.GetAnalyzers(project.Language))];
            return Listed(analyzers.IsEmpty ? compilation.GetDiagnostics() : await compilation.WithAnalyzers(analyzers, project.AnalyzerOptions).GetAllDiagnosticsAsync(), minimum);
        }

        async Task<List<string>> CompilerAsync(DiagnosticSeverity minimum)
        {
            Compilation compilation = (await direct.GetProject(flavour)!.GetCompilationAsync())!;
            return Listed(compilation.GetDiagnostics(), minimum);
        }

        (string Measure, string Severity, DiagnosticSeverity Minimum, bool Edit)[] cases =
        [
            ($"diagnostics of one project ({Project}, {plan.DiagnosticsFrameworks} frameworks), warning and above, after an edit", "warning", DiagnosticSeverity.Warning, true),
            ($"diagnostics of one project ({Project}, {plan.DiagnosticsFrameworks} frameworks), errors only, after an edit", "error", DiagnosticSeverity.Error, true),
            ($"diagnostics of one project ({Project}, {plan.DiagnosticsFrameworks} frameworks), warning and above, asked again unchanged", "warning", DiagnosticSeverity.Warning, false),
        ];

        List<BenchRow> rows = [];
        bool allSame = true;
        try
        {
            foreach ((string measure, string severity, DiagnosticSeverity minimum, bool edit) in cases)
            {
                // Warm-up: each side answers twice (JIT, analyzer assembly loading, the first compile of the flavour).
                for (int i = 0; i < 2; i++)
                {
                    _ = await HostAsync(severity);
                    _ = await AnalyzersAsync(minimum);
                    _ = await CompilerAsync(minimum);
                }

                _ = LoadBenchmark.HeapAfterFullGc();
                BenchRow analyzersRow = new(measure + " — vs direct CompilationWithAnalyzers", [], []);
                BenchRow compilerRow = new(measure + " — vs compiler-only GetDiagnostics", [], []);
                List<string> ours = [];
                List<string> truth = [];
                for (int i = 0; i < iterations; i++)
                {
                    for (int turn = 0; turn < 3; turn++)
                    {
                        switch ((i + turn) % 3)
                        {
                            case 0:
                                if (edit)
                                {
                                    await EditHostAsync();
                                }

                                long started = Stopwatch.GetTimestamp();
                                ours = await HostAsync(severity);
                                analyzersRow.Ours.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                                break;
                            case 1:
                                if (edit)
                                {
                                    EditDirect();
                                }

                                started = Stopwatch.GetTimestamp();
                                truth = await AnalyzersAsync(minimum);
                                analyzersRow.Baseline.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                                break;
                            default:
                                if (edit)
                                {
                                    EditDirect();
                                }

                                started = Stopwatch.GetTimestamp();
                                _ = await CompilerAsync(minimum);
                                compilerRow.Baseline.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                                break;
                        }
                    }
                }

                compilerRow.Ours.AddRange(analyzersRow.Ours);
                bool same = ours.SequenceEqual(truth, StringComparer.Ordinal);
                allSame &= same;
                if (!same)
                {
                    Console.WriteLine($"  DIFFERENT: host only [{string.Join("; ", ours.Except(truth).Take(5))}], direct only [{string.Join("; ", truth.Except(ours).Take(5))}]");
                }

                double p50 = BenchReport.Percentile(analyzersRow.Ours, 0.5);
                double analyzers50 = BenchReport.Percentile(analyzersRow.Baseline, 0.5);
                double compiler50 = BenchReport.Percentile(compilerRow.Baseline, 0.5);
                analyzersRow.Extra["answer"] = ours.Count.ToString(CultureInfo.InvariantCulture);
                analyzersRow.Extra["same_answer"] = same;
                analyzersRow.Extra["goal"] = "<= 1.5x baseline + 2 ms";
                analyzersRow.Extra["meets_goal"] = p50 <= (1.5 * analyzers50) + 2;
                compilerRow.Extra["answer"] = ours.Count.ToString(CultureInfo.InvariantCulture);
                compilerRow.Extra["same_answer"] = same;
                compilerRow.Extra["goal"] = "<= 3x baseline";
                compilerRow.Extra["meets_goal"] = p50 <= 3 * compiler50;
                rows.Add(analyzersRow);
                rows.Add(compilerRow);
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"  {measure}: host {p50:0.0} ms, direct analyzers {analyzers50:0.0} ms (x{p50 / analyzers50:0.00}), compiler only {compiler50:0.0} ms (x{p50 / compiler50:0.00}); {ours.Count} listed, {(same ? "same answer" : "DIFFERENT")}"));
            }
        }
        finally
        {
            await File.WriteAllTextAsync(editedPath, original);
        }

        await TraceAsync(direct.GetProject(flavour)!, trust);
        Dictionary<string, JsonNode?> facts = new()
        {
            ["solution"] = $"synthetic multi-targeted: {inspected.Projects.Count} projects ({plan.Description}), host answers from {Project}({framework})",
            ["iterations"] = iterations,
            ["method"] = "host, direct CompilationWithAnalyzers and direct compiler-only interleaved in one process, the order rotating; 'after an edit': each side first changes one file (a new compilation snapshot)",
            ["direct"] = "CompilationWithAnalyzers.GetAllDiagnosticsAsync over the SDK analyzers the host keeps, on the flavour the host answers from, filtered to the asked severity; compiler-only = Compilation.GetDiagnostics of the same flavour",
            ["all_same_answer"] = allSame,
        };
        string file = await BenchReport.WriteAsync(resultsDirectory, benchName, rows, facts);
        Console.WriteLine($"Wrote {file}");
        return allSame ? 0 : 1;
    }

    /// <summary>
    /// A short trace of where a warm answer's time can go, on the direct side's flavour (not timed as a row): the
    /// compiler's diagnostics, the whole-compilation analyzer pass, and turning every diagnostic found (every
    /// severity, as the host does before it filters) into a located, formatted item, beside formatting only the
    /// diagnostics at warning and above.
    /// </summary>
    private static async Task TraceAsync(Project project, AnalyzerTrust trust)
    {
        Compilation compilation = (await project.GetCompilationAsync())!;
        ImmutableArray<DiagnosticAnalyzer> analyzers = [.. project.AnalyzerReferences.Where(r => trust.IsTrusted(r.FullPath)).SelectMany(r => r.GetAnalyzers(project.Language))];
        long started = Stopwatch.GetTimestamp();
        ImmutableArray<Diagnostic> compiler = compilation.GetDiagnostics();
        double compilerMs = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        started = Stopwatch.GetTimestamp();
        ImmutableArray<Diagnostic> all = await compilation.WithAnalyzers(analyzers, project.AnalyzerOptions).GetAllDiagnosticsAsync();
        double analyzersMs = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        double Format(IEnumerable<Diagnostic> diagnostics)
        {
            long at = Stopwatch.GetTimestamp();
            int length = 0;
            foreach (Diagnostic diagnostic in diagnostics)
            {
                if (!diagnostic.IsSuppressed && diagnostic.Location.IsInSource)
                {
                    length += diagnostic.Location.GetLineSpan().StartLinePosition.Line + diagnostic.GetMessage(CultureInfo.InvariantCulture).Length;
                }
            }

            return Stopwatch.GetElapsedTime(at).TotalMilliseconds + (length < 0 ? 1 : 0);
        }

        List<double> every = [];
        List<double> atWarning = [];
        for (int i = 0; i < 5; i++)
        {
            every.Add(Format(all));
            atWarning.Add(Format(all.Where(d => d.Severity >= DiagnosticSeverity.Warning)));
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  trace ({project.Name}, {project.DocumentIds.Count} documents, {analyzers.Length} kept analyzers): compiler diagnostics {compilerMs:0} ms ({compiler.Length} found), compiler + every kept analyzer {analyzersMs:0} ms ({all.Length} found, {all.Count(d => d.Severity >= DiagnosticSeverity.Warning)} at warning or above); locating and formatting every diagnostic found {BenchReport.Percentile(every, 0.5):0.0} ms, only those at warning or above {BenchReport.Percentile(atWarning, 0.5):0.0} ms"));
    }
}
