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
    public static JsonArray Of(SemanticModel model, SourceText text, CancellationToken cancellationToken)
    {
        JsonArray top = [];
        Walk(model.SyntaxTree.GetRoot(cancellationToken), top);
        return top;

        void Walk(SyntaxNode node, JsonArray into)
        {
            foreach (SyntaxNode child in node.ChildNodes())
            {
                if (!IsDeclaration(child))
                {
                    Walk(child, into);
                    continue;
                }

                IEnumerable<ISymbol> declared = child is BaseFieldDeclarationSyntax field
                    ? field.Declaration.Variables.Select(v => model.GetDeclaredSymbol(v, cancellationToken)).OfType<ISymbol>()
                    : model.GetDeclaredSymbol(child, cancellationToken) is { } one ? [one] : [];
                foreach (ISymbol symbol in declared)
                {
                    Location name = symbol.Locations.FirstOrDefault(l => l.SourceTree == model.SyntaxTree) ?? child.GetLocation();
                    JsonArray children = [];
                    if (child is BaseNamespaceDeclarationSyntax or BaseTypeDeclarationSyntax)
                    {
                        Walk(child, children);
                    }

                    JsonObject item = new()
                    {
                        ["name"] = symbol.Name,
                        ["detail"] = symbol.ToDisplayString(SymbolDisplayFormat.CSharpShortErrorMessageFormat),
                        ["kind"] = KindOf(symbol),
                        ["range"] = LspRequestService.Range(text.Lines.GetLinePositionSpan(child.Span)),
                        ["selectionRange"] = LspRequestService.Range(text.Lines.GetLinePositionSpan(name.SourceSpan)),
                    };
                    if (children.Count > 0)
                    {
                        item["children"] = children;
                    }

                    into.Add(item);
                }
            }
        }
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
