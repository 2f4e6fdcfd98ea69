using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>One restored and built copy of fixtures/GeneratorInterfaces and one host.</summary>
public sealed class GeneratorInterfacesFixture : IAsyncLifetime
{
    internal FixtureWorkspace Workspace { get; private set; } = null!;

    internal SemanticHost Host { get; private set; } = null!;

    /// <summary>What <c>dotnet build</c> said: the truth the diagnostics are compared with.</summary>
    internal string BuildOutput { get; private set; } = string.Empty;

    public async Task InitializeAsync()
    {
        this.Workspace = FixtureWorkspace.Restored("GeneratorInterfaces", "GeneratorInterfaces.slnx");
        (int exitCode, string output) = FixtureWorkspace.Dotnet(this.Workspace.Root, ["build", "GeneratorInterfaces.slnx", "-m:1", "--no-restore", "-nologo"]);
        Assert.True(exitCode == 0, output);
        this.BuildOutput = output;
        this.Host = await SemanticHost.StartAsync();
    }

    public async Task DisposeAsync()
    {
        await this.Host.DisposeAsync();
        this.Workspace.Dispose();
    }

    internal Task<T> Invoke<T>(string method, object parameters) =>
        Poll.WithTimeout(this.Host.Host.Client.InvokeWithParameterObjectAsync<T>(method, parameters), SemanticHost.Timeout, method);

    internal Task<NavigateResult> NavigateAsync(string action, string name) =>
        this.Host.NavigateAsync(this.Workspace.Root, new NavigateParams { Action = action, Name = name });

    internal Task<DiagnosticsResult> DiagnosticsAsync(bool summary = false) =>
        this.Invoke<DiagnosticsResult>(ProtocolMethods.Diagnostics, new DiagnosticsParams { Workspace = this.Workspace.Root, Severity = "error", Summary = summary, Tool = "test-tool" });
}

/// <summary>
/// fixtures/GeneratorInterfaces: the solution's own generator (Markers.Gen, a project referenced as an analyzer) makes
/// every [Shapeable] partial type of Shapes.Models an IShapeable of itself; App uses those types through that
/// interface. dotnet build has no error; SharpClaw, which never runs the generator, sees CS0311 and CS1503 in
/// Shapes.Models (the generator's own project) and in App (which references it). Every one of them is classed as
/// possibly from the generator, by reach and not by code, after the errors that stand; lists the generator could
/// add to (implementations, callers, references, the hierarchy) say so instead of a confident "none".
/// </summary>
public sealed class GeneratorReachTests(GeneratorInterfacesFixture fx) : IClassFixture<GeneratorInterfacesFixture>
{
    private static readonly string[] InReach = ["App/App.csproj", "Shapes.Models/Shapes.Models.csproj"];

    [Fact]
    public async Task Diagnostics_EveryErrorInReachOfTheExcludedGenerator_IsClassedAsPossiblyFromIt_WhereDotnetBuildHasNone()
    {
        Assert.Contains(" 0 Error(s)", fx.BuildOutput, StringComparison.Ordinal);
        DiagnosticsResult result = await fx.DiagnosticsAsync();
        string listed = string.Join("\n", result.Diagnostics!.Select(d => $"{d.Id} {d.Path}:{d.Line} [{d.ExcludedGenerator}|{d.PartialType}] {d.Message}"));

        Assert.True(result.Diagnostics!.Count >= 5, listed);
        Assert.All(result.Diagnostics!, d => Assert.Equal("Markers.Gen", d.ExcludedGenerator));
        Assert.Contains(result.Diagnostics!, d => d.Id == "CS0311" && d.Path == "App/Gallery.cs"); // a referencing project, no generator of its own
        Assert.Equal(result.Total, result.PossiblyFromExcludedGenerators);

        // The one in Circle, a partial type the generator (of its own project) may complete, comes first and says so.
        DiagnosticItem first = result.Diagnostics![0];
        Assert.Equal(("Shapes.Models/Circle.cs", "Circle"), (first.Path, first.PartialType));
        Assert.All(result.Diagnostics!.Skip(1), d => Assert.Null(d.PartialType));

        GeneratorCaveat caveat = Assert.Single(result.GeneratorCaveats!);
        Assert.Equal(("Markers.Gen", "project generator", result.Total, 2), (caveat.Generator, caveat.Origin, caveat.Errors, caveat.ProjectCount));
        Assert.Equal(InReach, caveat.Projects);
    }

    [Fact]
    public async Task Diagnostics_ErrorsOutOfReach_StandAndComeFirst_AndSummaryLinesCarryTheTag()
    {
        string before = fx.Workspace.Read("Standalone/Counter.cs");
        try
        {
            fx.Workspace.Edit("Standalone/Counter.cs", text => text.Replace("this.Count++;", "this.Count += missing;", StringComparison.Ordinal));
            DiagnosticsResult result = await fx.DiagnosticsAsync(); // each query re-reads changed sources
            DiagnosticItem standing = result.Diagnostics![0];
            Assert.Equal(("Standalone/Counter.cs", "CS0103", null), (standing.Path, standing.Id, standing.ExcludedGenerator));
            Assert.All(result.Diagnostics!.Skip(1), d => Assert.Equal("Markers.Gen", d.ExcludedGenerator));
            Assert.Equal(result.Total - 1, result.PossiblyFromExcludedGenerators);

            DiagnosticsResult summary = await fx.DiagnosticsAsync(summary: true);
            Assert.Equal(("CS0103", (string?)null), (summary.Summary![0].Id, summary.Summary![0].ExcludedGenerator));
            Assert.All(summary.Summary!.Skip(1), line => Assert.Equal("Markers.Gen", line.ExcludedGenerator));
            Assert.Contains(summary.Summary!, line => line.Id == "CS0311" && line.Count >= 4);
        }
        finally
        {
            fx.Workspace.Edit("Standalone/Counter.cs", _ => before);
        }
    }

    [Fact]
    public async Task Implementations_OfTheInterfaceOnlyTheGeneratorImplements_NameTheGeneratorAndItsProject()
    {
        NavigateResult implementations = await fx.NavigateAsync("implementation", "Shapes.Core.IShapeable<TSelf>");
        Assert.Equal(0, implementations.Total);
        GeneratorGap gap = Assert.Single(implementations.GeneratorGaps!);
        Assert.Equal(("Markers.Gen", "project generator", 1), (gap.Generator, gap.Origin, gap.ProjectCount));
        Assert.Equal(["Shapes.Models/Shapes.Models.csproj"], gap.Projects);

        TypeHierarchyResult hierarchy = await fx.Invoke<TypeHierarchyResult>(ProtocolMethods.TypeHierarchy, new TypeHierarchyParams { Workspace = fx.Workspace.Root, Name = "IShapeable", Tool = "test-tool" });
        Assert.Equal(0, hierarchy.Implementations.Total);
        Assert.Equal("Markers.Gen", Assert.Single(hierarchy.GeneratorGaps!).Generator);

        // Nothing can derive from a sealed class or implement a non-virtual member: no caveat there.
        Assert.Null((await fx.NavigateAsync("subtypes", "Standalone.Point")).GeneratorGaps);
        Assert.Null((await fx.NavigateAsync("implementation", "Shapes.Core.Registry.Add")).GeneratorGaps);
    }

    [Fact]
    public async Task Implementations_OfAFrameworkInterfaceTheGeneratorAdds_NameTheGeneratorAndItsProject()
    {
        // Markers.Gen also makes Circle and Square IDisposable, as Jab makes its containers System.IServiceProvider: a
        // symbol from metadata has no declaring project, and the answer said a confident "no implementations".
        (int line, int character) = Position(fx.Workspace.Read("App/Gallery.cs"), "System.IDisposable shape", "IDisposable");
        NavigateResult implementations = await fx.Host.NavigateAsync(fx.Workspace.Root, new NavigateParams { Action = "implementation", Path = "App/Gallery.cs", Line = line, Character = character });
        Assert.Equal(0, implementations.Total);
        GeneratorGap gap = Assert.Single(implementations.GeneratorGaps!);
        Assert.Equal(("Markers.Gen", "project generator", 1), (gap.Generator, gap.Origin, gap.ProjectCount));
        Assert.Equal(["Shapes.Models/Shapes.Models.csproj"], gap.Projects);
    }

    [Fact]
    public async Task CallersAndReferences_OfWhatOnlyGeneratedCodeCalls_SayTheGeneratorCouldCallIt()
    {
        NavigateResult callers = await fx.NavigateAsync("callers", "Shapes.Core.Registry.Add");
        Assert.Equal(0, callers.Total);
        Assert.Equal(["Shapes.Models/Shapes.Models.csproj"], Assert.Single(callers.GeneratorGaps!).Projects);

        FindReferencesResult references = await fx.Host.FindReferencesAsync(fx.Workspace.Root, new FindReferencesParams { Name = "Shapes.Core.Registry.Add" });
        Assert.Equal(0, references.Total);
        Assert.Equal("Markers.Gen", Assert.Single(references.GeneratorGaps!).Generator);

        // Standalone sees nothing of Shapes.Core and runs no excluded generator: no caveat on its symbols.
        Assert.Null((await fx.NavigateAsync("references", "Standalone.Counter.Increment")).GeneratorGaps);
    }

    [Fact]
    public async Task Tests_NameAGeneratorMetAlongTheWalk_NotOnlyAtTheStart()
    {
        // Registry.Normalized is private (only Shapes.Core sees it, no excluded generator runs there), but the walk
        // goes through Registry.Add, which Markers.Gen's module initializers in Shapes.Models call: tests reaching it
        // that way cannot be listed. Before, only the start symbol was checked and the answer was a confident "none".
        NavigateResult tests = await fx.NavigateAsync("tests", "Shapes.Core.Registry.Normalized");
        Assert.Equal(0, tests.Total);
        GeneratorGap gap = Assert.Single(tests.GeneratorGaps!);
        Assert.Equal(("Markers.Gen", "project generator"), (gap.Generator, gap.Origin));
        Assert.Equal(["Shapes.Models/Shapes.Models.csproj"], gap.Projects);

        // A walk that meets no project in a generator's reach says nothing of generators.
        Assert.Null((await fx.NavigateAsync("tests", "Standalone.Counter.Increment")).GeneratorGaps);
    }

    [Fact]
    public async Task Callers_CountTheCallSitesInSourceGeneratedCode_TheyLeaveOut()
    {
        // System.Text.Json's generator (an SDK generator, which runs) constructs Point; no hand-written code does.
        NavigateResult callers = await fx.NavigateAsync("callers", "Standalone.Point.Point(int)");
        Assert.Equal((0, 1), (callers.Total, callers.OmittedGenerated));
        NavigateResult impact = await fx.NavigateAsync("impact", "Standalone.Point.Point(int)");
        Assert.Equal(1, Assert.Single(impact.Sections!, s => s.Action == "callers").OmittedGenerated);
    }

    [Fact]
    public async Task RawLspImplementationsAndReferences_CarryTheSameCaveat_ADefinitionNone()
    {
        // lsp textDocument/implementation said a bare [] where navigate names the generator that implements the interface.
        string file = fx.Workspace.Path("Shapes.Core/Shapeable.cs");
        (int line, int character) = Position(fx.Workspace.Read("Shapes.Core/Shapeable.cs"), "public interface IShapeable", "IShapeable");
        string position = new System.Text.Json.Nodes.JsonObject
        {
            ["textDocument"] = new System.Text.Json.Nodes.JsonObject { ["uri"] = new Uri(file).AbsoluteUri },
            ["position"] = new System.Text.Json.Nodes.JsonObject { ["line"] = line - 1, ["character"] = character - 1 },
        }.ToJsonString();
        Task<LspRequestResult> Lsp(string method) => fx.Invoke<LspRequestResult>(ProtocolMethods.LspRequest, new LspRequestParams { Workspace = fx.Workspace.Root, Method = method, Params = position, Tool = "test-tool" });

        LspRequestResult implementations = await Lsp("textDocument/implementation");
        Assert.Equal("[]", implementations.Json);
        GeneratorGap gap = Assert.Single(implementations.GeneratorGaps!);
        Assert.Equal(("Markers.Gen", "project generator"), (gap.Generator, gap.Origin));
        Assert.Equal(["Shapes.Models/Shapes.Models.csproj"], gap.Projects);

        Assert.Equal("Markers.Gen", Assert.Single((await Lsp("textDocument/references")).GeneratorGaps!).Generator);
        Assert.Null((await Lsp("textDocument/definition")).GeneratorGaps);
        Assert.Null((await Lsp("textDocument/hover")).GeneratorGaps);
    }

    /// <summary>The 1-based line and character of <paramref name="word"/> inside the first <paramref name="context"/> of a text.</summary>
    private static (int Line, int Character) Position(string text, string context, string word)
    {
        int offset = text.IndexOf(context, StringComparison.Ordinal) + context.IndexOf(word, StringComparison.Ordinal);
        int lineStart = text.LastIndexOf('\n', offset - 1) + 1;
        return (text[..offset].Count(c => c == '\n') + 1, offset - lineStart + 1);
    }
}
