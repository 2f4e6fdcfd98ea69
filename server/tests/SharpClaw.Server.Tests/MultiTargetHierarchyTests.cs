using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// A netstandard2.0;netstandard2.1 library consumed by net10.0 projects (one only transitively) and a
/// netstandard2.0 one: implementations, subtypes, hierarchy, callers and impact equal the union a direct
/// Roslyn search from every flavour finds; a member declared under #if is one symbol.
/// </summary>
[Collection(MultiTargetHierarchyCollection.Name)]
public sealed class MultiTargetHierarchyTests(LoadedFixture.MultiTargetHierarchy fx)
{
    private Task<NavigateResult> Navigate(string action, string name) =>
        fx.Invoke<NavigateResult>(ProtocolMethods.Navigate, new NavigateParams { Workspace = fx.Workspace.Root, Action = action, Name = name, Tool = "test-tool" });

    /// <summary>Roslyn directly: IShape's implementations searched from each flavour of Lib, merged by name.</summary>
    private async Task<List<string>> DirectUnionAsync()
    {
        await fx.Host.InspectAsync(fx.Workspace.Root);
        using ContextLease lease = await fx.Host.CachedLeaseAsync(fx.Workspace.Root);
        List<Project> flavours = [.. lease.Solution.Projects.Where(p => p.Name.StartsWith("Lib", StringComparison.Ordinal))];
        Assert.Equal(2, flavours.Count);
        HashSet<string> names = new(StringComparer.Ordinal);
        foreach (Project flavour in flavours)
        {
            INamedTypeSymbol shape = (await flavour.GetCompilationAsync())!.GetTypeByMetadataName("Lib.IShape")!;
            foreach (INamedTypeSymbol implementation in await SymbolFinder.FindImplementationsAsync(shape, lease.Solution, transitive: true))
            {
                names.Add(implementation.ToDisplayString());
            }
        }

        return [.. names.Order(StringComparer.Ordinal)];
    }

    [Fact]
    public async Task Implementations_AndHierarchy_EqualTheUnionOverEveryFlavour()
    {
        List<string> union = await this.DirectUnionAsync();
        Assert.Equal(["Legacy.Hexagon", "Lib.ShapeBase", "More.Triangle", "Shapes.Circle", "Shapes.Square", "Transitive.FakeShape"], union);

        TypeHierarchyResult hierarchy = await fx.Invoke<TypeHierarchyResult>(ProtocolMethods.TypeHierarchy, new TypeHierarchyParams { Workspace = fx.Workspace.Root, Name = "IShape", Tool = "test-tool" });
        Assert.Equal(union, hierarchy.Implementations.Items.Select(s => s.Name).Order(StringComparer.Ordinal));

        NavigateResult subtypes = await Navigate("subtypes", "IShape");
        Assert.Equal(union, subtypes.Related!.Select(s => s.Name).Order(StringComparer.Ordinal));

        NavigateResult implementation = await Navigate("implementation", "IShape.Area");
        Assert.Equal(
            ["Legacy/Hexagon.cs", "Lib/Shapes.cs", "More/Triangle.cs", "Shapes/Circle.cs", "Transitive/FakeShape.cs"], // Square.Area; Circle's is an override of ShapeBase.Area
            implementation.Locations!.Select(l => l.Path).Order(StringComparer.Ordinal));

        NavigateResult derived = await Navigate("subtypes", "ShapeBase");
        Assert.Equal(["Shapes.Circle"], derived.Related!.Select(s => s.Name));
    }

    [Fact]
    public async Task AMemberDeclaredUnderIf_IsOneSymbol_WithItsCallersFromEveryFlavourOnce()
    {
        SymbolResolveResult resolved = await fx.Invoke<SymbolResolveResult>(ProtocolMethods.SymbolResolve, new SymbolResolveParams { Workspace = fx.Workspace.Root, Name = "Text.Clean", Tool = "test-tool" });
        Assert.Equal("Lib.Text.Clean(string)", resolved.Symbol.Name);

        NavigateResult callers = await Navigate("callers", "Text.Clean");
        Assert.Equal(["Legacy.Hexagon.Label()", "Shapes.Circle.Name()", "Transitive.FakeShape.Label()"], callers.Related!.Select(s => s.Name).Order(StringComparer.Ordinal));

        NavigateResult impact = await Navigate("impact", "IShape");
        ImpactSection subtypes = Assert.Single(impact.Sections!, s => s.Action == "subtypes");
        Assert.Equal(6, subtypes.Total);
    }

    [Fact]
    public async Task OneCompilationAnswers_UseTheFlavourMostDependentsCompileAgainst_AndSayWhichWereSearched()
    {
        // Legacy compiles against netstandard2.0; Shapes, More and Transitive against netstandard2.1.
        SymbolResolveResult resolved = await fx.Invoke<SymbolResolveResult>(ProtocolMethods.SymbolResolve, new SymbolResolveParams { Workspace = fx.Workspace.Root, Name = "IShape", Tool = "test-tool" });
        Assert.Equal(("Lib/Lib.csproj", "netstandard2.1"), (resolved.Project, resolved.TargetFramework));
        FlavourNote note = resolved.Flavours!;
        Assert.Equal(["netstandard2.0", "netstandard2.1"], note.Frameworks);
        Assert.Equal((false, 4, 3), (note.Searched, note.Dependents, note.CompileAgainst));

        NavigateResult definition = await Navigate("definition", "IShape");
        Assert.Equal(("netstandard2.1", false), (definition.TargetFramework, definition.Flavours!.Searched));

        TypeHierarchyResult hierarchy = await fx.Invoke<TypeHierarchyResult>(ProtocolMethods.TypeHierarchy, new TypeHierarchyParams { Workspace = fx.Workspace.Root, Name = "IShape", Tool = "test-tool" });
        Assert.True(hierarchy.Flavours!.Searched);

        // References follow the symbol into both flavours: Legacy (netstandard2.0) and Shapes (netstandard2.1) both use IShape.
        NavigateResult references = await Navigate("references", "IShape");
        Assert.True(references.Flavours!.Searched);
        Assert.Contains(references.Locations!, l => l.Path == "Legacy/Hexagon.cs");
        Assert.Contains(references.Locations!, l => l.Path == "Shapes/Circle.cs");

        // A project with one flavour says nothing about flavours.
        NavigateResult single = await Navigate("definition", "Circle");
        Assert.Null(single.Flavours);
    }

    [Fact]
    public async Task Callers_ThroughAnInterfaceOrBaseMember_SaySo_AndOnlyThoseThatCanRunItAreListed()
    {
        static List<(string, string?)> Callers(IEnumerable<RelatedSymbol> related) => [.. related.Select(r => (r.Name, r.Via)).Order()];

        // Circle.Area overrides ShapeBase.Area, which implements IShape.Area: Report.Total and Report.Base reach it.
        NavigateResult circle = await Navigate("callers", "Circle.Area");
        Assert.Equal([("Transitive.Report.Base(Lib.ShapeBase)", "Lib.ShapeBase.Area()"), ("Transitive.Report.Total(Lib.IShape)", "Lib.IShape.Area()")], Callers(circle.Related!));

        // Hexagon (netstandard2.0 consumer) implements IShape directly: only the interface call can run it, from a
        // project that compiles against the other flavour; the ShapeBase call cannot.
        NavigateResult hexagon = await Navigate("callers", "Hexagon.Area");
        Assert.Equal([("Transitive.Report.Total(Lib.IShape)", "Lib.IShape.Area()")], Callers(hexagon.Related!));

        // The interface member itself: called directly by Report.Total; the call to ShapeBase.Area does not call it.
        NavigateResult shape = await Navigate("callers", "IShape.Area");
        Assert.Equal([("Transitive.Report.Total(Lib.IShape)", null)], Callers(shape.Related!));

        NavigateResult impact = await Navigate("impact", "Circle.Area");
        Assert.Equal(Callers(circle.Related!), Callers(Assert.Single(impact.Sections!, s => s.Action == "callers").Related!));
    }
}
