using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Roslyn's own persistent cache stays off: by default every workspace writes a SQLite database per solution path under
/// LocalApplicationData/Microsoft/VisualStudio/Roslyn/Cache — outside SharpClaw's private state folder, never cleared by
/// Clear Cache, holding indices of the person's source, one more folder for every solution path ever opened (712 folders,
/// 313 MB after a day of test runs here), and its "database table is locked" once failed a navigate outright.
/// </summary>
public sealed class RoslynCacheTests
{
    [Fact]
    public async Task Queries_LeaveNothingInRoslynsCacheFolder()
    {
        // Restored from the fixture cache: the restore's output is per project, whatever the solution is called.
        using FixtureWorkspace workspace = FixtureWorkspace.Restored("Calculator", "Calculator.slnx");
        // A solution name no other test uses: Roslyn names its folder after the solution file.
        string name = "RoslynCache" + Guid.NewGuid().ToString("N")[..8];
        File.Move(workspace.Path("Calculator.slnx"), workspace.Path(name + ".slnx"));
        await using SemanticHost host = await SemanticHost.StartAsync();

        NavigateResult implementations = await host.NavigateAsync(workspace.Root, new NavigateParams { Action = "implementation", Name = "ICalculator.Add" });
        Assert.Equal(1, implementations.Total);
        NavigateResult references = await host.NavigateAsync(workspace.Root, new NavigateParams { Action = "references", Name = "Calculator.Core.Calculator.Add" });
        Assert.True(references.Total > 0);

        string cache = Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData), "Microsoft", "VisualStudio", "Roslyn", "Cache");
        string[] written = Directory.Exists(cache) ? Directory.GetDirectories(cache, name + "*", SearchOption.AllDirectories) : [];
        Assert.Empty(written);
    }
}
