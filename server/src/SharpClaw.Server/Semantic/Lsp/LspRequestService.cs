using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Rename;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Edits;
using SharpClaw.Server.Semantic.Navigation;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Lsp;

/// <summary>
/// <c>sharpclaw/lspRequest</c>: a raw Language Server Protocol request (zero-based positions, file URIs)
/// answered from the host's loaded solution with Roslyn's own services, in the shapes the LSP
/// specification gives. Nothing is written: <c>textDocument/rename</c> returns the WorkspaceEdit.
/// Lifecycle and document-sync methods are not requests an agent may send; other methods are
/// answered only where listed in <see cref="Methods"/>.
/// </summary>
public sealed class LspRequestService(SemanticContextCache cache)
{
    /// <summary>The methods this service answers, in the order <c>lsp capabilities</c> lists them.</summary>
    public static IReadOnlyList<string> Methods { get; } =
    [
        "textDocument/definition",
        "textDocument/typeDefinition",
        "textDocument/implementation",
        "textDocument/references",
        "textDocument/hover",
        "textDocument/documentSymbol",
        "workspace/symbol",
        "textDocument/prepareCallHierarchy",
        "callHierarchy/incomingCalls",
        "callHierarchy/outgoingCalls",
        "textDocument/prepareTypeHierarchy",
        "typeHierarchy/supertypes",
        "typeHierarchy/subtypes",
        "textDocument/diagnostic",
        "textDocument/codeAction",
        "codeAction/resolve",
        "textDocument/prepareRename",
        "textDocument/rename",
    ];

    /// <summary>Not an LSP method: what <c>lsp capabilities</c> asks for, answered without loading anything.</summary>
    public const string CapabilitiesMethod = "sharpclaw/capabilities";

    /// <summary>The methods whose lists code an excluded generator writes could add to, as the navigate action they answer (whose rule decides).</summary>
    private static readonly Dictionary<string, string> NavigateActionOf = new(StringComparer.Ordinal)
    {
        ["textDocument/implementation"] = "implementation",
        ["textDocument/references"] = "references",
        ["callHierarchy/incomingCalls"] = "callers",
        ["typeHierarchy/subtypes"] = "subtypes",
    };

    /// <summary>At most this many workspace symbols are returned (LSP has no paging for them).</summary>
    public const int MaxWorkspaceSymbols = 100;

    public async Task<LspRequestResult> RequestAsync(LspRequestParams parameters, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
    {
        string method = parameters.Method?.Trim() ?? string.Empty;
        if (method.Length == 0)
        {
            throw SemanticException.InvalidRequest($"lsp request needs method. Methods answered: {string.Join(", ", Methods)}.");
        }

        if (method == CapabilitiesMethod)
        {
            return new LspRequestResult(Capabilities().ToJsonString());
        }

        if (!Methods.Contains(method, StringComparer.Ordinal))
        {
            // A method outside the list might change files (workspace/executeCommand does): the caller must say so first.
            throw SemanticException.InvalidRequest(parameters.Apply == true
                ? $"The host does not answer LSP method '{method}'. Methods answered: {string.Join(", ", Methods)}."
                : $"'{method}' is not among the methods answered ({string.Join(", ", Methods)}); a method outside them, and workspace/executeCommand, needs apply: true.");
        }

        JsonObject request = ParseParams(parameters.Params);
        ContextRequest context = SemanticWorkspaceService.CreateRequest(parameters) with { ForWrite = parameters.Apply == true };
        using ContextLease lease = await cache.AcquireAsync(context, authorizer, cancellationToken).ConfigureAwait(false);
        string workspace = context.Target.Workspace;
        Solution solution = lease.Solution;
        (JsonNode? result, ISymbol? symbol) = method switch
        {
            "workspace/symbol" => (await WorkspaceSymbolsAsync(solution, workspace, Text(request, "query") ?? string.Empty, cancellationToken).ConfigureAwait(false), null),
            "textDocument/documentSymbol" => (await DocumentSymbolsAsync(DocumentOf(solution, workspace, request), cancellationToken).ConfigureAwait(false), null),
            "textDocument/diagnostic" => (await DiagnosticsAsync(DocumentOf(solution, workspace, request), cancellationToken).ConfigureAwait(false), null),
            "textDocument/codeAction" => (await LspCodeActions.ListAsync(lease, workspace, DocumentOf(solution, workspace, request), request, cancellationToken).ConfigureAwait(false), null),
            "codeAction/resolve" => (await LspCodeActions.ResolveAsync(lease, workspace, r => DocumentOf(solution, workspace, r), request, cancellationToken).ConfigureAwait(false), null),
            "callHierarchy/incomingCalls" or "callHierarchy/outgoingCalls" or "typeHierarchy/supertypes" or "typeHierarchy/subtypes" =>
                await HierarchyAsync(method, solution, workspace, request, cancellationToken).ConfigureAwait(false),
            _ => await AtPositionAsync(method, solution, workspace, request, cancellationToken).ConfigureAwait(false),
        };

        // The list of an excluded generator's reach gets navigate's caveat: never a confident "none".
        List<GeneratorGap>? gaps = symbol is not null && NavigateActionOf.TryGetValue(method, out string? action) && NavigateService.GeneratorCouldAdd.TryGetValue(action, out bool implementing)
            ? await GeneratorReach.Of(lease.Context, solution).GapsAsync(symbol, solution, workspace, implementing, cancellationToken).ConfigureAwait(false)
            : null;
        return new LspRequestResult(result?.ToJsonString() ?? "null") { GeneratorGaps = gaps };
    }

    /// <summary>The LSP <c>ServerCapabilities</c> of the methods in <see cref="Methods"/>.</summary>
    private static JsonObject Capabilities() => new()
    {
        ["definitionProvider"] = true,
        ["typeDefinitionProvider"] = true,
        ["implementationProvider"] = true,
        ["referencesProvider"] = true,
        ["hoverProvider"] = true,
        ["documentSymbolProvider"] = true,
        ["workspaceSymbolProvider"] = true,
        ["callHierarchyProvider"] = true,
        ["typeHierarchyProvider"] = true,
        ["diagnosticProvider"] = new JsonObject { ["interFileDependencies"] = true, ["workspaceDiagnostics"] = false },
        ["codeActionProvider"] = new JsonObject { ["codeActionKinds"] = new JsonArray(CodeActionService.QuickFix, CodeActionService.Refactor), ["resolveProvider"] = true },
        ["renameProvider"] = new JsonObject { ["prepareProvider"] = true },
        ["positionEncoding"] = "utf-16",
    };

    /// <summary>The answer, and the symbol it is about where a generator caveat may apply.</summary>
    private static async Task<(JsonNode? Result, ISymbol? Symbol)> AtPositionAsync(string method, Solution solution, string workspace, JsonObject request, CancellationToken cancellationToken)
    {
        // A multi-targeted file: the default flavour first, then the others (an #if branch is active in one only).
        List<Document> flavours = DocumentsOf(solution, workspace, request);
        Document document = flavours[0];
        SourceText text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
        int position = text.Lines.GetPosition(LspPosition.Read(text, request["position"], "position", PathUtil.ToWorkspaceRelative(workspace, document.FilePath!)));
        ISymbol? symbol = null;
        foreach (Document flavour in flavours)
        {
            if ((symbol = await SymbolFinder.FindSymbolAtPositionAsync(flavour, position, cancellationToken).ConfigureAwait(false)) is not null)
            {
                document = flavour;
                break;
            }
        }
        if (method == "textDocument/hover")
        {
            return (symbol is null ? null : Hover(symbol, await TokenRangeAsync(document, text, position, cancellationToken).ConfigureAwait(false)), null);
        }

        if (method == "textDocument/prepareCallHierarchy")
        {
            return (LspHierarchies.PrepareCallHierarchy(document, symbol, workspace), null);
        }

        if (method == "textDocument/prepareTypeHierarchy")
        {
            return (LspHierarchies.PrepareTypeHierarchy(document, symbol, workspace), null);
        }

        if (method is "textDocument/prepareRename" or "textDocument/rename")
        {
            return (await RenameAsync(method, solution, document, text, position, symbol, request, cancellationToken).ConfigureAwait(false), null);
        }

        if (symbol is null)
        {
            return (new JsonArray(), null);
        }

        IEnumerable<Location> locations = method switch
        {
            "textDocument/definition" => Definition(symbol).Locations,
            "textDocument/typeDefinition" => TypeOf(symbol)?.OriginalDefinition.Locations ?? [],
            "textDocument/implementation" => await ImplementationsAsync(symbol, solution, cancellationToken).ConfigureAwait(false),
            _ => await ReferencesAsync(symbol, solution, IncludeDeclaration(request), cancellationToken).ConfigureAwait(false),
        };
        return (LocationArray(locations), symbol);
    }

    /// <summary>The calls or types of a hierarchy item sent back from a prepare request, and the item's symbol.</summary>
    private static async Task<(JsonNode? Result, ISymbol? Symbol)> HierarchyAsync(string method, Solution solution, string workspace, JsonObject request, CancellationToken cancellationToken)
    {
        (ISymbol symbol, string file) = await LspHierarchies.SymbolOfItemAsync(request, solution, workspace, DocumentsOf, cancellationToken).ConfigureAwait(false);
        JsonNode? result = method switch
        {
            "callHierarchy/incomingCalls" => await LspHierarchies.IncomingCallsAsync(symbol, solution, workspace, cancellationToken).ConfigureAwait(false),
            "callHierarchy/outgoingCalls" => await LspHierarchies.OutgoingCallsAsync(symbol, file, solution, workspace, cancellationToken).ConfigureAwait(false),
            "typeHierarchy/supertypes" => LspHierarchies.Supertypes(symbol, workspace),
            _ => await LspHierarchies.SubtypesAsync(symbol, solution, workspace, cancellationToken).ConfigureAwait(false),
        };
        return (result, symbol);
    }

    private static ISymbol Definition(ISymbol symbol) => symbol switch
    {
        IMethodSymbol { PartialImplementationPart: { } implementation } => implementation,
        _ => symbol.OriginalDefinition,
    };

    private static ITypeSymbol? TypeOf(ISymbol symbol) => symbol switch
    {
        ITypeSymbol type => type,
        ILocalSymbol local => local.Type,
        IParameterSymbol parameter => parameter.Type,
        IFieldSymbol field => field.Type,
        IPropertySymbol property => property.Type,
        IEventSymbol @event => @event.Type,
        IMethodSymbol method => method.ReturnType,
        _ => null,
    };

    /// <summary>Implementations, overrides and derived classes, from every flavour of the declaring project.</summary>
    private static async Task<IEnumerable<Location>> ImplementationsAsync(ISymbol symbol, Solution solution, CancellationToken cancellationToken)
    {
        List<ISymbol> found = await Symbols.Flavours.SearchAllAsync(symbol.OriginalDefinition, solution, async flavour =>
        {
            List<ISymbol> one = [.. await SymbolFinder.FindImplementationsAsync(flavour, solution, cancellationToken: cancellationToken).ConfigureAwait(false)];
            if (flavour is INamedTypeSymbol { TypeKind: TypeKind.Class } type)
            {
                one.AddRange(await SymbolFinder.FindDerivedClassesAsync(type, solution, transitive: true, cancellationToken: cancellationToken).ConfigureAwait(false));
            }
            else if (flavour.IsVirtual || flavour.IsAbstract || flavour.IsOverride)
            {
                one.AddRange(await SymbolFinder.FindOverridesAsync(flavour, solution, cancellationToken: cancellationToken).ConfigureAwait(false));
            }

            return one;
        }, cancellationToken).ConfigureAwait(false);
        return found.SelectMany(s => s.Locations);
    }

    private static async Task<IEnumerable<Location>> ReferencesAsync(ISymbol symbol, Solution solution, bool includeDeclaration, CancellationToken cancellationToken)
    {
        List<Location> locations = [];
        foreach (ReferencedSymbol referenced in await SymbolFinder.FindReferencesAsync(symbol.OriginalDefinition, solution, cancellationToken).ConfigureAwait(false))
        {
            if (includeDeclaration)
            {
                locations.AddRange(referenced.Definition.Locations);
            }

            locations.AddRange(referenced.Locations.Where(l => !l.IsImplicit).Select(l => l.Location));
        }

        return locations;
    }

    private static async Task<JsonNode?> RenameAsync(string method, Solution solution, Document document, SourceText text, int position, ISymbol? symbol, JsonObject request, CancellationToken cancellationToken)
    {
        if (symbol is null || !symbol.Locations.Any(l => l.IsInSource) || symbol.Locations.Any(l => !l.IsInSource))
        {
            if (method == "textDocument/prepareRename")
            {
                return null; // LSP: nothing here can be renamed.
            }

            throw SemanticException.InvalidRequest("Nothing that can be renamed is at that position (a symbol declared in this workspace's source).");
        }

        JsonObject range = await TokenRangeAsync(document, text, position, cancellationToken).ConfigureAwait(false);
        if (method == "textDocument/prepareRename")
        {
            return new JsonObject { ["range"] = range, ["placeholder"] = symbol.Name };
        }

        string newName = IdentifierRule.Validate(Text(request, "newName") ?? throw SemanticException.InvalidRequest("textDocument/rename needs newName."));
        Solution renamed = await Renamer.RenameSymbolAsync(solution, symbol.OriginalDefinition, new SymbolRenameOptions(), newName, cancellationToken).ConfigureAwait(false);
        JsonObject changes = [];
        foreach (ProjectChanges project in renamed.GetChanges(solution).GetProjectChanges())
        {
            foreach (DocumentId id in project.GetChangedDocuments(onlyGetDocumentsWithTextChanges: true))
            {
                Document before = solution.GetDocument(id)!;
                if (before.FilePath is not { } path || changes.ContainsKey(UriOf(path)))
                {
                    continue; // One edit per file: the flavours of a multi-targeted project share it.
                }

                SourceText beforeText = await before.GetTextAsync(cancellationToken).ConfigureAwait(false);
                JsonArray edits = [];
                foreach (TextChange change in await renamed.GetDocument(id)!.GetTextChangesAsync(before, cancellationToken).ConfigureAwait(false))
                {
                    edits.Add(new JsonObject { ["range"] = Range(beforeText.Lines.GetLinePositionSpan(change.Span)), ["newText"] = change.NewText });
                }

                changes[UriOf(path)] = edits;
            }
        }

        return new JsonObject { ["changes"] = changes };
    }

    private static JsonObject Hover(ISymbol symbol, JsonObject range)
    {
        // The same text as navigate's hover (kind, signature, documentation), as plain text.
        return new JsonObject
        {
            ["contents"] = new JsonObject { ["kind"] = "plaintext", ["value"] = Navigation.HoverText.For(symbol, Symbols.SymbolFormat.KindOf(symbol)) },
            ["range"] = range,
        };
    }

    private static async Task<JsonObject> TokenRangeAsync(Document document, SourceText text, int position, CancellationToken cancellationToken)
    {
        SyntaxNode root = (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false))!;
        SyntaxToken token = root.FindToken(Math.Min(position, Math.Max(0, text.Length - 1)));
        return Range(text.Lines.GetLinePositionSpan(token.Span));
    }

    private static async Task<JsonArray> DocumentSymbolsAsync(Document document, CancellationToken cancellationToken)
    {
        SemanticModel model = (await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false))!;
        SourceText text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
        return LspDocumentSymbols.Of(model, text, cancellationToken);
    }

    private static async Task<JsonArray> WorkspaceSymbolsAsync(Solution solution, string workspace, string query, CancellationToken cancellationToken)
    {
        Dictionary<string, JsonObject> found = new(StringComparer.Ordinal);
        foreach (Project project in solution.Projects.Where(p => p.Language == LanguageNames.CSharp))
        {
            foreach (ISymbol symbol in await SymbolFinder.FindSourceDeclarationsWithPatternAsync(project, query, SymbolFilter.TypeAndMember, cancellationToken).ConfigureAwait(false))
            {
                if (symbol.Locations.FirstOrDefault(l => l.IsInSource) is not { } location || !PathUtil.IsUnder(location.SourceTree!.FilePath, workspace))
                {
                    continue;
                }

                JsonObject lspLocation = LocationOf(location);
                string key = $"{symbol.ToDisplayString()}|{lspLocation.ToJsonString()}";
                found.TryAdd(key, new JsonObject
                {
                    ["name"] = symbol.Name,
                    ["kind"] = LspDocumentSymbols.KindOf(symbol),
                    ["containerName"] = symbol.ContainingSymbol is INamespaceSymbol { IsGlobalNamespace: true } or null ? null : symbol.ContainingSymbol.ToDisplayString(),
                    ["location"] = lspLocation,
                });
            }
        }

        JsonArray result = [];
        foreach (JsonObject symbol in found.OrderBy(f => f.Key, StringComparer.Ordinal).Select(f => f.Value).Take(MaxWorkspaceSymbols))
        {
            result.Add(symbol);
        }

        return result;
    }

    private static async Task<JsonObject> DiagnosticsAsync(Document document, CancellationToken cancellationToken)
    {
        SemanticModel model = (await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false))!;
        JsonArray items = [];
        foreach (Diagnostic diagnostic in model.GetDiagnostics(cancellationToken: cancellationToken)
            .Where(d => !d.IsSuppressed && d.Location.IsInSource)
            .OrderBy(d => d.Location.SourceSpan.Start).ThenBy(d => d.Id, StringComparer.Ordinal))
        {
            items.Add(new JsonObject
            {
                ["range"] = Range(diagnostic.Location.GetLineSpan().Span),
                ["severity"] = diagnostic.Severity switch
                {
                    DiagnosticSeverity.Error => 1,
                    DiagnosticSeverity.Warning => 2,
                    DiagnosticSeverity.Info => 3,
                    _ => 4,
                },
                ["code"] = diagnostic.Id,
                ["source"] = "csharp",
                ["message"] = diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture),
            });
        }

        return new JsonObject { ["kind"] = "full", ["items"] = items };
    }

    private static JsonObject ParseParams(string? json)
    {
        if (string.IsNullOrWhiteSpace(json))
        {
            return [];
        }

        try
        {
            return JsonNode.Parse(json, documentOptions: new JsonDocumentOptions { MaxDepth = 64 }) as JsonObject
                ?? throw SemanticException.InvalidRequest("lsp request parameters must be a JSON object.");
        }
        catch (JsonException ex)
        {
            throw SemanticException.InvalidRequest($"lsp request parameters are not valid JSON: {ex.Message}");
        }
    }

    /// <summary>The request's document in the default flavour of its project.</summary>
    private static Document DocumentOf(Solution solution, string workspace, JsonObject request) => DocumentsOf(solution, workspace, request)[0];

    /// <summary>The request's document in every flavour of its project, the default flavour first.</summary>
    private static List<Document> DocumentsOf(Solution solution, string workspace, JsonObject request)
    {
        string uri = (request["textDocument"] as JsonObject)?["uri"]?.GetValueKind() == JsonValueKind.String
            ? request["textDocument"]!["uri"]!.GetValue<string>()
            : throw SemanticException.InvalidRequest("The request needs textDocument.uri (a file: URI of a C# file in the workspace).");
        if (!Uri.TryCreate(uri, UriKind.Absolute, out Uri? parsed) || !parsed.IsFile)
        {
            throw SemanticException.InvalidRequest($"textDocument.uri '{uri}' is not a file: URI.");
        }

        string path = PathUtil.Normalize(parsed.LocalPath);
        if (!PathUtil.IsUnder(path, workspace))
        {
            throw SemanticException.InvalidRequest($"textDocument.uri '{uri}' is outside the workspace {workspace}.");
        }

        List<Document> documents = [.. SolutionPaths.DocumentIdsAt(solution, path)
            .Select(solution.GetDocument)
            .OfType<Document>()
            .OrderBy(d => Symbols.Flavours.Rank(d.Project))
            .ThenBy(d => d.Project.Name, StringComparer.Ordinal)];
        return documents.Count > 0
            ? documents
            : throw SemanticException.InvalidRequest($"{PathUtil.ToWorkspaceRelative(workspace, path)} is not a C# document of a loaded project.");
    }

    private static string? Text(JsonObject request, string name) =>
        request[name] is JsonValue value && value.TryGetValue(out string? text) ? text : null;

    private static bool IncludeDeclaration(JsonObject request) =>
        (request["context"] as JsonObject)?["includeDeclaration"] is JsonValue value && value.TryGetValue(out bool include) && include;

    /// <summary>Source locations as LSP Locations, once each, in file and position order.</summary>
    private static JsonArray LocationArray(IEnumerable<Location> locations)
    {
        JsonArray result = [];
        foreach (JsonObject location in locations
            .Where(l => l.IsInSource && !string.IsNullOrEmpty(l.SourceTree!.FilePath))
            .Select(l => (Path: l.SourceTree!.FilePath, Span: l.GetLineSpan().Span))
            .Distinct()
            .OrderBy(l => l.Path, StringComparer.Ordinal).ThenBy(l => l.Span.Start)
            .Select(l => new JsonObject { ["uri"] = UriOf(l.Path), ["range"] = Range(l.Span) }))
        {
            result.Add(location);
        }

        return result;
    }

    private static JsonObject LocationOf(Location location) =>
        new() { ["uri"] = UriOf(location.SourceTree!.FilePath), ["range"] = Range(location.GetLineSpan().Span) };

    internal static JsonObject Range(LinePositionSpan span) => new()
    {
        ["start"] = new JsonObject { ["line"] = span.Start.Line, ["character"] = span.Start.Character },
        ["end"] = new JsonObject { ["line"] = span.End.Line, ["character"] = span.End.Character },
    };

    internal static string UriOf(string path) => new Uri(path).AbsoluteUri;
}
