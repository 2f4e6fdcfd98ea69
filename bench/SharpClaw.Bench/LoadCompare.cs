using System.Diagnostics;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Bench;

/// <summary>
/// <c>load-compare --solution X.slnx</c>: loads a (real) solution with the parallel design-time pass and with
/// Roslyn's MSBuildWorkspace, times both, and lists every difference a consumer could see — project names and
/// order, options, documents, metadata/project/analyzer references, source-generated documents and compiler
/// diagnostics. Exit 1 when they differ or the parallel pass fell back. The same comparison the ParallelLoad
/// tests make on fixtures, for solutions no fixture resembles.
/// </summary>
internal static class LoadCompare
{
    public static async Task<int> RunAsync(string solution, int processes)
    {
        solution = Path.GetFullPath(solution);
        TargetSelection target = new(Path.GetDirectoryName(solution)!, solution, solution.EndsWith("proj", StringComparison.OrdinalIgnoreCase) ? TargetKind.Project : TargetKind.Solution);
        IReadOnlyList<string> projects = target.Kind == TargetKind.Solution ? await SolutionReader.ReadProjectsAsync(solution, CancellationToken.None) : [solution];
        DesignTimeLoadOptions options = processes > 0 ? new DesignTimeLoadOptions(MaxProcesses: processes, MinWeightPerProcess: 0.001) : DesignTimeLoadOptions.Default;
        ProjectLoadTracker tracker = new(null, target.Workspace, target.RelativeTarget, "Debug", null, projects.Count);

        long started = Stopwatch.GetTimestamp();
        WorkspaceLoader.ParallelLoad? parallel = await WorkspaceLoader.TryParallelAsync(target, projects, "Debug", null, tracker, options, collectEvaluation: true, log: null, CancellationToken.None);
        double parallelMs = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        if (parallel is null)
        {
            Console.WriteLine("The parallel pass fell back to MSBuildWorkspace (run with a host log to see why).");
            return 1;
        }

        started = Stopwatch.GetTimestamp();
        using LoadedWorkspace roslyn = await WorkspaceLoader.LoadWithRoslynAsync(target, "Debug", null, new ProjectLoadTracker(null, target.Workspace, target.RelativeTarget, "Debug", null, projects.Count), CancellationToken.None);
        double roslynMs = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        using LoadedWorkspace ours = parallel.Loaded;
        Console.WriteLine($"parallel pass (evaluation included) {parallelMs:0} ms; MSBuildWorkspace {roslynMs:0} ms; {ours.Solution.ProjectIds.Count} vs {roslyn.Solution.ProjectIds.Count} projects");

        List<string> differences = [];
        void Same<T>(string what, T expected, T actual)
        {
            if (EqualityComparer<T>.Default.Equals(expected, actual))
            {
                return;
            }

            if (expected is string a && actual is string b && (a.Contains('|') || a.Contains('\n')))
            {
                // Lists: only the entries one side has and the other lacks.
                char separator = a.Contains('\n') ? '\n' : '|';
                List<string> left = [.. a.Split(separator)];
                List<string> right = [.. b.Split(separator)];
                differences.Add($"{what}: only MSBuildWorkspace [{string.Join("; ", left.Except(right).Take(4))}] | only parallel [{string.Join("; ", right.Except(left).Take(4))}]{(left.Except(right).Any() || right.Except(left).Any() ? string.Empty : " (same entries, another order)")}");
                return;
            }

            differences.Add($"{what}: MSBuildWorkspace {expected} | parallel {actual}");
        }

        Same("project order", string.Join(", ", roslyn.Solution.Projects.Select(p => p.Name)), string.Join(", ", ours.Solution.Projects.Select(p => p.Name)));
        int diagnostics = 0;
        foreach (Project expected in roslyn.Solution.Projects)
        {
            Project? actual = ours.Solution.Projects.FirstOrDefault(p => p.Name == expected.Name);
            if (actual is null)
            {
                differences.Add($"{expected.Name}: missing from the parallel load");
                continue;
            }

            string n = expected.Name;
            Same($"{n} assembly", expected.AssemblyName, actual.AssemblyName);
            Same($"{n} output", expected.OutputFilePath, actual.OutputFilePath);
            Same($"{n} ref output", expected.OutputRefFilePath, actual.OutputRefFilePath);
            Same($"{n} compilation output", expected.CompilationOutputInfo, actual.CompilationOutputInfo);
            Same($"{n} default namespace", expected.DefaultNamespace, actual.DefaultNamespace);
            Same($"{n} parse options equal", true, expected.ParseOptions!.Equals(actual.ParseOptions));
            Same($"{n} compilation options equal", true, Bare(expected).Equals(Bare(actual)));
            Same($"{n} documents", Documents(expected.Documents), Documents(actual.Documents));
            Same($"{n} additional", Documents(expected.AdditionalDocuments), Documents(actual.AdditionalDocuments));
            Same($"{n} editorconfig", Documents(expected.AnalyzerConfigDocuments), Documents(actual.AnalyzerConfigDocuments));
            Same($"{n} metadata references", string.Join("|", expected.MetadataReferences.OfType<PortableExecutableReference>().Select(r => $"{r.FilePath}{string.Join(",", r.Properties.Aliases)}")), string.Join("|", actual.MetadataReferences.OfType<PortableExecutableReference>().Select(r => $"{r.FilePath}{string.Join(",", r.Properties.Aliases)}")));
            Same($"{n} project references", string.Join("|", expected.ProjectReferences.Select(r => roslyn.Solution.GetProject(r.ProjectId)!.Name + string.Join(",", r.Aliases)).Order()), string.Join("|", actual.ProjectReferences.Select(r => ours.Solution.GetProject(r.ProjectId)!.Name + string.Join(",", r.Aliases)).Order()));
            Same($"{n} analyzers", string.Join("|", expected.AnalyzerReferences.Select(a => a.FullPath)), string.Join("|", actual.AnalyzerReferences.Select(a => a.FullPath)));
            Compilation c1 = (await expected.GetCompilationAsync())!;
            Compilation c2 = (await actual.GetCompilationAsync())!;
            List<string> d1 = [.. c1.GetDiagnostics().Select(d => d.ToString()).Order(StringComparer.Ordinal)];
            List<string> d2 = [.. c2.GetDiagnostics().Select(d => d.ToString()).Order(StringComparer.Ordinal)];
            diagnostics += d1.Count;
            Same($"{n} compiler diagnostics ({d1.Count})", string.Join("\n", d1), string.Join("\n", d2));
            Same($"{n} generated documents", string.Join("|", (await expected.GetSourceGeneratedDocumentsAsync()).Select(d => d.HintName).Order()), string.Join("|", (await actual.GetSourceGeneratedDocumentsAsync()).Select(d => d.HintName).Order()));
        }

        Console.WriteLine($"compared {roslyn.Solution.ProjectIds.Count} projects, {roslyn.Solution.Projects.Sum(p => p.DocumentIds.Count)} documents, {diagnostics} compiler diagnostics: {(differences.Count == 0 ? "identical" : $"{differences.Count} difference(s)")}");
        foreach (string difference in differences.Take(30))
        {
            Console.WriteLine("  " + (difference.Length > 600 ? difference[..600] + "..." : difference));
        }

        return differences.Count == 0 ? 0 : 1;
    }

    private static CompilationOptions Bare(Project project) =>
        ((CSharpCompilationOptions)project.CompilationOptions!).WithXmlReferenceResolver(null).WithSourceReferenceResolver(null).WithMetadataReferenceResolver(null).WithStrongNameProvider(null).WithSyntaxTreeOptionsProvider(null);

    /// <summary>
    /// Each document's path and logical path (folders and name). A Link written with "\\" reads "\\" or "/" depending
    /// on MSBuild's FixFilePath, which looks for the folder relative to the process's working directory at
    /// evaluation time — within one MSBuildWorkspace load the first flavour of a project can read one and the
    /// others the other — so the logical path is compared with "/" for both.
    /// </summary>
    private static string Documents(IEnumerable<TextDocument> documents) =>
        string.Join("|", documents.Select(d => $"{d.FilePath}:{string.Join("/", d.Folders.Append(d.Name)).Replace('\\', '/')}"));
}
