using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// A generator caveat names every project where the list may differ from what the generators' output holds,
/// up to <see cref="GeneratorGap.MaxProjects"/>: fixtures/GeneratorInterfaces with five more model projects that
/// run Markers.Gen (on Cysharp/MemoryPack, naming only the first 3 projects by path hid the test project that
/// held most of the implementations a workspace running the generators finds).
/// </summary>
public sealed class GeneratorGapProjectsTests
{
    private static readonly string[] MoreModels = ["Shapes.More1", "Shapes.More2", "Shapes.More3", "Shapes.More4", "Shapes.More5"];

    /// <summary>Five more projects like Shapes.Models, each with one [Shapeable] partial class, in the solution.</summary>
    private static void AddModels(FixtureWorkspace workspace)
    {
        string project = workspace.Read("Shapes.Models/Shapes.Models.csproj");
        foreach (string name in MoreModels)
        {
            workspace.Write($"{name}/{name}.csproj", project);
            workspace.Write($"{name}/Model.cs", $"using Shapes.Core;\n\nnamespace {name.Replace('.', '_')};\n\n[Shapeable]\npublic partial class Model\n{{\n}}\n");
        }

        workspace.Edit("GeneratorInterfaces.slnx", slnx => slnx.Replace(
            "</Solution>",
            string.Concat(MoreModels.Select(name => $"  <Project Path=\"{name}/{name}.csproj\" />\n")) + "</Solution>",
            StringComparison.Ordinal));
    }

    [Fact]
    public async Task Implementations_NameEveryProjectThatRunsTheGenerator()
    {
        // Restored once per version of the prepared workspace (FixtureCache), not in place every run.
        using FixtureWorkspace workspace = FixtureWorkspace.Restored("GeneratorInterfaces", "GeneratorInterfacesWithMoreModels", AddModels, "GeneratorInterfaces.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();

        NavigateResult implementations = await host.NavigateAsync(workspace.Root, new NavigateParams { Action = "implementation", Name = "Shapes.Core.IShapeable<TSelf>" });

        GeneratorGap gap = Assert.Single(implementations.GeneratorGaps!);
        Assert.Equal(6, gap.ProjectCount);
        Assert.Equal(["Shapes.Models/Shapes.Models.csproj", .. MoreModels.Select(name => $"{name}/{name}.csproj")], gap.Projects.Order(StringComparer.Ordinal));
    }
}
