using Microsoft.CodeAnalysis;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// The same symbol in every flavour (target framework compilation) of its declaring project. A
/// multi-targeted library's consumers compile against one flavour each, so a search for implementations,
/// subtypes or callers starts from every flavour and the answers are merged. Symbols are matched across
/// compilations by their documentation comment id (namespace, containing types, name and signature),
/// which also finds a member declared differently per framework under <c>#if</c>.
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
}
