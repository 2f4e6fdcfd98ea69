using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.MSBuild;
using Nerdbank.Streams;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Lifecycle;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Hosting;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Evaluation;
using StreamJsonRpc;

namespace SharpClaw.Bench;

/// <summary>
/// Cold load of a solution through the host path (an in-memory HostServer answering
/// <c>sharpclaw/solutionInspect</c>, with the JSON-RPC authorization round trip, the evaluation pass,
/// analyzer filtering and fingerprinting) against a bare <see cref="MSBuildWorkspace.OpenSolutionAsync(string, IProgress{ProjectLoadProgress}, CancellationToken)"/>
/// in the same process, alternating; then source-only refresh time, evaluation strategies and memory.
/// </summary>
internal static class LoadBenchmark
{
    public static async Task<int> RunAsync(string solution, int runs, int refreshes, string resultsDirectory, string benchName)
    {
        solution = Path.GetFullPath(solution);
        string workspace = Path.GetDirectoryName(solution)!;
        Console.WriteLine($"Provisioning: dotnet restore {solution} (not timed)");
        Run("dotnet", workspace, "restore", solution, "-nologo", "-v:q");

        // Warm the disk cache and the SDK (first MSBuild run of a session is slower for both paths).
        Console.WriteLine("Warm-up (not counted)...");
        await DirectLoadAsync(solution);

        List<double> host = [];
        List<double> direct = [];
        int projects = 0;
        for (int run = 1; run <= runs; run++)
        {
            // Alternate the order so neither path always runs on a warmer machine.
            bool hostFirst = run % 2 == 1;
            for (int step = 0; step < 2; step++)
            {
                _ = HeapAfterFullGc(); // Same starting point for both paths: no garbage from the previous run.
                if ((step == 0) == hostFirst)
                {
                    (double ms, int count) = await HostColdLoadAsync(workspace, solution);
                    host.Add(ms);
                    projects = count;
                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  run {run}: host   {ms,8:0} ms ({count} projects)"));
                }
                else
                {
                    double ms = await DirectLoadAsync(solution);
                    direct.Add(ms);
                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  run {run}: direct {ms,8:0} ms"));
                }
            }
        }

        Console.WriteLine("Source-only refresh, GC heap (each side in a process of its own)...");
        (List<double> refreshRequest, List<double> refreshCache) = await RefreshAsync(workspace, solution, refreshes);
        (long heapAfterLoad, long heapAfterCompile) = await HeapProbe.MeasureAsync("host", solution);

        Console.WriteLine("Evaluation strategies...");
        List<double> traversal = [];
        List<double> perProject = [];
        for (int run = 0; run < Math.Max(3, runs); run++)
        {
            traversal.Add(await TraversalEvaluationAsync(workspace, solution));
            perProject.Add(await PerProjectEvaluationAsync(workspace, solution));
        }

        Console.WriteLine("Host process memory (workstation GC, as shipped; then server GC for comparison)...");
        (long rss, long peak, double processLoad) = await HostProcessMemoryAsync(workspace, serverGc: false);
        (long serverRss, long serverPeak, _) = await HostProcessMemoryAsync(workspace, serverGc: true);

        (long directHeapAfterLoad, long directHeapAfterCompile) = await HeapProbe.MeasureAsync("direct", solution);

        double ratio = Median(host) / Median(direct);
        List<BenchRow> rows =
        [
            Timed("cold load: host solutionInspect (authorization round trip, evaluation pass, analyzer filtering, fingerprint) vs direct MSBuildWorkspace.OpenSolutionAsync", host, direct, "<= 0.7x", ratio <= 0.7),
            Timed("source-only refresh: solutionInspect round trip after a .cs edit", refreshRequest, [], "< 100 ms", Median(refreshRequest) < 100),
            Timed("source-only refresh: cache acquire alone (fingerprint check + document swap)", refreshCache, [], null, null),
            Timed("evaluation: one dotnet msbuild traversal for all projects (what the host does) vs -getProperty per project, 2 in parallel", traversal, perProject, null, null),
            Memory("GC heap after load (after a full GC): host context vs direct MSBuildWorkspace", heapAfterLoad, directHeapAfterLoad),
            Memory("GC heap after compiling every project: host context vs direct MSBuildWorkspace", heapAfterCompile, directHeapAfterCompile),
            Memory("host process working set after load (VmRSS): workstation GC (shipped) vs server GC", rss, serverRss, goal: false),
        ];
        rows[^1].Extra["peak_mb"] = peak / 1024 / 1024;
        rows[^1].Extra["server_gc_peak_mb"] = serverPeak / 1024 / 1024;
        rows[^1].Extra["host_load_ms"] = Math.Round(processLoad);

        foreach (BenchRow row in rows)
        {
            Console.WriteLine($"  {row.Measure}: {string.Join(", ", row.Ours.Select(v => v.ToString("0.0", CultureInfo.InvariantCulture)))} | {string.Join(", ", row.Baseline.Select(v => v.ToString("0.0", CultureInfo.InvariantCulture)))}");
        }

        string file = await BenchReport.WriteAsync(resultsDirectory, benchName, rows, new Dictionary<string, JsonNode?>
        {
            ["solution"] = $"{Path.GetFileName(solution)}: {projects} projects",
            ["runs"] = runs,
            ["method"] = "host and direct loads alternate (order swapped each run) in one process after one untimed direct warm-up load; memory rows: megabytes, after a forced compacting full GC",
        });
        Console.WriteLine($"Wrote {file}");
        return 0;
    }

    private static BenchRow Timed(string measure, List<double> ours, List<double> baseline, string? goal, bool? meets)
    {
        BenchRow row = new(measure, ours, baseline);
        if (goal is not null)
        {
            row.Extra["goal"] = goal;
            row.Extra["meets_goal"] = meets;
        }

        return row;
    }

    /// <summary>A memory row: "ours"/"baseline" carry megabytes ({ "mb": n }) instead of timings.</summary>
    private static BenchRow Memory(string measure, long ours, long baseline, bool goal = true)
    {
        BenchRow row = new(measure, [], []);
        double ratio = (double)ours / Math.Max(1, baseline);
        row.Extra["ours"] = new JsonObject { ["mb"] = ours / 1024 / 1024 };
        row.Extra["baseline"] = new JsonObject { ["mb"] = baseline / 1024 / 1024 };
        row.Extra["ratio"] = Math.Round(ratio, 2);
        if (goal)
        {
            row.Extra["goal"] = "<= 1.3x";
            row.Extra["meets_goal"] = ratio <= 1.3;
        }

        return row;
    }

    /// <summary>A fresh in-memory host and client; the cold solutionInspect request is timed end to end.</summary>
    internal static async Task<(double Ms, int Projects)> HostColdLoadAsync(string workspace, string solution)
    {
        await using InProcessHost host = await InProcessHost.StartAsync();
        long started = Stopwatch.GetTimestamp();
        SolutionInspectResult result = await host.InspectAsync(workspace, solution);
        double ms = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        if (result.FromCache || result.LoadStatus != LoadStatus.Complete)
        {
            throw new InvalidOperationException($"Unexpected host result: fromCache={result.FromCache}, {result.LoadStatus}");
        }

        return (ms, result.Projects.Count);
    }

    internal static async Task<double> DirectLoadAsync(string solution)
    {
        long started = Stopwatch.GetTimestamp();
        using MSBuildWorkspace workspace = MSBuildWorkspace.Create(new Dictionary<string, string> { ["Configuration"] = "Debug" });
        Solution loaded = await workspace.OpenSolutionAsync(solution);
        double ms = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        _ = loaded.ProjectIds.Count;
        return ms;
    }

    private static async Task<(List<double> Request, List<double> Cache)> RefreshAsync(string workspace, string solution, int refreshes)
    {
        await using InProcessHost host = await InProcessHost.StartAsync();
        await host.InspectAsync(workspace, solution);

        string file = Directory.EnumerateFiles(Path.Combine(workspace, "src"), "Type00.cs", SearchOption.AllDirectories).Order(StringComparer.Ordinal).Skip(10).First();
        string original = await File.ReadAllTextAsync(file);
        List<double> request = [];
        List<double> cache = [];
        ContextRequest contextRequest = SemanticWorkspaceService.CreateRequest(new SolutionInspectParams { Workspace = workspace, Target = solution });
        try
        {
            for (int i = 0; i < refreshes; i++)
            {
                await File.WriteAllTextAsync(file, original + $"\n// edit {i}\n");
                long started = Stopwatch.GetTimestamp();
                SolutionInspectResult result = await host.InspectAsync(workspace, solution);
                request.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                if (!result.FromCache)
                {
                    throw new InvalidOperationException("A source edit caused a reload.");
                }

                await File.WriteAllTextAsync(file, original + $"\n// edit {i}b\n");
                started = Stopwatch.GetTimestamp();
                using (ContextLease lease = await host.Cache.AcquireAsync(contextRequest, authorizer: null, CancellationToken.None))
                {
                    cache.Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds);
                }
            }
        }
        finally
        {
            await File.WriteAllTextAsync(file, original);
        }

        return (request, cache);
    }

    private static async Task<double> TraversalEvaluationAsync(string workspace, string solution)
    {
        TargetSelection target = new(workspace, solution, TargetKind.Solution);
        IReadOnlyList<string> projects = await SolutionReader.ReadProjectsAsync(solution, CancellationToken.None);
        long started = Stopwatch.GetTimestamp();
        EvaluationSnapshot snapshot = await ProjectEvaluator.EvaluateAsync(target, projects, "Debug", null, CancellationToken.None);
        if (snapshot.Failures.Count > 0 || snapshot.Projects.Count != projects.Count)
        {
            throw new InvalidOperationException("The evaluation pass failed.");
        }

        return Stopwatch.GetElapsedTime(started).TotalMilliseconds;
    }

    private static async Task<double> PerProjectEvaluationAsync(string workspace, string solution)
    {
        IReadOnlyList<string> projects = await SolutionReader.ReadProjectsAsync(solution, CancellationToken.None);
        string output = Path.Combine(Path.GetTempPath(), "sharpclaw-bench-eval-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(output);
        using SemaphoreSlim parallel = new(2);
        long started = Stopwatch.GetTimestamp();
        await Task.WhenAll(projects.Select(async (project, index) =>
        {
            await parallel.WaitAsync();
            try
            {
                ProcessResult result = await DotnetCli.RunAsync(
                    [
                        "msbuild", project, "-nologo", "-nodeReuse:false",
                        "-getProperty:IsTestProject", "-getProperty:TargetFramework", "-getProperty:TargetFrameworks", "-getProperty:OutputType",
                        "-getProperty:ProjectAssetsFile", "-getProperty:MSBuildAllProjects", "-getItem:Compile", "-getItem:ProjectReference", "-getItem:PackageReference",
                        $"-getResultOutputFile:{Path.Combine(output, index.ToString(CultureInfo.InvariantCulture) + ".json")}", "-p:Configuration=Debug",
                    ],
                    workspace,
                    CancellationToken.None);
                if (result.ExitCode != 0)
                {
                    throw new InvalidOperationException(result.Stdout + result.Stderr);
                }
            }
            finally
            {
                parallel.Release();
            }
        }));
        double ms = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        Directory.Delete(output, recursive: true);
        return ms;
    }

    private static async Task<(long Rss, long Peak, double LoadMs)> HostProcessMemoryAsync(string workspace, bool serverGc)
    {
        string serverDll = Path.Combine(AppContext.BaseDirectory, "SharpClaw.Server.dll");
        await using RawLspClient client = RawLspClient.Start(serverDll, serverGc ? new Dictionary<string, string> { ["DOTNET_gcServer"] = "1" } : null);
        await client.RequestAsync(ProtocolMethods.Initialize, new JsonObject { ["processId"] = null, ["capabilities"] = new JsonObject() });
        long started = Stopwatch.GetTimestamp();
        JsonObject response = await client.RequestAsync(ProtocolMethods.SolutionInspect, new JsonObject { ["workspace"] = workspace });
        double ms = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        if (response["error"] is not null)
        {
            throw new InvalidOperationException(response.ToJsonString());
        }

        await Task.Delay(1000);
        (long rss, long peak) = client.Memory();
        return (rss, peak, ms);
    }

    /// <summary>
    /// Live bytes on the GC heap after a full, compacting collection — the large object heap compacted too, and the
    /// fragmentation left subtracted: a process that once parsed a large file keeps free large-object space that
    /// holds nothing.
    /// </summary>
    internal static long HeapAfterFullGc()
    {
        System.Runtime.GCSettings.LargeObjectHeapCompactionMode = System.Runtime.GCLargeObjectHeapCompactionMode.CompactOnce;
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
        System.Runtime.GCSettings.LargeObjectHeapCompactionMode = System.Runtime.GCLargeObjectHeapCompactionMode.CompactOnce;
        GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
        GCMemoryInfo info = GC.GetGCMemoryInfo(GCKind.FullBlocking);
        return info.HeapSizeBytes - info.FragmentedBytes;
    }

    internal static void Run(string file, string workingDirectory, params string[] arguments)
    {
        ProcessStartInfo startInfo = new(file) { WorkingDirectory = workingDirectory, UseShellExecute = false };
        foreach (string argument in arguments)
        {
            startInfo.ArgumentList.Add(argument);
        }

        startInfo.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        startInfo.Environment["DOTNET_NOLOGO"] = "1";
        startInfo.Environment["MSBUILDDISABLENODEREUSE"] = "1";
        using Process process = Process.Start(startInfo)!;
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{file} {string.Join(' ', arguments)} failed with {process.ExitCode}.");
        }
    }

    private static double Median(List<double> values)
    {
        List<double> sorted = [.. values.Order()];
        return sorted.Count == 0 ? double.NaN : sorted.Count % 2 == 1 ? sorted[sorted.Count / 2] : (sorted[(sorted.Count / 2) - 1] + sorted[sorted.Count / 2]) / 2;
    }

    private static string Ms(double value) => value.ToString(value < 100 ? "0.0" : "0", CultureInfo.InvariantCulture) + " ms";

    private static string Mb(long bytes) => (bytes / 1024.0 / 1024.0).ToString("0", CultureInfo.InvariantCulture) + " MB";

    private static string Runs(List<double> values) => string.Join(", ", values.Select(v => v.ToString(v < 100 ? "0.0" : "0", CultureInfo.InvariantCulture)));

    /// <summary>A HostServer over an in-memory stream pair plus a client that grants every authorization.</summary>
    internal sealed class InProcessHost : IAsyncDisposable
    {
        private readonly HostServer server;
        private readonly JsonRpc client;

        private InProcessHost(HostServer server, JsonRpc client)
        {
            this.server = server;
            this.client = client;
        }

        public SemanticContextCache Cache => this.server.State.Cache;

        /// <summary>Without options: no approved snapshots, so every first request is a cold load (the load benches).</summary>
        public static async Task<InProcessHost> StartAsync(HostServerOptions? options = null)
        {
            (Stream serverStream, Stream clientStream) = FullDuplexStream.CreatePair();
            HostServer server = new(serverStream, serverStream, new HostLog(null), options ?? new HostServerOptions { PersistSnapshots = false });
            server.Start();
            JsonRpc client = new(new HeaderDelimitedMessageHandler(clientStream, clientStream, RpcSerialization.CreateFormatter()));
            client.AddLocalRpcTarget(new GrantingClient());
            client.StartListening();
            await client.InvokeWithParameterObjectAsync<InitializeResult>(ProtocolMethods.Initialize, new Dictionary<string, object?>());
            return new InProcessHost(server, client);
        }

        public Task<SolutionInspectResult> InspectAsync(string workspace, string solution) =>
            this.client.InvokeWithParameterObjectAsync<SolutionInspectResult>(
                ProtocolMethods.SolutionInspect, new SolutionInspectParams { Workspace = workspace, Target = solution, Tool = "bench" });

        public Task<T> InvokeAsync<T>(string method, object parameters) =>
            this.client.InvokeWithParameterObjectAsync<T>(method, parameters);

        public async ValueTask DisposeAsync()
        {
            this.client.Dispose();
            await this.server.DisposeAsync();
        }
    }

    private sealed class GrantingClient
    {
        [JsonRpcMethod(ProtocolMethods.AuthorizeEvaluation, UseSingleObjectParameterDeserialization = true)]
        public AuthorizeEvaluationResult Authorize(AuthorizeEvaluationParams parameters)
        {
            _ = parameters;
            return new AuthorizeEvaluationResult { Granted = true };
        }

        [JsonRpcMethod(ProtocolMethods.AuthorizeWrite, UseSingleObjectParameterDeserialization = true)]
        public AuthorizeEvaluationResult AuthorizeWrite(AuthorizeWriteParams parameters)
        {
            _ = parameters;
            return new AuthorizeEvaluationResult { Granted = true };
        }

        [JsonRpcMethod(ProtocolMethods.LoadProgress, UseSingleObjectParameterDeserialization = true)]
        public void Progress(LoadProgressParams parameters) => _ = parameters;
    }
}
