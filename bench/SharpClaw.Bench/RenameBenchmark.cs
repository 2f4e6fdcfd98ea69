using System.Diagnostics;
using System.Globalization;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;
using Microsoft.CodeAnalysis.Rename;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;

namespace SharpClaw.Bench;

/// <summary>
/// Rename of a symbol referenced from every project (Lib000.Type00.Compute): the host's preview (Roslyn
/// rename + validation of every affected compilation + proposal) and apply (authorization round trip, lock,
/// checked writes, journal, source refresh, receipt diagnostics), against <c>Renamer.RenameSymbolAsync</c>
/// called directly on a loaded, compiled MSBuildWorkspace solution in the same run. Each run renames there
/// and back, so every measured rename starts from the same text.
/// </summary>
internal static class RenameBenchmark
{
    public static async Task<int> RunAsync(string solution, int runs, string resultsDirectory)
    {
        solution = Path.GetFullPath(solution);
        string workspace = Path.GetDirectoryName(solution)!;

        // Every project of the synthetic layout calls the renamed method directly (they all reference Lib000
        // transitively), so the rename touches one file per project plus the declaration.
        foreach (string folder in Directory.EnumerateDirectories(Path.Combine(workspace, "src")).Where(f => !f.EndsWith("Lib000", StringComparison.Ordinal)))
        {
            string name = Path.GetFileName(folder);
            await File.WriteAllTextAsync(Path.Combine(folder, "RenameUse.cs"), $"namespace {name};\n\npublic static class RenameUse\n{{\n    public static int Call() => global::Lib000.Type00.Compute(1);\n}}\n");
        }

        Console.WriteLine($"Provisioning: dotnet restore {solution} (not timed)");
        using (Process restore = Process.Start(new ProcessStartInfo("dotnet", ["restore", solution, "-nologo", "-v:q"]) { WorkingDirectory = workspace })!)
        {
            await restore.WaitForExitAsync();
        }

        List<double> preview = [];
        List<double> apply = [];
        int files = 0;
        await using (LoadBenchmark.InProcessHost host = await LoadBenchmark.InProcessHost.StartAsync())
        {
            Console.WriteLine("Host: cold load (not counted)...");
            await host.InspectAsync(workspace, solution);
            string current = "Compute";
            for (int run = 0; run < runs + 1; run++)
            {
                // Forth and back: Compute -> Calculate -> Compute; the first pair warms up.
                foreach (string next in new[] { "Calculate", "Compute" })
                {
                    EditParams parameters = new() { Workspace = workspace, Target = solution, Action = "rename", Name = $"Lib000.Type00.{current}(int)", NewName = next, Tool = "bench" };
                    long started = Stopwatch.GetTimestamp();
                    EditResult proposal = await host.InvokeAsync<EditResult>(ProtocolMethods.Edit, parameters);
                    double previewMs = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
                    started = Stopwatch.GetTimestamp();
                    EditResult applied = await host.InvokeAsync<EditResult>(
                        ProtocolMethods.Edit,
                        new EditParams { Workspace = workspace, Target = solution, Action = "rename", ProposalId = proposal.ProposalId, Apply = true, Tool = "bench" });
                    double applyMs = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
                    if (!applied.Refreshed)
                    {
                        throw new InvalidOperationException($"The host did not refresh after the rename ({applied.Kind}, {applied.Operations.Count} operation(s)).");
                    }

                    files = applied.Operations.Count;
                    if (run > 0)
                    {
                        preview.Add(previewMs);
                        apply.Add(applyMs);
                    }

                    current = next;
                }
            }
        }

        List<double> direct = [];
        Console.WriteLine("Direct: load + compile (not counted)...");
        using (MSBuildWorkspace msbuild = MSBuildWorkspace.Create(new Dictionary<string, string> { ["Configuration"] = "Debug" }))
        {
            Solution loaded = await msbuild.OpenSolutionAsync(solution);
            foreach (Project project in loaded.Projects)
            {
                _ = await project.GetCompilationAsync();
            }

            INamedTypeSymbol type = (await loaded.Projects.Single(p => p.Name == "Lib000").GetCompilationAsync())!.GetTypeByMetadataName("Lib000.Type00")!;
            ISymbol compute = type.GetMembers("Compute").Single();
            for (int run = 0; run < (runs * 2) + 2; run++)
            {
                long started = Stopwatch.GetTimestamp();
                Solution renamed = await Renamer.RenameSymbolAsync(loaded, compute, new SymbolRenameOptions(), "Calculate");
                _ = renamed.GetChanges(loaded).GetProjectChanges().SelectMany(p => p.GetChangedDocuments()).Count();
                if (run >= 2)
                {
                    direct.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                }
            }
        }

        StringBuilder report = new();
        report.AppendLine(CultureInfo.InvariantCulture, $"# Rename of Lib000.Type00.Compute(int) ({Path.GetFileName(solution)}, {files} files changed, {preview.Count} renames)");
        report.AppendLine();
        report.AppendLine("| Measure | median | max |");
        report.AppendLine("| --- | ---: | ---: |");
        report.AppendLine(CultureInfo.InvariantCulture, $"| host preview (rename + validation + proposal) | {Median(preview):0} ms | {preview.Max():0} ms |");
        report.AppendLine(CultureInfo.InvariantCulture, $"| host apply (authorize, lock, checked writes, refresh, receipt diagnostics) | {Median(apply):0} ms | {apply.Max():0} ms |");
        report.AppendLine(CultureInfo.InvariantCulture, $"| direct Renamer.RenameSymbolAsync (no validation, no writes) | {Median(direct):0} ms | {direct.Max():0} ms |");
        report.AppendLine();
        report.AppendLine(CultureInfo.InvariantCulture, $"Preview / direct: {Median(preview) / Median(direct):0.0}x (the difference is the error comparison of every affected compilation, before and after, and the binding check).");
        Console.WriteLine(report.ToString());
        Directory.CreateDirectory(resultsDirectory);
        string file = Path.Combine(resultsDirectory, "rename-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture) + ".md");
        await File.WriteAllTextAsync(file, report.ToString());
        Console.WriteLine($"Wrote {file}");
        return 0;
    }

    private static double Median(List<double> values)
    {
        List<double> sorted = [.. values.Order()];
        return sorted.Count == 0 ? double.NaN : sorted[sorted.Count / 2];
    }
}
