using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/WorkspaceSymbolRanking: workspace symbols rank a camel-humps type above fields that merely contain the
/// letters, and generated files (a source generator's output, a checked-in *.g.cs) stay out of workspace symbols
/// and diagnostics globs unless asked for — so no list mixes file:// links with workspace paths.
/// </summary>
public sealed class WorkspaceSymbolsTests(LoadedFixture.WorkspaceSymbolRanking fx) : IClassFixture<LoadedFixture.WorkspaceSymbolRanking>
{
    [Fact]
    public async Task CamelHumpsTypeRanksAboveFields_AndGeneratedFilesStayOutUnlessAskedFor()
    {
        FixtureWorkspace fixture = fx.Workspace;
        SemanticHost host = fx.Host;
        Task<T> Invoke<T>(string method, object parameters) =>
            Poll.WithTimeout(host.Host.Client.InvokeWithParameterObjectAsync<T>(method, parameters), SemanticHost.Timeout, method);

        SymbolsResult symbols = await Invoke<SymbolsResult>(ProtocolMethods.Symbols, new SymbolsParams { Workspace = fixture.Root, Query = "FeMa", Tool = "test-tool" });
        Assert.Equal(
            [
                ("App.Features.FeatureManager", "App/Features/FeatureManager.cs"), // camel humps of the whole name, a type
                ("App.A.Holder.FeMatcher()", "App/A/Holder.cs"), // the same (Fe|Matcher), a method
                ("App.A.Holder.SafeMarginValue", "App/A/Holder.cs"), // substring, a property
                ("App.A.Holder.safeMargin", "App/A/Holder.cs"), // substring, a field
            ],
            symbols.Items.Select(i => (i.Name, i.Path)));
        Assert.DoesNotContain(symbols.Items, i => i.Path.StartsWith("file:", StringComparison.Ordinal));

        // Only generated declarations match: then they are listed (nothing hand-written to mix with).
        SymbolsResult generated = await Invoke<SymbolsResult>(ProtocolMethods.Symbols, new SymbolsParams { Workspace = fixture.Root, Query = "FeatureMapView", Tool = "test-tool" });
        Assert.Equal([("App.Views.FeatureMapView", "App/Views/Index.g.cs")], generated.Items.Select(i => (i.Name, i.Path)));

        // Diagnostics: a glob leaves the generated file out; its exact path or a glob naming *.g.cs asks for it.
        DiagnosticsResult all = await Invoke<DiagnosticsResult>(ProtocolMethods.Diagnostics, new DiagnosticsParams { Workspace = fixture.Root, Path = "**/*.cs", Tool = "test-tool" });
        Assert.Equal([("App/Features/FeatureManager.cs", "CS0168")], all.Diagnostics!.Select(d => (d.Path, d.Id)));
        DiagnosticsResult everything = await Invoke<DiagnosticsResult>(ProtocolMethods.Diagnostics, new DiagnosticsParams { Workspace = fixture.Root, Tool = "test-tool" });
        Assert.Equal([("App/Features/FeatureManager.cs", "CS0168")], everything.Diagnostics!.Select(d => (d.Path, d.Id)));
        DiagnosticsResult exact = await Invoke<DiagnosticsResult>(ProtocolMethods.Diagnostics, new DiagnosticsParams { Workspace = fixture.Root, Path = "App/Views/Index.g.cs", Tool = "test-tool" });
        Assert.Equal([("App/Views/Index.g.cs", "CS0168")], exact.Diagnostics!.Select(d => (d.Path, d.Id)));
        DiagnosticsResult named = await Invoke<DiagnosticsResult>(ProtocolMethods.Diagnostics, new DiagnosticsParams { Workspace = fixture.Root, Path = "**/*.g.cs", Tool = "test-tool" });
        Assert.Equal([("App/Views/Index.g.cs", "CS0168")], named.Diagnostics!.Select(d => (d.Path, d.Id)));
    }

    [Fact]
    public async Task AnInterfaceMemberWithExplicitImplementations_ResolvesByItsName_AndEachCandidateSentBackResolves()
    {
        FixtureWorkspace fixture = fx.Workspace;
        SemanticHost host = fx.Host;
        Task<SymbolResolveResult> Resolve(string name) =>
            Poll.WithTimeout(host.Host.Client.InvokeWithParameterObjectAsync<SymbolResolveResult>(ProtocolMethods.SymbolResolve, new SymbolResolveParams { Workspace = fixture.Root, Name = name, Tool = "test-tool" }), SemanticHost.Timeout, name);

        Assert.Equal("App.A.ISelector.Populate()", (await Resolve("ISelector.Populate")).Symbol.Name);
        Assert.Equal("App.A.ISelector.Populate()", (await Resolve("App.A.ISelector.Populate()")).Symbol.Name);
        Assert.Equal("App.A.AttributeSelector.App.A.ISelector.Populate()", (await Resolve("App.A.AttributeSelector.App.A.ISelector.Populate()")).Symbol.Name);
    }
}
