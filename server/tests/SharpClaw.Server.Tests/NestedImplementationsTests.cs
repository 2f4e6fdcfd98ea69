using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/NestedImplementations: a multi-targeted library's interfaces implemented by private nested classes of
/// test classes — same simple names in several containers and files, a partial container split over two files, a
/// generic container two levels up, a record struct, an implementation through a base class and one through a
/// derived interface, and a test class of the same full name in a second test project. The type hierarchy listed
/// one of the two Lib.Tests.ParseTests.Visitor classes (one per project) because it merged implementations by
/// name; it must list exactly what a direct Roslyn search from every flavour finds.
/// </summary>
public sealed class NestedImplementationsTests
{
    /// <summary>Full names with type parameters, as the host writes them.</summary>
    private static readonly SymbolDisplayFormat NameFormat = new(
        globalNamespaceStyle: SymbolDisplayGlobalNamespaceStyle.Omitted,
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypesAndNamespaces,
        genericsOptions: SymbolDisplayGenericsOptions.IncludeTypeParameters);

    [Fact]
    public async Task TypeHierarchy_ListsEveryNestedImplementation_AsADirectSearchOfEveryFlavourFindsThem()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("NestedImplementations", "NestedImplementations.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();
        await host.InspectAsync(fixture.Root);

        foreach ((string name, string metadataName) in new[] { ("Lib.IVisitor", "Lib.IVisitor"), ("Lib.IConverter<T>", "Lib.IConverter`1") })
        {
            List<string> direct = await DirectUnionAsync(host, fixture.Root, metadataName);
            TypeHierarchyResult hierarchy = await Poll.WithTimeout(
                host.Host.Client.InvokeWithParameterObjectAsync<TypeHierarchyResult>(ProtocolMethods.TypeHierarchy, new TypeHierarchyParams { Workspace = fixture.Root, Name = name, Limit = 200, Tool = "test-tool" }),
                SemanticHost.Timeout,
                name);
            List<string> listed = [.. hierarchy.Implementations.Items.Select(i => $"{i.Name} {i.Locations[0].Path}:{i.Locations[0].Line}").Order(StringComparer.Ordinal)];
            Assert.Equal(direct, listed);
            Assert.Equal(direct.Count, hierarchy.Implementations.Total);

            // navigate implementation lists the same types, and the interfaces deriving from it.
            List<string> withInterfaces = await DirectUnionAsync(host, fixture.Root, metadataName, derivedInterfaces: true);
            NavigateResult implementations = await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "implementation", Name = name, Limit = 200 });
            Assert.Equal(withInterfaces.Select(d => d[(d.IndexOf(' ') + 1)..]).Order(StringComparer.Ordinal), implementations.Locations!.Select(l => $"{l.Path}:{l.Line}").Order(StringComparer.Ordinal));
        }

        List<string> visitors = await DirectUnionAsync(host, fixture.Root, "Lib.IVisitor");
        Assert.Equal(10, visitors.Count); // 9 in the test projects, and VisitorBase
        Assert.Contains("Lib.Tests.ParseTests.Visitor Lib.Tests/ParseTests.cs:10", visitors);
        Assert.Contains("Lib.Tests.ParseTests.Visitor Other.Tests/ParseTests.cs:9", visitors);

        // supertypes of each confirm the interface.
        NavigateResult supertypes = await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "supertypes", Path = "Other.Tests/ParseTests.cs", Line = 9, Character = 26 });
        Assert.Contains(supertypes.Related!, r => r.Name == "Lib.IVisitor");
    }

    /// <summary>Roslyn directly: the interface's implementations searched from each flavour of Lib, as "name path:line".</summary>
    private static async Task<List<string>> DirectUnionAsync(SemanticHost host, string workspace, string metadataName, bool derivedInterfaces = false)
    {
        using ContextLease lease = await host.CachedLeaseAsync(workspace);
        HashSet<string> found = new(StringComparer.Ordinal);
        foreach (Project flavour in lease.Solution.Projects.Where(p => p.Name.StartsWith("Lib(", StringComparison.Ordinal) || p.Name == "Lib"))
        {
            INamedTypeSymbol type = (await flavour.GetCompilationAsync())!.GetTypeByMetadataName(metadataName)!;
            IEnumerable<INamedTypeSymbol> candidates = await SymbolFinder.FindImplementationsAsync(type, lease.Solution, transitive: true);
            if (derivedInterfaces)
            {
                candidates = candidates.Concat(await SymbolFinder.FindDerivedInterfacesAsync(type, lease.Solution, transitive: true));
            }

            foreach (INamedTypeSymbol implementation in candidates)
            {
                FileLinePositionSpan span = implementation.Locations[0].GetLineSpan();
                found.Add($"{implementation.ToDisplayString(NameFormat)} {Path.GetRelativePath(workspace, span.Path).Replace('\\', '/')}:{span.StartLinePosition.Line + 1}");
            }
        }

        return [.. found.Order(StringComparer.Ordinal)];
    }
}
