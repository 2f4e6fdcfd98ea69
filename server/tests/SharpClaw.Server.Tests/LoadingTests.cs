using System.Globalization;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>Loading outcomes: progress, cancellation, missing prerequisites, partial and failed loads.</summary>
[Collection(SequentialCollection.Name)]
public sealed class LoadingTests
{
    [Fact]
    public async Task Load_ReportsProgress_ProjectByProject()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("Calculator", "Calculator.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();

        await host.InspectAsync(fixture.Root);

        Assert.True(await Poll.UntilAsync(() => host.Client.Progress.Count >= 4, TimeSpan.FromSeconds(10)));
        IReadOnlyList<LoadProgressParams> progress = host.Client.Progress;
        Assert.Equal(new LoadProgressParams(ProgressKind.Load, "Calculator.slnx", "Debug", null, 0, 3, "Calculator.slnx", 0), progress[0]);
        Assert.Equal([1, 2, 3], progress.Skip(1).Select(p => p.ProjectIndex));
        Assert.All(progress.Skip(1), p => Assert.Equal(3, p.ProjectCount));
        Assert.Equal(100, progress[^1].Percent);
        Assert.Equal(
            ["src/Calculator.App/Calculator.App.csproj", "src/Calculator.Core/Calculator.Core.csproj", "tests/Calculator.Tests/Calculator.Tests.csproj"],
            progress.Skip(1).Select(p => p.CurrentProject).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task CancelledLoad_DisposesItsBuildHost_AndCachesNothing()
    {
        // Twelve chained projects: plenty of load left when the first one has been reported.
        // Restored once per version of the written solution (FixtureCache), not every run.
        using FixtureWorkspace chain = FixtureWorkspace.Restored(null, "Chain12", workspace => WriteChainSolution(workspace.Root, 12), "Chain.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();
        using CancellationTokenSource cancel = new();

        // Cancel ($/cancelRequest) as soon as the build host has reported the first project.
        Task<SolutionInspectResult> load = host.InspectAsync(chain.Root, cancellationToken: cancel.Token);
        Assert.True(await Poll.UntilAsync(() => host.Client.Progress.Any(p => p.ProjectIndex >= 1) || load.IsCompleted, SemanticHost.Timeout, TimeSpan.FromMilliseconds(5)));
        Assert.False(load.IsCompleted, "The load finished before it could be cancelled.");
        Assert.NotEmpty(BuildHostProcesses());
        await cancel.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => load);
        Assert.True(await Poll.UntilAsync(() => BuildHostProcesses().Count == 0, TimeSpan.FromSeconds(20)), $"Build hosts still running: {string.Join(", ", BuildHostProcesses())}");
        Assert.Empty((await host.StatusAsync()).LoadedContexts);
        Assert.Equal(0, host.Cache.LoadCount);
        Assert.True(host.Client.Progress.Max(p => p.ProjectIndex) < 12);

        // The cancellation left nothing behind that blocks the next (approved) load.
        Assert.Equal(12, (await host.InspectAsync(chain.Root)).Projects.Count);
        Assert.True(await Poll.UntilAsync(() => BuildHostProcesses().Count == 0, TimeSpan.FromSeconds(20)), "A completed load left its build host running.");
    }

    private static string WriteChainSolution(string root, int count)
    {
        System.Text.StringBuilder solution = new("<Solution>\n");
        for (int i = 0; i < count; i++)
        {
            string name = $"P{i:00}";
            Directory.CreateDirectory(Path.Combine(root, name));
            string reference = i == 0 ? string.Empty : $"  <ItemGroup><ProjectReference Include=\"../P{i - 1:00}/P{i - 1:00}.csproj\" /></ItemGroup>\n";
            File.WriteAllText(Path.Combine(root, name, name + ".csproj"), $"<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>\n{reference}</Project>\n");
            File.WriteAllText(Path.Combine(root, name, "C.cs"), $"namespace {name};\n\npublic static class C\n{{\n    public static int V => {i};\n}}\n");
            solution.Append($"  <Project Path=\"{name}/{name}.csproj\" />\n");
        }

        string path = Path.Combine(root, "Chain.slnx");
        File.WriteAllText(path, solution.Append("</Solution>\n").ToString());
        return path;
    }

    [Fact]
    public async Task Unrestored_IsMissingPrerequisites_NamingTheRestoreCommand_AndNeverRestores()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("Unrestored");
        await using SemanticHost host = await SemanticHost.StartAsync();

        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.MissingPrerequisites, () => host.InspectAsync(fixture.Root));

        Assert.Equal("dotnet restore \"Unrestored.csproj\"", error.Command);
        Assert.Contains("dotnet restore \"Unrestored.csproj\"", error.Message, StringComparison.Ordinal);
        ProjectIssue issue = Assert.Single(error.Projects!);
        Assert.Equal("Unrestored.csproj", issue.Path);
        Assert.Contains("obj/project.assets.json", issue.Reason, StringComparison.Ordinal);
        Assert.False(File.Exists(fixture.Path("obj/project.assets.json")), "Something restored the project.");
        Assert.True(await Poll.UntilAsync(() => BuildHostProcesses().Count == 0, TimeSpan.FromSeconds(20)), "The abandoned load left its build host running.");
        Assert.Empty((await host.StatusAsync()).LoadedContexts);

        // The graph does not need restore assets: it says where they are expected and that they are missing.
        ProjectGraphResult graph = await host.GraphAsync(fixture.Root);
        ProjectGraphNode node = Assert.Single(graph.Projects);
        Assert.Equal(("obj/project.assets.json", false), (node.AssetsFile, node.Restored));
    }

    [Fact]
    public async Task MissingSdk_IsMissingPrerequisites()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("MissingSdk");
        await using SemanticHost host = await SemanticHost.StartAsync();

        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.MissingPrerequisites, () => host.InspectAsync(fixture.Root));

        Assert.Contains("99.0.100", error.Message, StringComparison.Ordinal);
        Assert.Contains("global.json", error.Message, StringComparison.Ordinal);
        Assert.True(await Poll.UntilAsync(() => BuildHostProcesses().Count == 0, TimeSpan.FromSeconds(20)));
    }

    [Fact]
    public async Task BrokenProject_IsPartialLoad_WithTheRestUsable_AndAloneIsLoadFailed()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("PartialLoad", "Good/Good.csproj");
        await using SemanticHost host = await SemanticHost.StartAsync();

        SolutionInspectResult result = await host.InspectAsync(fixture.Root);

        Assert.Equal(LoadStatus.Partial, result.LoadStatus);
        ProjectIssue broken = Assert.Single(result.PartialLoad);
        Assert.Equal("Broken/Broken.csproj", broken.Path);
        Assert.Contains("MSB4025", broken.Reason, StringComparison.Ordinal);
        InspectedProject good = Assert.Single(result.Projects, p => p.Path == "Good/Good.csproj");
        ProjectCompilation compilation = Assert.Single(good.Compilations);
        Assert.True(compilation.Loaded);
        Assert.True(compilation.DocumentCount >= 1);
        ProjectGraphResult graph = await host.GraphAsync(fixture.Root);
        Assert.Equal("Broken/Broken.csproj", Assert.Single(graph.PartialLoad).Path);

        // Fixing the broken project is a structural change.
        fixture.Write("Broken/Broken.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFramework>net10.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n");
        fixture.Restore("Broken/Broken.csproj");
        SolutionInspectResult fixedResult = await host.InspectAsync(fixture.Root);
        Assert.Equal(LoadStatus.Complete, fixedResult.LoadStatus);
        Assert.Equal(EvaluationReason.StructuralChange, host.Client.AuthorizationRequests[^1].Reason);

        // Nothing loadable at all: LoadFailed, naming the project and why.
        fixture.Write("Broken/Broken.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\">\n");
        SemanticErrorData failed = await SemanticErrors.ExpectAsync(SemanticErrorKind.LoadFailed, () => host.InspectAsync(fixture.Root, target: "Broken/Broken.csproj"));
        Assert.Equal("Broken/Broken.csproj", Assert.Single(failed.Projects!).Path);
    }

    /// <summary>The loader's MSBuild processes started by this test process: Roslyn's build host, or the parallel design-time pass's.</summary>
    private static List<int> BuildHostProcesses()
    {
        List<int> found = [];
        if (!OperatingSystem.IsLinux())
        {
            return found;
        }

        foreach (string directory in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out int pid))
            {
                continue;
            }

            try
            {
                string commandLine = File.ReadAllText(Path.Combine(directory, "cmdline"));
                string stat = File.ReadAllText(Path.Combine(directory, "stat"));
                string[] fields = stat[(stat.LastIndexOf(')') + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
                bool ours = fields.Length > 1 && fields[1] == Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
                bool loader = commandLine.Contains("Microsoft.CodeAnalysis.Workspaces.MSBuild.BuildHost", StringComparison.Ordinal) // Roslyn's build host
                    || commandLine.Contains("SharpClaw.DesignTime", StringComparison.Ordinal); // the parallel design-time pass's MSBuild
                if (ours && loader && fields[0] != "Z")
                {
                    found.Add(pid);
                }
            }
            catch (IOException)
            {
                // Exited while we looked.
            }
            catch (UnauthorizedAccessException)
            {
                // Not ours.
            }
        }

        return found;
    }
}
