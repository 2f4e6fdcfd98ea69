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
/// both counts and every name on one side only. The direct workspace runs every source generator the
/// projects reference (a built project generator too), which the host excludes; so each name only the direct
/// side has is checked against the answer's generator caveat (<see cref="GeneratorGap"/>): explained when its
/// project runs a generator the caveat names (or the caveat says it lists only the first of more projects), else
/// unexplained. A type the solution does not declare (System.IServiceProvider) is searched from every project
/// that sees it. Exits 1 when a name is extra, or missing without the caveat naming it. Repeatable on a real solution.
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
            (SortedDictionary<string, string> union, List<string> flavours) = await DirectUnionAsync(solution, workspace, MetadataName(typeName));
            SortedSet<string> fromHierarchy = new([.. hierarchy.DerivedTypes.Items.Select(s => s.Name), .. hierarchy.Implementations.Items.Select(s => s.Name)], StringComparer.Ordinal);
            SortedSet<string> fromSubtypes = new((subtypes.Related ?? []).Select(r => r.Name), StringComparer.Ordinal);
            Console.WriteLine($"{typeName}: direct union over {flavours.Count} flavours ({Shorten(flavours)}): {union.Count}");
            allEqual &= Compare("csharp_type_hierarchy derived+implementations", fromHierarchy, union, hierarchy.DerivedTypes.Truncated || hierarchy.Implementations.Truncated, hierarchy.GeneratorGaps);
            allEqual &= Compare("csharp_navigate subtypes", fromSubtypes, union, subtypes.Truncated, subtypes.GeneratorGaps);
        }

        return allEqual ? 0 : 1;
    }

    private static string Shorten(List<string> names) =>
        names.Count <= 6 ? string.Join(", ", names) : $"{string.Join(", ", names.Take(6))} and {names.Count - 6} more";

    /// <summary>Ns.IBuffer&lt;T&gt; (the host's name) → Ns.IBuffer`1 (Roslyn's metadata name).</summary>
    private static string MetadataName(string typeName) =>
        typeName.IndexOf('<', StringComparison.Ordinal) is var open and > 0 ? $"{typeName[..open]}`{typeName.Count(c => c == ',') + 1}" : typeName;

    /// <summary>
    /// Prints the surface's count, its generator caveat, and each name on one side only; a name only the direct side
    /// has is explained when the caveat names its project (or lists only the first of more projects).
    /// </summary>
    private static bool Compare(string surface, SortedSet<string> ours, SortedDictionary<string, string> direct, bool truncated, IReadOnlyList<GeneratorGap>? gaps)
    {
        List<string> missing = [.. direct.Keys.Except(ours)];
        List<string> extra = [.. ours.Except(direct.Keys)];
        HashSet<string> named = new((gaps ?? []).SelectMany(g => g.Projects), StringComparer.Ordinal);
        bool listsAll = (gaps ?? []).All(g => g.Projects.Count == g.ProjectCount);
        int unexplained = missing.Count(name => !named.Contains(direct[name]) && listsAll);
        bool equal = missing.Count == 0 && extra.Count == 0 && !truncated;
        string verdict = equal ? "equal" : extra.Count == 0 && unexplained == 0 && !truncated ? $"{missing.Count} missing, each in a project the caveat names" : "DIFFERENT";
        Console.WriteLine($"  {surface}: {ours.Count}{(truncated ? " (truncated)" : string.Empty)} — {verdict}");
        foreach (GeneratorGap gap in gaps ?? [])
        {
            Console.WriteLine($"    caveat: {gap.Generator} ({gap.Origin}) in {gap.ProjectCount} project(s): {string.Join(", ", gap.Projects)}");
        }

        foreach (string name in missing)
        {
            string project = direct[name];
            string why = named.Contains(project) ? "named by the caveat" : listsAll ? "NOT NAMED" : "caveat lists only its first projects";
            Console.WriteLine($"    missing {name} ({project}: {why})");
        }

        foreach (string name in extra)
        {
            Console.WriteLine($"    extra   {name}");
        }

        return extra.Count == 0 && unexplained == 0 && !truncated;
    }

    /// <summary>
    /// Every flavour of the declaring project searched on its own, the answers merged by display name, each with the
    /// workspace-relative project declaring it. A type no project declares (one from a framework or a package) is
    /// searched from every flavour whose compilation sees it.
    /// </summary>
    private static async Task<(SortedDictionary<string, string> Names, List<string> Flavours)> DirectUnionAsync(Solution solution, string workspace, string typeName)
    {
        SortedDictionary<string, string> names = new(StringComparer.Ordinal);
        List<string> flavours = [];
        List<(Project Project, INamedTypeSymbol Type)> seen = [];
        List<(Project Project, INamedTypeSymbol Type)> declaring = [];
        foreach (Project project in solution.Projects)
        {
            Compilation compilation = (await project.GetCompilationAsync())!;
            if (compilation.GetTypeByMetadataName(typeName) is { } type)
            {
                seen.Add((project, type));
                if (SymbolEqualityComparer.Default.Equals(type.ContainingAssembly, compilation.Assembly))
                {
                    declaring.Add((project, type));
                }
            }
        }

        foreach ((Project project, INamedTypeSymbol type) in declaring.Count > 0 ? declaring : seen)
        {
            flavours.Add(project.Name);
            IEnumerable<INamedTypeSymbol> found = type.TypeKind == TypeKind.Interface
                ? [.. await SymbolFinder.FindDerivedInterfacesAsync(type, solution, transitive: true), .. await SymbolFinder.FindImplementationsAsync(type, solution, transitive: true)]
                : await SymbolFinder.FindDerivedClassesAsync(type, solution, transitive: true);
            foreach (INamedTypeSymbol implementation in found.Where(t => t.Locations.Any(l => l.IsInSource)))
            {
                Project? owner = solution.Projects.FirstOrDefault(p => p.AssemblyName == implementation.ContainingAssembly.Name);
                string projectPath = owner?.FilePath is { } file ? Path.GetRelativePath(workspace, file).Replace('\\', '/') : implementation.ContainingAssembly.Name;
                names.TryAdd(implementation.OriginalDefinition.ToDisplayString(TypeNameFormat), projectPath);
            }
        }

        if (flavours.Count == 0)
        {
            throw new InvalidOperationException($"{typeName} is not declared in or visible to {solution.FilePath}.");
        }

        return (names, flavours);
    }
}
