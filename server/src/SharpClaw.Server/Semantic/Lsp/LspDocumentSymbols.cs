using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace SharpClaw.Server.Semantic.Lsp;

/// <summary>
/// LSP <c>DocumentSymbol</c>s of one document: namespaces, types and members nested as declared, each
/// with its whole declaration as <c>range</c> and its name as <c>selectionRange</c> (zero-based), and the
/// LSP <c>SymbolKind</c> numbers.
/// </summary>
internal static class LspDocumentSymbols
{
    /// <summary>
    /// Declarations nested deeper than this are left out: a file of thousands of nested classes must not
    /// grow the answer without bound, and each level adds two to the JSON's depth, which readers cap at
    /// 64 by default (System.Text.Json's). No real code nests namespaces and types this deep.
    /// </summary>
    private const int MaxNesting = 24;

    public static JsonArray Of(SemanticModel model, SourceText text, CancellationToken cancellationToken)
    {
        JsonArray top = [];
        List<(JsonObject Item, JsonArray Children)> parents = [];

        // An explicit stack of child enumerators instead of recursion: a workspace file decides how deep
        // the tree goes, and a 5,000-deep one overflowed the host's stack. Each entry walks one node's
        // children in order, adding declarations to its array, so the output keeps document order.
        Stack<(IEnumerator<SyntaxNode> Children, JsonArray Into, int Nesting)> stack = new();
        stack.Push((model.SyntaxTree.GetRoot(cancellationToken).ChildNodes().GetEnumerator(), top, 0));
        while (stack.Count > 0)
        {
            cancellationToken.ThrowIfCancellationRequested();
            (IEnumerator<SyntaxNode> children, JsonArray into, int nesting) = stack.Peek();
            if (!children.MoveNext())
            {
                stack.Pop().Children.Dispose();
                continue;
            }

            SyntaxNode child = children.Current;
            if (!IsDeclaration(child))
            {
                stack.Push((child.ChildNodes().GetEnumerator(), into, nesting));
                continue;
            }

            IEnumerable<ISymbol> declared = child is BaseFieldDeclarationSyntax field
                ? field.Declaration.Variables.Select(v => model.GetDeclaredSymbol(v, cancellationToken)).OfType<ISymbol>()
                : model.GetDeclaredSymbol(child, cancellationToken) is { } one ? [one] : [];
            foreach (ISymbol symbol in declared)
            {
                Location name = symbol.Locations.FirstOrDefault(l => l.SourceTree == model.SyntaxTree) ?? child.GetLocation();
                JsonObject item = new()
                {
                    ["name"] = symbol.Name,
                    ["detail"] = symbol.ToDisplayString(SymbolDisplayFormat.CSharpShortErrorMessageFormat),
                    ["kind"] = KindOf(symbol),
                    ["range"] = LspRequestService.Range(text.Lines.GetLinePositionSpan(child.Span)),
                    ["selectionRange"] = LspRequestService.Range(text.Lines.GetLinePositionSpan(name.SourceSpan)),
                };
                into.Add(item);
                if (child is BaseNamespaceDeclarationSyntax or BaseTypeDeclarationSyntax && nesting + 1 < MaxNesting)
                {
                    JsonArray nested = [];
                    parents.Add((item, nested));
                    stack.Push((child.ChildNodes().GetEnumerator(), nested, nesting + 1));
                }
            }
        }

        // Children are attached once walked, and only where there are some (LSP leaves the field out).
        foreach ((JsonObject item, JsonArray nested) in parents)
        {
            if (nested.Count > 0)
            {
                item["children"] = nested;
            }
        }

        return top;
    }

    private static bool IsDeclaration(SyntaxNode node) =>
        node is BaseNamespaceDeclarationSyntax or BaseTypeDeclarationSyntax or DelegateDeclarationSyntax
            or BaseMethodDeclarationSyntax or BasePropertyDeclarationSyntax or BaseFieldDeclarationSyntax
            or EnumMemberDeclarationSyntax;

    /// <summary>The LSP <c>SymbolKind</c> number of a symbol.</summary>
    public static int KindOf(ISymbol symbol) => symbol switch
    {
        INamespaceSymbol => 3,
        INamedTypeSymbol { TypeKind: TypeKind.Interface } => 11,
        INamedTypeSymbol { TypeKind: TypeKind.Enum } => 10,
        INamedTypeSymbol { TypeKind: TypeKind.Struct } => 23,
        INamedTypeSymbol { TypeKind: TypeKind.Delegate } => 12,
        INamedTypeSymbol => 5,
        IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor } => 9,
        IMethodSymbol { MethodKind: MethodKind.UserDefinedOperator or MethodKind.Conversion } => 25,
        IMethodSymbol => 6,
        IPropertySymbol => 7,
        IFieldSymbol { ContainingType.TypeKind: TypeKind.Enum } => 22,
        IFieldSymbol { IsConst: true } => 14,
        IFieldSymbol => 8,
        IEventSymbol => 24,
        ITypeParameterSymbol => 26,
        _ => 13,
    };
}
