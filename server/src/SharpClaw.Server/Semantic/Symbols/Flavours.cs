using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// The same symbol in every flavour (target framework compilation) of its declaring project. A
/// multi-targeted library's consumers compile against one flavour each, so a search for implementations,
/// subtypes or callers starts from every flavour and the answers are merged. Symbols are matched across
/// compilations by their documentation comment id (namespace, containing types, name and signature),
/// which also finds a member declared differently per framework under <c>#if</c>. Answers from one
/// compilation use the default flavour: the one most of the solution compiles against (the most projects
/// that depend on it, directly or transitively; ties go to the first by compilation name).
/// </summary>
internal static class Flavours
{
    /// <summary><paramref name="symbol"/> followed by its counterparts in the other flavours of its declaring projects.</summary>
    public static async Task<List<ISymbol>> OfAsync(ISymbol symbol, Solution solution, CancellationToken cancellationToken)
    {
        List<ISymbol> result = [symbol];
        ISymbol definition = symbol.OriginalDefinition;
        if (DocumentationCommentId.CreateDeclarationId(definition) is not { Length: > 0 } id)
        {
            return result;
        }

        HashSet<ProjectId> declaring = [.. definition.Locations
            .Where(l => l.IsInSource && l.SourceTree is not null)
            .Select(l => solution.GetDocumentId(l.SourceTree!)?.ProjectId)
            .OfType<ProjectId>()];
        HashSet<string> files = new(declaring.Select(p => solution.GetProject(p)?.FilePath).OfType<string>(), PathUtil.Comparer);
        foreach (Project project in solution.Projects.Where(p => !declaring.Contains(p.Id) && p.FilePath is { } file && files.Contains(file)))
        {
            if (await project.GetCompilationAsync(cancellationToken).ConfigureAwait(false) is not { } compilation)
            {
                continue;
            }

            foreach (ISymbol counterpart in DocumentationCommentId.GetSymbolsForDeclarationId(id, compilation))
            {
                if (SymbolEqualityComparer.Default.Equals(counterpart.ContainingAssembly, compilation.Assembly) && counterpart.Kind == definition.Kind)
                {
                    result.Add(counterpart);
                }
            }
        }

        return result;
    }

    /// <summary>
    /// True when every declaration of <paramref name="flavour"/> sits at the same place of the same file as one of
    /// <paramref name="searched"/>'s: the same declaration compiled in another flavour (a linked document), which
    /// Roslyn's reference and caller search already follows from <paramref name="searched"/> (its linked-file
    /// cascade), so searching from it again finds nothing new. A member declared differently per framework
    /// (under <c>#if</c>, or in a file only one flavour compiles) is not.
    /// </summary>
    public static bool IsLinkedCounterpart(ISymbol flavour, ISymbol searched)
    {
        HashSet<(string Path, int Start, int Length)> places = [.. Places(searched)];
        List<(string Path, int Start, int Length)> mine = [.. Places(flavour)];
        // An implicit constructor sits at its type's name in every flavour, yet Roslyn's search does not cascade
        // across linked files from it: each flavour's must be searched.
        return mine.Count > 0 && !flavour.IsImplicitlyDeclared && mine.TrueForAll(places.Contains);

        static IEnumerable<(string, int, int)> Places(ISymbol symbol) => symbol.OriginalDefinition.Locations
            .Where(l => l.IsInSource && l.SourceTree is not null)
            .Select(l => (l.SourceTree!.FilePath, l.SourceSpan.Start, l.SourceSpan.Length));
    }

    /// <summary>The target frameworks of the flavours <see cref="OfAsync"/> found, in order.</summary>
    public static List<string> Frameworks(IEnumerable<ISymbol> flavours, Solution solution, IReadOnlyDictionary<ProjectId, string?> frameworks) =>
        [.. flavours
            .SelectMany(s => s.Locations.Where(l => l.IsInSource && l.SourceTree is not null).Select(l => solution.GetDocumentId(l.SourceTree!)?.ProjectId).Take(1))
            .OfType<ProjectId>()
            .Select(p => frameworks.GetValueOrDefault(p))
            .OfType<string>()
            .Distinct(StringComparer.Ordinal)
            .Order(StringComparer.Ordinal)];

    /// <summary>Runs <paramref name="search"/> from every flavour of <paramref name="symbol"/> and merges the results (one entry per symbol and project file).</summary>
    public static async Task<List<ISymbol>> SearchAllAsync(ISymbol symbol, Solution solution, Func<ISymbol, Task<IEnumerable<ISymbol>>> search, CancellationToken cancellationToken)
    {
        List<ISymbol> merged = [];
        HashSet<string> seen = new(StringComparer.Ordinal);
        foreach (ISymbol flavour in await OfAsync(symbol, solution, cancellationToken).ConfigureAwait(false))
        {
            foreach (ISymbol found in await search(flavour).ConfigureAwait(false))
            {
                if (seen.Add(Identity(found, solution)))
                {
                    merged.Add(found);
                }
            }
        }

        return merged;
    }

    /// <summary>One key for a symbol in every flavour of one project: its declaration id and its project file (or assembly).</summary>
    public static string Identity(ISymbol symbol, Solution solution)
    {
        ISymbol definition = symbol.OriginalDefinition;
        string id = DocumentationCommentId.CreateDeclarationId(definition) ?? definition.ToDisplayString(SymbolFormat.NameFormat);
        string? owner = definition.Locations
            .Where(l => l.IsInSource && l.SourceTree is not null)
            .Select(l => solution.GetDocument(l.SourceTree!)?.Project.FilePath ?? l.SourceTree!.FilePath)
            .FirstOrDefault();
        return $"{id}|{owner ?? definition.ContainingAssembly?.Identity.Name}";
    }

    /// <summary>0 for the default flavour of its project file (or a project with one flavour), 1 for the others: sort by it to prefer the default.</summary>
    public static int Rank(Project project) =>
        project.FilePath is { } file && TableOf(project.Solution).TryGetValue(file, out FileFlavours? flavours) && flavours.Default != project.Id ? 1 : 0;

    /// <summary>
    /// What an answer from <paramref name="answering"/> says about flavours: null for a project with one; else
    /// every framework, whether all were searched, and how many dependent projects compile against the answering one.
    /// </summary>
    public static FlavourNote? Note(Project answering, IReadOnlyDictionary<ProjectId, string?> frameworks, bool searched)
    {
        if (answering.FilePath is not { } file || !TableOf(answering.Solution).TryGetValue(file, out FileFlavours? flavours))
        {
            return null;
        }

        List<string> names = [.. flavours.Flavours.Select(f => frameworks.GetValueOrDefault(f.Id) ?? answering.Solution.GetProject(f.Id)?.Name ?? "?")];
        int against = flavours.Flavours.Find(f => f.Id == answering.Id).Votes;
        return new FlavourNote(names, searched, flavours.Dependents, against);
    }

    /// <summary>The flavours of one project file: each with the dependent project files compiling against it, and the default.</summary>
    private sealed record FileFlavours(List<(ProjectId Id, int Votes)> Flavours, int Dependents, ProjectId Default);

    private static readonly ConditionalWeakTable<Solution, Dictionary<string, FileFlavours>> Tables = [];

    private static Dictionary<string, FileFlavours> TableOf(Solution solution) => Tables.GetValue(solution, Build);

    private static Dictionary<string, FileFlavours> Build(Solution solution)
    {
        Dictionary<string, FileFlavours> table = new(PathUtil.Comparer);
        ProjectDependencyGraph graph = solution.GetProjectDependencyGraph();
        foreach (IGrouping<string, Project> group in solution.Projects.Where(p => p.FilePath is not null).GroupBy(p => p.FilePath!, PathUtil.Comparer))
        {
            List<Project> flavours = [.. group.OrderBy(p => p.Name, StringComparer.Ordinal)];
            if (flavours.Count < 2)
            {
                continue;
            }

            HashSet<string> all = new(PathUtil.Comparer);
            List<(ProjectId Id, int Votes)> votes = [];
            foreach (Project flavour in flavours)
            {
                HashSet<string> dependents = new(graph.GetProjectsThatTransitivelyDependOnThisProject(flavour.Id)
                    .Select(id => solution.GetProject(id)?.FilePath)
                    .OfType<string>()
                    .Where(f => !PathUtil.Comparer.Equals(f, group.Key)), PathUtil.Comparer);
                all.UnionWith(dependents);
                votes.Add((flavour.Id, dependents.Count));
            }

            // The most dependents; the first by name on a tie (the list is in name order, MaxBy keeps the first).
            ProjectId chosen = votes.MaxBy(v => v.Votes).Id;
            table[group.Key] = new FileFlavours(votes, all.Count, chosen);
        }

        return table;
    }
}
