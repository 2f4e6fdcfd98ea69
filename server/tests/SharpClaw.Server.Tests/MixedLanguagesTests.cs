using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/MixedLanguages: a solution listing a C# project, an F# project and a Visual Basic project (all three
/// restore and build here). Inspection counts all three and names the two it does not load, and why; it said
/// "1 projects" and never mentioned them.
/// </summary>
public sealed class MixedLanguagesTests
{
    [Fact]
    public async Task Inspect_CountsEveryProjectOfTheSolution_AndNamesTheOnesNotLoaded()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("MixedLanguages", "MixedLanguages.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();

        SolutionInspectResult inspected = await host.InspectAsync(fixture.Root);
        Assert.Equal(["CsLib/CsLib.csproj"], inspected.Projects.Select(p => p.Path));
        Assert.Equal(3, inspected.ListedProjects);
        Assert.Equal(
            [("FsLib/FsLib.fsproj", "F# project: SharpClaw loads C# projects only"), ("VbLib/VbLib.vbproj", "Visual Basic project: SharpClaw loads C# projects only")],
            inspected.NotLoaded.Select(p => (p.Path, p.Reason)));
        Assert.Equal(LoadStatus.Complete, inspected.LoadStatus);
    }
}
