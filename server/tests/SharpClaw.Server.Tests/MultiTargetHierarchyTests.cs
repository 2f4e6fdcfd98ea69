using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Cache;

using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>One restored copy of fixtures/MultiTargetHierarchy and one host.</summary>
public sealed class MultiTargetHierarchyFixture : IAsyncLifetime
{
    internal FixtureWorkspace Workspace { get; private set; } = null!;

    internal SemanticHost Host { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        this.Workspace = FixtureWorkspace.Copy("MultiTargetHierarchy");
        this.Workspace.Restore("MultiTargetHierarchy.slnx");
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
        this.Invoke<NavigateResult>(ProtocolMethods.Navigate, new NavigateParams { Workspace = this.Workspace.Root, Action = action, Name = name, Tool = "test-tool" });
}

/// <summary>
/// A netstandard2.0;netstandard2.1 library consumed by net10.0 projects (one only transitively) and a
/// netstandard2.0 one: implementations, subtypes, hierarchy, callers and impact equal the union a direct
/// Roslyn search from every flavour finds; a member declared under #if is one symbol.
/// </summary>
public sealed class MultiTargetHierarchyTests(MultiTargetHierarchyFixture fx) : IClassFixture<MultiTargetHierarchyFixture>
{
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

        NavigateResult subtypes = await fx.NavigateAsync("subtypes", "IShape");
        Assert.Equal(union, subtypes.Related!.Select(s => s.Name).Order(StringComparer.Ordinal));

        NavigateResult implementation = await fx.NavigateAsync("implementation", "IShape.Area");
        Assert.Equal(
            ["Legacy/Hexagon.cs", "Lib/Shapes.cs", "More/Triangle.cs", "Shapes/Circle.cs", "Transitive/FakeShape.cs"], // Square.Area; Circle's is an override of ShapeBase.Area
            implementation.Locations!.Select(l => l.Path).Order(StringComparer.Ordinal));

        NavigateResult derived = await fx.NavigateAsync("subtypes", "ShapeBase");
        Assert.Equal(["Shapes.Circle"], derived.Related!.Select(s => s.Name));
    }

    [Fact]
    public async Task AMemberDeclaredUnderIf_IsOneSymbol_WithItsCallersFromEveryFlavourOnce()
    {
        SymbolResolveResult resolved = await fx.Invoke<SymbolResolveResult>(ProtocolMethods.SymbolResolve, new SymbolResolveParams { Workspace = fx.Workspace.Root, Name = "Text.Clean", Tool = "test-tool" });
        Assert.Equal("Lib.Text.Clean(string)", resolved.Symbol.Name);

        NavigateResult callers = await fx.NavigateAsync("callers", "Text.Clean");
        Assert.Equal(["Legacy.Hexagon.Label()", "Shapes.Circle.Name()", "Transitive.FakeShape.Label()"], callers.Related!.Select(s => s.Name).Order(StringComparer.Ordinal));

        NavigateResult impact = await fx.NavigateAsync("impact", "IShape");
        ImpactSection subtypes = Assert.Single(impact.Sections!, s => s.Action == "subtypes");
        Assert.Equal(6, subtypes.Total);
    }
}
