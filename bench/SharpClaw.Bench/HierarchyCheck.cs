using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.MSBuild;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;

namespace SharpClaw.Bench;

/// <summary>
/// <c>hierarchy-check --solution X.slnx --types Ns.IFoo;Ns.Base&lt;T&gt;</c>: the host's subtypes of each
/// type (csharp_type_hierarchy's derived types and implementations, and navigate subtypes) against a direct
/// Roslyn union: the type taken from every flavour (target framework compilation) of its declaring project
/// in a bare MSBuildWorkspace, each searched with SymbolFinder, the results merged by display name. Prints
/// both counts and every name on one side only; exits 1 when any set differs. Repeatable on a real solution.
/// </summary>
internal static class HierarchyCheck
{
    /// <summary>How the host names a type (namespaces, containing types, type parameters).</summary>
    private static readonly SymbolDisplayFormat TypeNameFormat = new(
        globalNamespaceStyle: SymbolDisplayGlobalNamespaceStyle.Omitted,
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypesAndNamespaces,
        genericsOptions: SymbolDisplayGenericsOptions.IncludeTypeParameters,
        miscellaneousOptions: SymbolDisplayMiscellaneousOptions.UseSpecialTypes);

    public static async Task<int> RunAsync(string solutionPath, IReadOnlyList<string> typeNames)
    {
        solutionPath = Path.GetFullPath(solutionPath);
        string workspace = Path.GetDirectoryName(solutionPath)!;
        await using LoadBenchmark.InProcessHost host = await LoadBenchmark.InProcessHost.StartAsync();
        await host.InspectAsync(workspace, solutionPath);
        using MSBuildWorkspace direct = MSBuildWorkspace.Create(new Dictionary<string, string> { ["Configuration"] = "Debug" });
        Solution solution = await direct.OpenSolutionAsync(solutionPath);
        bool allEqual = true;
        foreach (string typeName in typeNames)
        {
            TypeHierarchyResult hierarchy = await host.InvokeAsync<TypeHierarchyResult>(ProtocolMethods.TypeHierarchy, new TypeHierarchyParams { Workspace = workspace, Target = solutionPath, Name = typeName, Limit = 200, Tool = "bench" });
            NavigateResult subtypes = await host.InvokeAsync<NavigateResult>(ProtocolMethods.Navigate, new NavigateParams { Workspace = workspace, Target = solutionPath, Name = typeName, Action = "subtypes", Limit = 200, Tool = "bench" });
            (SortedSet<string> union, List<string> flavours) = await DirectUnionAsync(solution, MetadataName(typeName));
            SortedSet<string> fromHierarchy = new([.. hierarchy.DerivedTypes.Items.Select(s => s.Name), .. hierarchy.Implementations.Items.Select(s => s.Name)], StringComparer.Ordinal);
            SortedSet<string> fromSubtypes = new((subtypes.Related ?? []).Select(r => r.Name), StringComparer.Ordinal);
            Console.WriteLine($"{typeName}: direct union over {flavours.Count} flavours ({string.Join(", ", flavours)}): {union.Count}");
            allEqual &= Compare("csharp_type_hierarchy derived+implementations", fromHierarchy, union, hierarchy.DerivedTypes.Truncated || hierarchy.Implementations.Truncated);
            allEqual &= Compare("csharp_navigate subtypes", fromSubtypes, union, subtypes.Truncated);
        }

        return allEqual ? 0 : 1;
    }

    /// <summary>Ns.IBuffer&lt;T&gt; (the host's name) → Ns.IBuffer`1 (Roslyn's metadata name).</summary>
    private static string MetadataName(string typeName) =>
        typeName.IndexOf('<', StringComparison.Ordinal) is var open and > 0 ? $"{typeName[..open]}`{typeName.Count(c => c == ',') + 1}" : typeName;

    private static bool Compare(string surface, SortedSet<string> ours, SortedSet<string> direct, bool truncated)
    {
        List<string> missing = [.. direct.Except(ours)];
        List<string> extra = [.. ours.Except(direct)];
        bool equal = missing.Count == 0 && extra.Count == 0 && !truncated;
        Console.WriteLine($"  {surface}: {ours.Count}{(truncated ? " (truncated)" : string.Empty)} — {(equal ? "equal" : "DIFFERENT")}");
        foreach (string name in missing)
        {
            Console.WriteLine($"    missing {name}");
        }

        foreach (string name in extra)
        {
            Console.WriteLine($"    extra   {name}");
        }

        return equal;
    }

    /// <summary>Every flavour of the declaring project searched on its own, the answers merged by display name.</summary>
    private static async Task<(SortedSet<string> Names, List<string> Flavours)> DirectUnionAsync(Solution solution, string typeName)
    {
        SortedSet<string> names = new(StringComparer.Ordinal);
        List<string> flavours = [];
        foreach (Project project in solution.Projects)
        {
            Compilation compilation = (await project.GetCompilationAsync())!;
            if (compilation.GetTypeByMetadataName(typeName) is not { } type || !SymbolEqualityComparer.Default.Equals(type.ContainingAssembly, compilation.Assembly))
            {
                continue;
            }

            flavours.Add(project.Name);
            IEnumerable<INamedTypeSymbol> found = type.TypeKind == TypeKind.Interface
                ? [.. await SymbolFinder.FindDerivedInterfacesAsync(type, solution, transitive: true), .. await SymbolFinder.FindImplementationsAsync(type, solution, transitive: true)]
                : await SymbolFinder.FindDerivedClassesAsync(type, solution, transitive: true);
            names.UnionWith(found.Select(t => t.OriginalDefinition.ToDisplayString(TypeNameFormat)));
        }

        if (flavours.Count == 0)
        {
            throw new InvalidOperationException($"{typeName} is not declared in {solution.FilePath}.");
        }

        return (names, flavours);
    }
}
