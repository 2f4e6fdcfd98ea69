using System.Diagnostics;
using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic;
using SharpClaw.Server.Semantic.Contexts;

namespace SharpClaw.Bench;

/// <summary>
/// What holding a solution costs in GC heap, each side in a process of its own (so neither sees the other's
/// garbage or caches): <c>heap --side host|direct --solution X</c> starts the host (or creates the workspace),
/// forces a full compacting GC, loads, measures, compiles every project, measures again, and prints
/// "afterLoad afterCompile" in bytes. Each side counts from before it creates its workspace: the host creates
/// its own during the load, so the direct side's MSBuildWorkspace.Create (Roslyn's MEF host services, about 3 MB)
/// is counted too. <see cref="MeasureAsync"/> runs it for the benches.
/// </summary>
internal static class HeapProbe
{
    /// <param name="side">host or direct.</param>
    /// <param name="solution">The solution.</param>
    /// <param name="waitSeconds">Pause after the load is measured (to take a dotnet-gcdump of this process).</param>
    public static async Task<int> RunAsync(string side, string solution, int waitSeconds = 0)
    {
        solution = Path.GetFullPath(solution);
        string workspace = Path.GetDirectoryName(solution)!;
        long afterLoad;
        long afterCompile;
        if (side == "host")
        {
            await using LoadBenchmark.InProcessHost host = await LoadBenchmark.InProcessHost.StartAsync();
            long before = LoadBenchmark.HeapAfterFullGc();
            await host.InspectAsync(workspace, solution);
            afterLoad = LoadBenchmark.HeapAfterFullGc() - before;
            await PauseAsync(waitSeconds);
            ContextRequest request = SemanticWorkspaceService.CreateRequest(new SolutionInspectParams { Workspace = workspace, Target = solution });
            using ContextLease lease = await host.Cache.AcquireAsync(request, authorizer: null, CancellationToken.None);
            foreach (Project project in lease.Solution.Projects)
            {
                _ = await project.GetCompilationAsync();
            }

            afterCompile = LoadBenchmark.HeapAfterFullGc() - before;
        }
        else
        {
            long before = LoadBenchmark.HeapAfterFullGc();
            using MSBuildWorkspace direct = MSBuildWorkspace.Create(new Dictionary<string, string> { ["Configuration"] = "Debug" });
            Solution loaded = await direct.OpenSolutionAsync(solution);
            afterLoad = LoadBenchmark.HeapAfterFullGc() - before;
            await PauseAsync(waitSeconds);
            foreach (Project project in loaded.Projects)
            {
                _ = await project.GetCompilationAsync();
            }

            afterCompile = LoadBenchmark.HeapAfterFullGc() - before;
            GC.KeepAlive(loaded);
        }

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{afterLoad} {afterCompile}"));
        return 0;
    }

    private static async Task PauseAsync(int seconds)
    {
        if (seconds > 0)
        {
            Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture, $"loaded; pid {Environment.ProcessId}; waiting {seconds} s"));
            await Task.Delay(TimeSpan.FromSeconds(seconds));
        }
    }

    /// <summary>Runs the probe for one side in a new process of this bench.</summary>
    public static async Task<(long AfterLoad, long AfterCompile)> MeasureAsync(string side, string solution)
    {
        ProcessStartInfo start = new("dotnet", [typeof(HeapProbe).Assembly.Location, "heap", "--side", side, "--solution", solution])
        {
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        using Process process = Process.Start(start)!;
        string output = await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        string[] last = output.Trim().Split('\n')[^1].Trim().Split(' ');
        if (process.ExitCode != 0 || last.Length != 2)
        {
            throw new InvalidOperationException($"heap --side {side} failed (exit {process.ExitCode}): {output}");
        }

        return (long.Parse(last[0], CultureInfo.InvariantCulture), long.Parse(last[1], CultureInfo.InvariantCulture));
    }
}
