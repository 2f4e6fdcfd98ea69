using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Navigation;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Lsp;

/// <summary>
/// LSP call hierarchy (prepare, incoming, outgoing) and type hierarchy (prepare, supertypes, subtypes), from
/// the same searches navigate's callers, callees, supertypes and subtypes use: every flavour of a
/// multi-targeted project, merged. An item names a symbol by its declaration; the item a client sends back is
/// resolved again from its uri and selectionRange start, so nothing has to be remembered between requests.
/// Symbols without source in the workspace (metadata) cannot be items: LSP items need a document.
/// </summary>
internal static class LspHierarchies
{
    public static JsonArray PrepareCallHierarchy(Document document, ISymbol? symbol, string workspace)
    {
        ISymbol? callable = symbol switch
        {
            IMethodSymbol { MethodKind: MethodKind.LocalFunction or MethodKind.AnonymousFunction } => null,
            IMethodSymbol or IPropertySymbol or IEventSymbol => symbol,
            _ => null,
        };
        return ItemsOf(callable is null ? [] : [Item(callable.OriginalDefinition, document.FilePath, workspace)]);
    }

    public static async Task<JsonArray> IncomingCallsAsync(ISymbol symbol, Solution solution, string workspace, CancellationToken cancellationToken)
    {
        // One call entry per calling symbol and file: fromRanges are relative to the caller's document.
        Dictionary<(string Caller, string File), (JsonObject From, List<LinePositionSpan> Ranges)> calls = [];
        foreach (CallSites caller in (await CallGraph.CallerSitesAsync(symbol, solution, l => SymbolFormat.IsGenerated(l, solution), new CallerSearches(), cancellationToken).ConfigureAwait(false)).Callers)
        {
            foreach (Location site in caller.Sites)
            {
                string file = site.SourceTree!.FilePath;
                if (Item(caller.Symbol, file, workspace) is not { } from)
                {
                    continue;
                }

                (string, string) key = (Flavours.Identity(caller.Symbol, solution), file);
                if (!calls.TryGetValue(key, out (JsonObject From, List<LinePositionSpan> Ranges) entry))
                {
                    calls[key] = entry = (from, []);
                }

                entry.Ranges.Add(site.GetLineSpan().Span);
            }
        }

        return CallsOf(calls.Values, "from");
    }

    public static async Task<JsonArray> OutgoingCallsAsync(ISymbol symbol, string itemFile, Solution solution, string workspace, CancellationToken cancellationToken)
    {
        (List<CallSites> callees, _) = await CallGraph.CalleeSitesAsync(symbol, solution, cancellationToken).ConfigureAwait(false);
        List<(JsonObject To, List<LinePositionSpan> Ranges)> calls = [];
        foreach (CallSites callee in callees)
        {
            // fromRanges are relative to the requested item: the sites in its document.
            List<LinePositionSpan> ranges = [.. callee.Sites.Where(s => PathUtil.Comparer.Equals(s.SourceTree?.FilePath, itemFile)).Select(s => s.GetLineSpan().Span)];
            if (ranges.Count > 0 && Item(callee.Symbol, preferredFile: null, workspace) is { } to)
            {
                calls.Add((to, ranges));
            }
        }

        return CallsOf(calls, "to");
    }

    public static JsonArray PrepareTypeHierarchy(Document document, ISymbol? symbol, string workspace) =>
        ItemsOf(symbol is INamedTypeSymbol type ? [Item(type.OriginalDefinition, document.FilePath, workspace)] : []);

    /// <summary>The direct base class and the directly listed interfaces (a client expands further itself).</summary>
    public static JsonArray Supertypes(ISymbol symbol, string workspace)
    {
        if (symbol is not INamedTypeSymbol type)
        {
            return [];
        }

        IEnumerable<INamedTypeSymbol> direct = type.BaseType is { } baseType ? [baseType, .. type.Interfaces] : type.Interfaces;
        return ItemsOf(direct.Select(t => Item(t.OriginalDefinition, preferredFile: null, workspace)));
    }

    /// <summary>The direct derived classes, derived interfaces and implementations, from every flavour of the declaring project.</summary>
    public static async Task<JsonArray> SubtypesAsync(ISymbol symbol, Solution solution, string workspace, CancellationToken cancellationToken)
    {
        if (symbol is not INamedTypeSymbol type)
        {
            return [];
        }

        List<ISymbol> found = await Flavours.SearchAllAsync(type, solution, async flavour =>
        {
            INamedTypeSymbol named = (INamedTypeSymbol)flavour;
            return named.TypeKind switch
            {
                TypeKind.Interface =>
                [
                    .. await SymbolFinder.FindDerivedInterfacesAsync(named, solution, transitive: false, cancellationToken: cancellationToken).ConfigureAwait(false),
                    .. await SymbolFinder.FindImplementationsAsync(named, solution, transitive: false, cancellationToken: cancellationToken).ConfigureAwait(false),
                ],
                TypeKind.Class => await SymbolFinder.FindDerivedClassesAsync(named, solution, transitive: false, cancellationToken: cancellationToken).ConfigureAwait(false),
                _ => [],
            };
        }, cancellationToken).ConfigureAwait(false);
        return ItemsOf(found.Select(s => Item(s.OriginalDefinition, preferredFile: null, workspace)));
    }

    /// <summary>
    /// The symbol a hierarchy item a client sent back names: the declaration at its selectionRange start.
    /// </summary>
    public static async Task<(ISymbol Symbol, string File)> SymbolOfItemAsync(JsonObject request, Solution solution, string workspace, Func<Solution, string, JsonObject, List<Document>> documentsOf, CancellationToken cancellationToken)
    {
        JsonObject item = request["item"] as JsonObject
            ?? throw SemanticException.InvalidRequest("The request needs item (a hierarchy item from the prepare request).");
        List<Document> documents = documentsOf(solution, workspace, new JsonObject { ["textDocument"] = new JsonObject { ["uri"] = item["uri"]?.DeepClone() } });
        SourceText text = await documents[0].GetTextAsync(cancellationToken).ConfigureAwait(false);
        LinePosition start = LspPosition.Read(text, (item["selectionRange"] as JsonObject)?["start"], "item.selectionRange.start", PathUtil.ToWorkspaceRelative(workspace, documents[0].FilePath!));

        // The default flavour first; a declaration under #if is active in one flavour only.
        int position = text.Lines.GetPosition(start);
        foreach (Document document in documents)
        {
            if (await SymbolFinder.FindSymbolAtPositionAsync(document, position, cancellationToken).ConfigureAwait(false) is { } symbol)
            {
                return (symbol.OriginalDefinition, document.FilePath!);
            }
        }

        throw SemanticException.InvalidRequest($"No symbol is declared at item.selectionRange.start {start.Line}:{start.Character}; the document changed since the prepare request, so prepare again.");
    }

    /// <summary>
    /// An LSP CallHierarchyItem / TypeHierarchyItem (the same shape): the declaration in
    /// <paramref name="preferredFile"/> when the symbol has one there (a partial type's part), else its first.
    /// </summary>
    private static JsonObject? Item(ISymbol symbol, string? preferredFile, string workspace)
    {
        List<Location> locations = [.. symbol.Locations.Where(l => l.IsInSource && !string.IsNullOrEmpty(l.SourceTree!.FilePath) && PathUtil.IsUnder(l.SourceTree.FilePath, workspace))];
        Location? location = locations.FirstOrDefault(l => PathUtil.Comparer.Equals(l.SourceTree!.FilePath, preferredFile)) ?? locations.FirstOrDefault();
        if (location is null)
        {
            return null;
        }

        TextSpan declaration = symbol.DeclaringSyntaxReferences.FirstOrDefault(r => r.SyntaxTree == location.SourceTree && r.Span.Contains(location.SourceSpan))?.Span ?? location.SourceSpan;
        SourceText text = location.SourceTree!.GetText();
        return new JsonObject
        {
            ["name"] = symbol is IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor } ? symbol.ContainingType.Name : symbol.Name,
            ["kind"] = LspDocumentSymbols.KindOf(symbol),
            ["detail"] = symbol.ToDisplayString(SymbolFormat.NameFormat),
            ["uri"] = LspRequestService.UriOf(location.SourceTree.FilePath),
            ["range"] = LspRequestService.Range(text.Lines.GetLinePositionSpan(declaration)),
            ["selectionRange"] = LspRequestService.Range(location.GetLineSpan().Span),
        };
    }

    /// <summary>Items once each, in file and position order.</summary>
    private static JsonArray ItemsOf(IEnumerable<JsonObject?> items)
    {
        JsonArray result = [];
        foreach (JsonObject item in items.OfType<JsonObject>().DistinctBy(Key).OrderBy(Key, StringComparer.Ordinal))
        {
            result.Add(item);
        }

        return result;
    }

    private static JsonArray CallsOf(IEnumerable<(JsonObject Item, List<LinePositionSpan> Ranges)> calls, string itemName)
    {
        JsonArray result = [];
        foreach ((JsonObject item, List<LinePositionSpan> ranges) in calls.OrderBy(c => Key(c.Item), StringComparer.Ordinal))
        {
            JsonArray fromRanges = [];
            foreach (LinePositionSpan range in ranges.Distinct().OrderBy(r => r.Start))
            {
                fromRanges.Add(LspRequestService.Range(range));
            }

            result.Add(new JsonObject { [itemName] = item, ["fromRanges"] = fromRanges });
        }

        return result;
    }

    /// <summary>Orders by file, then line and character of the selection (zero-padded so text order is position order).</summary>
    private static string Key(JsonObject item)
    {
        JsonNode start = item["selectionRange"]!["start"]!;
        return $"{item["uri"]!.GetValue<string>()}|{start["line"]!.GetValue<int>():D8}|{start["character"]!.GetValue<int>():D8}";
    }
}
