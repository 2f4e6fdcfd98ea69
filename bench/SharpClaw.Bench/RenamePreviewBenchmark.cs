using System.Diagnostics;
using System.Globalization;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;
using Microsoft.CodeAnalysis.Rename;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;

namespace SharpClaw.Bench;

/// <summary>
/// <c>rename-preview</c>: the host's rename preview of Core.Worker01.Add on the multi-targeted synthetic
/// (<see cref="MultiTargetSynthetic"/>; the method is declared in a five-framework core and called from both
/// adapters) beside the direct baseline issue 39 sets, in the same process, interleaved: on a loaded
/// MSBuildWorkspace of the same solution, <c>Renamer.RenameSymbolAsync</c> (Roslyn renames every flavour of the
/// linked files) plus <c>GetDiagnostics</c> of every changed document in every flavour. Each iteration first
/// edits an unrelated core file on both sides (a comment appended), so each pays for a new snapshot as after an
/// agent's edit, and nothing is reused from an earlier preview. "Same answer": the host previews the same set of
/// files the direct rename changes, and neither finds an error.
/// </summary>
internal static class RenamePreviewBenchmark
{
    public static async Task<int> RunAsync(string solution, MultiTargetSynthetic.Plan plan, int iterations, string resultsDirectory, string benchName)
    {
        string EditedFile = plan.RenameEditedFile;
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
        List<DocumentId> editedIds = [.. direct.Projects.SelectMany(p => p.Documents).Where(d => d.FilePath == editedPath).Select(d => d.Id)];
        int edits = 0;

        async Task<List<string>> HostAsync()
        {
            EditResult preview = await host.InvokeAsync<EditResult>(ProtocolMethods.Edit, new EditParams { Workspace = workspace, Target = solution, Action = "rename", Name = "Core.Worker01.Add(int)", NewName = "AddOne", Tool = "bench" });
            if (preview.Kind != EditResultKind.Preview || preview.CannotApply is not null)
            {
                throw new InvalidOperationException($"The host did not preview the rename ({preview.Kind}: {preview.CannotApply}).");
            }

            return [.. preview.Operations.Select(o => o.Path).Order(StringComparer.Ordinal)];
        }

        async Task<(List<string> Files, int Errors)> DirectAsync()
        {
            Project core = direct.Projects.OrderBy(p => p.Name, StringComparer.Ordinal).First(p => p.Name.StartsWith("Core(", StringComparison.Ordinal));
            ISymbol symbol = (await core.GetCompilationAsync())!.GetTypeByMetadataName("Core.Worker01")!.GetMembers("Add").Single();
            Solution after = await Renamer.RenameSymbolAsync(direct, symbol, new SymbolRenameOptions(), "AddOne");
            HashSet<string> files = new(StringComparer.Ordinal);
            int errors = 0;
            foreach (ProjectChanges project in after.GetChanges(direct).GetProjectChanges())
            {
                foreach (DocumentId id in project.GetChangedDocuments(onlyGetDocumentsWithTextChanges: true))
                {
                    Document document = after.GetDocument(id)!;
                    files.Add(Path.GetRelativePath(workspace, document.FilePath!).Replace('\\', '/'));
                    SemanticModel model = (await document.GetSemanticModelAsync())!;
                    errors += model.GetDiagnostics().Count(d => d.Severity == DiagnosticSeverity.Error);
                }
            }

            return ([.. files.Order(StringComparer.Ordinal)], errors);
        }

        async Task EditBothAsync()
        {
            string text = original + $"// edit {++edits}\n";
            await File.WriteAllTextAsync(editedPath, text);
            foreach (DocumentId id in editedIds)
            {
                direct = direct.WithDocumentText(id, SourceText.From(text));
            }
        }

        BenchRow row = new(plan.RenameMeasure + " — vs direct Renamer.RenameSymbolAsync + GetDiagnostics of the changed documents", [], []);
        List<string> ours = [];
        (List<string> Files, int Errors) truth = ([], 0);
        try
        {
            // Warm-up: each side twice (JIT, the first compilations of every flavour).
            for (int i = 0; i < 2; i++)
            {
                await EditBothAsync();
                _ = await HostAsync();
                _ = await DirectAsync();
            }

            for (int i = 0; i < iterations; i++)
            {
                await EditBothAsync();
                for (int turn = 0; turn < 2; turn++)
                {
                    long started = Stopwatch.GetTimestamp();
                    if ((i + turn) % 2 == 0)
                    {
                        ours = await HostAsync();
                        row.Ours.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                    }
                    else
                    {
                        truth = await DirectAsync();
                        row.Baseline.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                    }
                }
            }
        }
        finally
        {
            await File.WriteAllTextAsync(editedPath, original);
        }

        bool same = ours.SequenceEqual(truth.Files, StringComparer.Ordinal) && truth.Errors == 0;
        double p50 = BenchReport.Percentile(row.Ours, 0.5);
        double baseline50 = BenchReport.Percentile(row.Baseline, 0.5);
        row.Extra["answer"] = $"{ours.Count} files";
        row.Extra["same_answer"] = same;
        row.Extra["goal"] = "<= 1.5x baseline";
        row.Extra["meets_goal"] = p50 <= 1.5 * baseline50;
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  rename preview: host {p50:0} ms, direct {baseline50:0} ms (x{p50 / baseline50:0.00}); host [{string.Join(", ", ours)}], direct [{string.Join(", ", truth.Files)}], {truth.Errors} direct error(s): {(same ? "same answer" : "DIFFERENT")}"));
        Dictionary<string, JsonNode?> facts = new()
        {
            ["solution"] = $"synthetic multi-targeted: {inspected.Projects.Count} projects ({plan.Description}); rename Core.Worker01.Add to AddOne",
            ["iterations"] = iterations,
            ["method"] = "host preview (JSON-RPC, resolve, Roslyn rename, binding check, error comparison of every affected flavour, proposal) and the direct baseline interleaved in one process, the order alternating; each iteration first appends a comment to an unrelated core file on both sides",
            ["direct"] = "Renamer.RenameSymbolAsync on an MSBuildWorkspace of the same solution, then SemanticModel.GetDiagnostics of every changed document in every flavour",
            ["all_same_answer"] = same,
        };
        string file = await BenchReport.WriteAsync(resultsDirectory, benchName, [row], facts);
        Console.WriteLine($"Wrote {file}");
        return same ? 0 : 1;
    }
}
