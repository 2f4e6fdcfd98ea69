using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>An excluded source generator as answers name it: the assembly's name and where it comes from.</summary>
/// <param name="Name">File name of the assembly without its extension (Markers.Gen).</param>
/// <param name="Origin">"project generator", "package generator Id/version" or "generator".</param>
public sealed record ExcludedGeneratorName(string Name, string Origin);

/// <summary>
/// Which compilations lack an excluded generator's output, the one rule for every answer that says so. A project
/// is in reach of a generator SharpClaw excluded (project- or package-supplied, with a <c>[Generator]</c> type)
/// when the generator runs in it, or in a project it references directly or transitively: its own code or the
/// referenced assembly misses what the generator writes, so any of its errors may be a knock-on (CS0311 where the
/// generator adds an interface, CS0518 where it writes a polyfill). Only a generator of a type's own project can
/// complete a <c>partial</c> type. Answers that list what could also live in generated code (implementations,
/// subtypes, references, callers) name the generators of the projects that can see the symbol.
/// </summary>
internal sealed class GeneratorReach
{
    private static readonly ConditionalWeakTable<Solution, ConditionalWeakTable<IReadOnlyList<AnalyzerExclusion>, GeneratorReach>> Cache = [];

    private readonly Dictionary<ProjectId, List<ExcludedGeneratorName>> own;
    private readonly Dictionary<ProjectId, List<ExcludedGeneratorName>> inReach;

    private GeneratorReach(Dictionary<ProjectId, List<ExcludedGeneratorName>> own, Dictionary<ProjectId, List<ExcludedGeneratorName>> inReach)
    {
        this.own = own;
        this.inReach = inReach;
    }

    /// <summary>True when no project of the solution is in reach of an excluded generator.</summary>
    public bool IsEmpty => this.inReach.Count == 0;

    /// <summary>The reach in <paramref name="solution"/> of the generators <paramref name="context"/> excluded (computed once per solution snapshot).</summary>
    public static GeneratorReach Of(SemanticContext context, Solution solution) =>
        Cache.GetValue(solution, _ => []).GetValue(context.ExcludedAnalyzers, exclusions => Build(exclusions, context.Frameworks, solution));

    /// <summary>The excluded generators that run in the project itself (they could complete its partial types, or call and implement what it sees).</summary>
    public IReadOnlyList<ExcludedGeneratorName> Own(ProjectId project) => this.own.GetValueOrDefault(project) ?? [];

    /// <summary>The excluded generators whose output the project's compilation lacks: its own and those of the projects it references, transitively.</summary>
    public IReadOnlyList<ExcludedGeneratorName> InReach(ProjectId project) => this.inReach.GetValueOrDefault(project) ?? [];

    /// <summary>The generator names as one string (<c>A, B</c>), the diagnostics' tag.</summary>
    public static string Names(IEnumerable<ExcludedGeneratorName> generators) =>
        string.Join(", ", generators.Select(g => g.Name).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal));

    /// <summary>
    /// The generators that could add to an answer about <paramref name="symbol"/>, with the projects they run in:
    /// those of the projects that can see it (its declaring project's flavours, and for anything not private the
    /// projects that depend on them; for a symbol from metadata, the projects whose compilations see its type). With <paramref name="implementable"/>, only when generated code could implement,
    /// override or derive from it (an interface, a class that is neither sealed nor static, a virtual, abstract or
    /// interface member). Null when none could.
    /// </summary>
    public List<GeneratorGap>? Gaps(ISymbol symbol, Solution solution, string workspace, bool implementable)
    {
        if (this.own.Count == 0 || (implementable && !CanBeImplemented(symbol)))
        {
            return null;
        }

        Dictionary<ExcludedGeneratorName, SortedSet<string>> byGenerator = [];
        this.AddSeeing(symbol, solution, workspace, byGenerator);
        return Listed(byGenerator);
    }

    /// <summary>
    /// The generators whose code could call any of <paramref name="members"/> (the members a test walk visited: generated
    /// code calling one of them is a way to tests the walk cannot follow), with the projects they run in. Null when none.
    /// </summary>
    public List<GeneratorGap>? WalkGaps(IEnumerable<ISymbol> members, Solution solution, string workspace)
    {
        if (this.own.Count == 0)
        {
            return null;
        }

        Dictionary<ExcludedGeneratorName, SortedSet<string>> byGenerator = [];
        HashSet<string> seen = new(StringComparer.Ordinal);
        foreach (ISymbol member in members)
        {
            // Members of one project with the same visibility are seen by the same projects: look each case up once.
            List<ProjectId> declaring = Declaring(member, solution);
            string key = declaring.Count == 0
                ? "metadata:" + (member as INamedTypeSymbol ?? member.ContainingType)?.ToDisplayString() + (IsPrivate(member) ? ":private" : string.Empty)
                : string.Join(",", declaring.Select(d => d.Id)) + (IsPrivate(member) ? ":private" : string.Empty);
            if (!seen.Add(key))
            {
                continue;
            }

            this.AddSeeing(member, solution, workspace, byGenerator);
        }

        return Listed(byGenerator);
    }

    private static List<ProjectId> Declaring(ISymbol symbol, Solution solution) => [.. symbol.OriginalDefinition.Locations
        .Where(l => l.IsInSource && l.SourceTree is not null)
        .Select(l => solution.GetDocumentId(l.SourceTree!)?.ProjectId)
        .OfType<ProjectId>()
        .Distinct()];

    /// <summary>Adds the excluded generators of the projects that can see <paramref name="symbol"/>, with those projects.</summary>
    private void AddSeeing(ISymbol symbol, Solution solution, string workspace, Dictionary<ExcludedGeneratorName, SortedSet<string>> byGenerator)
    {
        List<ProjectId> declaring = Declaring(symbol, solution);
        HashSet<ProjectId> seeing = declaring.Count == 0 && !symbol.OriginalDefinition.Locations.Any(l => l.IsInSource)
            ? this.SeeingFromMetadata(symbol, solution)
            : VisibleFrom(solution, declaring, withDependents: !IsPrivate(symbol));
        foreach (ProjectId id in seeing)
        {
            if (!this.own.TryGetValue(id, out List<ExcludedGeneratorName>? generators) || solution.GetProject(id) is not { } project)
            {
                continue;
            }

            string path = project.FilePath is null ? project.Name : PathUtil.ToWorkspaceRelative(workspace, project.FilePath);
            foreach (ExcludedGeneratorName generator in generators)
            {
                if (!byGenerator.TryGetValue(generator, out SortedSet<string>? projects))
                {
                    byGenerator[generator] = projects = new(StringComparer.Ordinal);
                }

                projects.Add(path);
            }
        }
    }

    private static List<GeneratorGap>? Listed(Dictionary<ExcludedGeneratorName, SortedSet<string>> byGenerator) =>
        byGenerator.Count == 0
            ? null
            : [.. byGenerator
                .OrderBy(g => g.Key.Name, StringComparer.Ordinal)
                .Select(g => new GeneratorGap(g.Key.Name, g.Key.Origin, g.Value.Count, [.. g.Value.Take(GeneratorGap.MaxProjects)]))];

    /// <summary>
    /// <see cref="Gaps"/>, and first the excluded generators that may declare the symbol's type themselves
    /// (<see cref="GeneratorDeclaredNames"/>): where uses of its name bind to nothing, nothing there can be listed.
    /// </summary>
    public async Task<List<GeneratorGap>?> GapsAsync(ISymbol symbol, Solution solution, string workspace, bool implementable, CancellationToken cancellationToken)
    {
        List<GeneratorGap>? gaps = this.Gaps(symbol, solution, workspace, implementable);
        if (this.IsEmpty)
        {
            return gaps;
        }

        List<GeneratorGap>? declaring = await GeneratorDeclaredNames.GapsAsync(this, solution, workspace, symbol, cancellationToken).ConfigureAwait(false);
        return declaring is null ? gaps : [.. declaring, .. gaps ?? []];
    }

    /// <summary>
    /// A test walk's caveat: the generators that may declare a start symbol's type themselves (<see cref="GapsAsync"/>),
    /// then those whose code could call any member the walk visited (<see cref="WalkGaps"/>), each generator once.
    /// </summary>
    public async Task<List<GeneratorGap>?> TestWalkGapsAsync(IEnumerable<ISymbol> starts, IEnumerable<ISymbol> members, Solution solution, string workspace, CancellationToken cancellationToken)
    {
        List<GeneratorGap> gaps = [];
        if (!this.IsEmpty)
        {
            foreach (ISymbol start in starts)
            {
                gaps.AddRange(await GeneratorDeclaredNames.GapsAsync(this, solution, workspace, start, cancellationToken).ConfigureAwait(false) ?? []);
            }
        }

        gaps.AddRange(this.WalkGaps(members, solution, workspace) ?? []);
        return gaps.Count == 0 ? null : [.. gaps.DistinctBy(g => g.Generator)];
    }

    /// <summary>
    /// The projects running an excluded generator that see a symbol from metadata (System.IServiceProvider, a package's
    /// interface): it has no declaring project, and any project referencing its assembly could have generated code
    /// implement or call it. A project whose compilation is at hand is asked for the type; one whose compilation is not
    /// is counted (the caveat says "could"). Nothing outside a private symbol's own assembly sees it.
    /// </summary>
    private HashSet<ProjectId> SeeingFromMetadata(ISymbol symbol, Solution solution)
    {
        INamedTypeSymbol? type = symbol as INamedTypeSymbol ?? symbol.ContainingType;
        if (type is null || IsPrivate(symbol))
        {
            return [];
        }

        string metadataName = MetadataName(type.OriginalDefinition);
        HashSet<ProjectId> seeing = [];
        foreach (ProjectId id in this.own.Keys)
        {
            if (solution.GetProject(id) is { } project
                && (!project.TryGetCompilation(out Compilation? compilation) || compilation.GetTypeByMetadataName(metadataName) is not null))
            {
                seeing.Add(id);
            }
        }

        return seeing;
    }

    /// <summary>Ns.Outer+Inner`1, the name <see cref="Compilation.GetTypeByMetadataName"/> takes.</summary>
    private static string MetadataName(INamedTypeSymbol type)
    {
        string name = type.MetadataName;
        for (INamedTypeSymbol? outer = type.ContainingType; outer is not null; outer = outer.ContainingType)
        {
            name = $"{outer.MetadataName}+{name}";
        }

        return type.ContainingNamespace is { IsGlobalNamespace: false } ns ? $"{ns.ToDisplayString()}.{name}" : name;
    }

    /// <summary>Whether generated code could implement, override or derive from the symbol.</summary>
    internal static bool CanBeImplemented(ISymbol symbol) => symbol switch
    {
        INamedTypeSymbol type => type.TypeKind == TypeKind.Interface || (type.TypeKind == TypeKind.Class && !type.IsSealed && !type.IsStatic),
        IMethodSymbol or IPropertySymbol or IEventSymbol => symbol.ContainingType?.TypeKind == TypeKind.Interface
            ? !symbol.IsStatic || symbol.IsAbstract || symbol.IsVirtual
            : symbol.IsAbstract || symbol.IsVirtual || (symbol.IsOverride && !symbol.IsSealed),
        _ => false,
    };

    /// <summary>A symbol only its own type sees (a partial part the generator writes sees it too).</summary>
    internal static bool IsPrivate(ISymbol symbol)
    {
        if (symbol is ILocalSymbol or IParameterSymbol or ILabelSymbol or IRangeVariableSymbol or ITypeParameterSymbol)
        {
            return true;
        }

        for (ISymbol? current = symbol; current is not null and not INamespaceSymbol; current = current.ContainingSymbol)
        {
            if (current.DeclaredAccessibility == Accessibility.Private)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>The declaring projects with every flavour of their project files and, when asked, every project that depends on them.</summary>
    internal static HashSet<ProjectId> VisibleFrom(Solution solution, IEnumerable<ProjectId> declaring, bool withDependents)
    {
        HashSet<ProjectId> ids = [.. declaring];
        foreach (ProjectId id in ids.ToList())
        {
            if (solution.GetProject(id)?.FilePath is { } file)
            {
                ids.UnionWith(solution.Projects.Where(p => p.FilePath is { } other && PathUtil.Comparer.Equals(other, file)).Select(p => p.Id));
            }
        }

        if (withDependents)
        {
            ProjectDependencyGraph graph = solution.GetProjectDependencyGraph();
            foreach (ProjectId id in ids.ToList())
            {
                ids.UnionWith(graph.GetProjectsThatTransitivelyDependOnThisProject(id));
            }
        }

        return ids;
    }

    private static GeneratorReach Build(IReadOnlyList<AnalyzerExclusion> exclusions, IReadOnlyDictionary<ProjectId, string?> frameworks, Solution solution)
    {
        // The exclusions name a project file and the framework of its flavour (null: every flavour).
        Dictionary<string, List<AnalyzerExclusion>> byFile = exclusions
            .Where(e => GeneratorDetector.MayContainGenerator(e.AnalyzerPath))
            .GroupBy(e => e.ProjectPath, PathUtil.Comparer)
            .ToDictionary(g => g.Key, g => g.ToList(), PathUtil.Comparer);
        Dictionary<ProjectId, List<ExcludedGeneratorName>> own = [];
        if (byFile.Count > 0)
        {
            foreach (Project project in solution.Projects)
            {
                if (project.FilePath is null || !byFile.TryGetValue(project.FilePath, out List<AnalyzerExclusion>? excluded))
                {
                    continue;
                }

                string? framework = frameworks.GetValueOrDefault(project.Id);
                List<ExcludedGeneratorName> names = [.. excluded
                    .Where(e => e.TargetFramework is null || framework is null || string.Equals(e.TargetFramework, framework, StringComparison.OrdinalIgnoreCase))
                    .Select(NameOf)
                    .Distinct()
                    .OrderBy(g => g.Name, StringComparer.Ordinal)];
                if (names.Count > 0)
                {
                    own[project.Id] = names;
                }
            }
        }

        Dictionary<ProjectId, List<ExcludedGeneratorName>> inReach = [];
        if (own.Count > 0)
        {
            ProjectDependencyGraph graph = solution.GetProjectDependencyGraph();
            foreach (ProjectId id in solution.ProjectIds)
            {
                List<ExcludedGeneratorName> reaching = [.. graph.GetProjectsThatThisProjectTransitivelyDependsOn(id).Prepend(id)
                    .SelectMany(p => own.GetValueOrDefault(p) ?? [])
                    .Distinct()
                    .OrderBy(g => g.Name, StringComparer.Ordinal)];
                if (reaching.Count > 0)
                {
                    inReach[id] = reaching;
                }
            }
        }

        return new GeneratorReach(own, inReach);
    }

    private static ExcludedGeneratorName NameOf(AnalyzerExclusion exclusion) => new(
        Path.GetFileNameWithoutExtension(exclusion.AnalyzerPath),
        exclusion.Origin switch
        {
            AnalyzerOrigin.Project => "project generator",
            AnalyzerOrigin.Package when exclusion.Package is { } package => $"package generator {package}",
            AnalyzerOrigin.Package => "package generator",
            _ => "generator",
        });
}
