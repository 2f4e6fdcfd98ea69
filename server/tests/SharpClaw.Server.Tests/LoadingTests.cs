using System.Globalization;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Loading outcomes that must leave no build host running: a cancelled load, missing prerequisites. The class
/// counts the loader's build hosts this test process started, so it runs alone (<see cref="SequentialCollection"/>);
/// progress and partial loads count none and run beside other classes (<see cref="LoadOutcomeTests"/>).
/// </summary>
[Collection(SequentialCollection.Name)]
public sealed class LoadingTests
{
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
