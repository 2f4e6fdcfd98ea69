using System.Diagnostics;
using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.MSBuild;
using Microsoft.CodeAnalysis.Rename;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Edits;

namespace SharpClaw.Bench;

/// <summary>
/// <c>rename-trace</c>: where the time of a rename preview goes on a multi-targeted solution
/// (<see cref="MultiTargetSynthetic"/>: Core.Worker01.Add, called from one file per adapter flavour set). The
/// host's whole preview is timed through the in-memory host; then the steps the preview takes
/// (RenameService.PlanAsync) are replayed one by one on an MSBuildWorkspace of the same solution with the same
/// public calls — Roslyn's rename, the linked-copy share, the plan diff, the reference searches of the binding
/// check, the after compilations, the error comparison — each timed, so the trace names the expensive step; then
/// the error comparison again on a fresh rename, split (8a-8c: the after compilations, the scope of every
/// unchanged tree, the diagnostics of each scope kind), with the count of trees per scope kind.
/// </summary>
internal static class RenameTrace
{
    public static async Task<int> RunAsync(string solution, int runs)
    {
        solution = Path.GetFullPath(solution);
        string workspace = Path.GetDirectoryName(solution)!;
        using (Process restore = Process.Start(new ProcessStartInfo("dotnet", ["restore", solution, "-nologo", "-v:q"]) { WorkingDirectory = workspace })!)
        {
            await restore.WaitForExitAsync();
        }

        List<double> hostPreview = [];
        await using (LoadBenchmark.InProcessHost host = await LoadBenchmark.InProcessHost.StartAsync())
        {
            await host.InspectAsync(workspace, solution);
            for (int run = 0; run < runs + 1; run++)
            {
                long started = Stopwatch.GetTimestamp();
                EditResult proposal = await host.InvokeAsync<EditResult>(ProtocolMethods.Edit, new EditParams { Workspace = workspace, Target = solution, Action = "rename", Name = "Core.Worker01.Add(int)", NewName = "AddOne", Tool = "bench" });
                double ms = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"host preview {run}: {ms:0} ms, {proposal.Operations.Count} file(s)"));
                if (run > 0)
                {
                    hostPreview.Add(ms);
                }
            }
        }

        using MSBuildWorkspace msbuild = MSBuildWorkspace.Create(new Dictionary<string, string> { ["Configuration"] = "Debug" });
        Solution before = await msbuild.OpenSolutionAsync(solution);
        foreach (Project project in before.Projects)
        {
            _ = await project.GetCompilationAsync();
        }

        Dictionary<string, List<double>> steps = [];
        void Add(string step, long started) => (steps.TryGetValue(step, out List<double>? list) ? list : steps[step] = []).Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        Project core = before.Projects.OrderBy(p => p.Name, StringComparer.Ordinal).First(p => p.Name.StartsWith("Core(", StringComparison.Ordinal));
        ISymbol symbol = (await core.GetCompilationAsync())!.GetTypeByMetadataName("Core.Worker01")!.GetMembers("Add").Single();
        for (int run = 0; run < runs + 1; run++)
        {
            long all = Stopwatch.GetTimestamp();
            long t = Stopwatch.GetTimestamp();
            Solution after = await Renamer.RenameSymbolAsync(before, symbol, new SymbolRenameOptions(), "AddOne");
            Add("1 Renamer.RenameSymbolAsync", t);
            t = Stopwatch.GetTimestamp();
            after = await SolutionDiff.ShareWithLinkedCopiesAsync(before, after, CancellationToken.None);
            Add("2 SolutionDiff.ShareWithLinkedCopiesAsync", t);
            t = Stopwatch.GetTimestamp();
            EditPlan plan = await SolutionDiff.PlanAsync(before, after, workspace, "rename", "trace", CancellationToken.None);
            Add("3 SolutionDiff.PlanAsync (diff, excerpts)", t);
            t = Stopwatch.GetTimestamp();
            HashSet<string> referenceFiles = [.. (await SymbolFinder.FindReferencesAsync(symbol, before)).SelectMany(r => r.Locations).Select(l => l.Location.SourceTree?.FilePath).OfType<string>()];
            Add("4 FindReferencesAsync on before (count + reference files)", t);
            t = Stopwatch.GetTimestamp();
            SolutionChanges changes = after.GetChanges(before);
            HashSet<ProjectId> affected = [];
            foreach (ProjectChanges project in changes.GetProjectChanges())
            {
                affected.Add(project.ProjectId);
                affected.UnionWith(before.GetProjectDependencyGraph().GetProjectsThatTransitivelyDependOnThisProject(project.ProjectId));
            }

            foreach (ProjectId id in affected)
            {
                _ = await after.GetProject(id)!.GetCompilationAsync();
            }

            Add(string.Create(CultureInfo.InvariantCulture, $"5 after compilations of the {affected.Count} affected Roslyn projects (every flavour)"), t);
            t = Stopwatch.GetTimestamp();
            Document declaration = after.GetDocument(before.GetDocument(symbol.Locations[0].SourceTree)!.Id)!;
            ISymbol? renamed = await SymbolFinder.FindSymbolAtPositionAsync(declaration, (await declaration.GetSyntaxRootAsync())!.ToFullString().IndexOf("AddOne(", StringComparison.Ordinal));
            if (renamed is not null)
            {
                _ = await SymbolFinder.FindReferencesAsync(renamed, after);
            }

            Add("6 FindReferencesAsync on after (binding check)", t);
            t = Stopwatch.GetTimestamp();
            IReadOnlyList<NewError> errors = await EditValidator.FindNewErrorsAsync(before, after, workspace, CancellationToken.None, new RenameBindingScope(symbol, new HashSet<string>(StringComparer.Ordinal) { "Add", "AddOne" }, referenceFiles).Of);
            Add("7 EditValidator.FindNewErrorsAsync (new errors where they can arise, every affected flavour)", t);
            Add("total of the steps", all);

            // Step 7 again on a fresh rename, split into its phases: where the error comparison's time goes.
            Solution fresh = await SolutionDiff.ShareWithLinkedCopiesAsync(before, await Renamer.RenameSymbolAsync(before, symbol, new SymbolRenameOptions(), "AddOne"), CancellationToken.None);
            RenameBindingScope binding = new(symbol, new HashSet<string>(StringComparer.Ordinal) { "Add", "AddOne" }, referenceFiles);
            HashSet<string> changedPaths = [.. fresh.GetChanges(before).GetProjectChanges().SelectMany(p => p.GetChangedDocuments(onlyGetDocumentsWithTextChanges: true)).Select(id => fresh.GetDocument(id)!.FilePath!)];
            Dictionary<string, int> kinds = [];
            List<(Compilation Compilation, SyntaxTree Tree, TreeScope Scope)> scoped = [];
            t = Stopwatch.GetTimestamp();
            List<Compilation> compilations = [];
            foreach (ProjectId id in affected)
            {
                compilations.Add((await fresh.GetProject(id)!.GetCompilationAsync())!);
            }

            Add("8a (step 7 split) after compilations", t);
            t = Stopwatch.GetTimestamp();
            foreach (Compilation compilation in compilations)
            {
                foreach (SyntaxTree tree in compilation.SyntaxTrees)
                {
                    TreeScope scope = changedPaths.Contains(tree.FilePath) || fresh.GetDocumentId(tree) is null ? TreeScope.Full : binding.Of(tree, compilation, CancellationToken.None);
                    string kind = scope.Nothing ? "none" : scope.Whole ? "full" : scope.Members.IsEmpty ? "declarations" : "members";
                    kinds[kind] = kinds.GetValueOrDefault(kind) + 1;
                    scoped.Add((compilation, tree, scope));
                }
            }

            Add("8b (step 7 split) RenameBindingScope.Of of every unchanged tree", t);
            foreach (string kind in new[] { "full", "members", "declarations" })
            {
                t = Stopwatch.GetTimestamp();
                foreach ((Compilation compilation, SyntaxTree tree, TreeScope scope) in scoped)
                {
                    string k = scope.Nothing ? "none" : scope.Whole ? "full" : scope.Members.IsEmpty ? "declarations" : "members";
                    if (k == kind)
                    {
                        _ = scope.Diagnostics(compilation, tree, CancellationToken.None).Count();
                    }
                }

                Add($"8c (step 7 split) diagnostics of the trees scoped {kind}", t);
            }

            Console.WriteLine("scopes: " + string.Join(", ", kinds.OrderBy(k => k.Key, StringComparer.Ordinal).Select(k => $"{k.Key} {k.Value}")));
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"direct steps {run}: {plan.Files.Count} file(s), {errors.Count} new error(s), {affected.Count} affected"));
            if (run == 0)
            {
                steps.Clear(); // the first run warms up
            }
        }

        Console.WriteLine();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| Step (rename Core.Worker01.Add, {runs} runs) | median |"));
        Console.WriteLine("| --- | ---: |");
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| host preview, whole (JSON-RPC, lease, resolve, rename, validation, proposal) | {BenchReport.Percentile(hostPreview, 0.5):0} ms |"));
        foreach ((string step, List<double> values) in steps.OrderBy(s => s.Key, StringComparer.Ordinal))
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {step} | {BenchReport.Percentile(values, 0.5):0} ms |"));
        }

        return 0;
    }
}
