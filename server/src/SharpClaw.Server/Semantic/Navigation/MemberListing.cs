using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>The members action (a type's declared members by file, named relative to the type), the source action, and the innermost declaration around a line.</summary>
internal static class MemberListing
{
    /// <summary>The type itself, or the type that declares a member.</summary>
    public static INamedTypeSymbol TypeOf(ISymbol symbol, string display) =>
        symbol as INamedTypeSymbol ?? symbol.ContainingType
            ?? throw SemanticException.InvalidRequest($"{display} is not a type and has no containing type, so it has no members.");

    public static List<MemberItem> Members(INamedTypeSymbol type, string workspace, Solution solution)
    {
        string prefix = type.ToDisplayString(SymbolFormat.NameFormat) + ".";
        List<MemberItem> items = [];
        foreach (ISymbol member in type.GetMembers().SelectMany(WithExtensionMembers))
        {
            if (!Listed(member))
            {
                continue;
            }

            string display = member.ToDisplayString(SymbolFormat.NameFormat);
            string name = display.StartsWith(prefix, StringComparison.Ordinal) ? display[prefix.Length..] : display;
            foreach (Location location in member.Locations.Where(l => l.IsInSource))
            {
                SourceLocation at = SymbolFormat.ToLocation(location, workspace, solution);
                items.Add(new MemberItem(at.Path, at.Line, at.Character, SymbolFormat.KindOf(member), name));
            }
        }

        return [.. items.Distinct().OrderBy(i => i.Path, StringComparer.Ordinal).ThenBy(i => i.Line).ThenBy(i => i.Character).ThenBy(i => i.Name, StringComparer.Ordinal)];
    }

    /// <summary>A C# 14 extension block with its members, which a person reads as members of the class that declares the block.</summary>
    private static IEnumerable<ISymbol> WithExtensionMembers(ISymbol member) =>
        member is INamedTypeSymbol { IsExtension: true } block ? block.GetMembers().Prepend(block) : [member];

    private static bool Listed(ISymbol member)
    {
        if (member is IMethodSymbol { MethodKind: MethodKind.PropertyGet or MethodKind.PropertySet or MethodKind.EventAdd or MethodKind.EventRemove or MethodKind.EventRaise })
        {
            return false;
        }

        return !member.IsImplicitlyDeclared && member.Locations.Any(l => l.IsInSource);
    }

    /// <summary>Every declaration's saved text, documentation comment included, in file and line order.</summary>
    public static async Task<List<SourcePart>> SourcesAsync(ISymbol symbol, NavigationFormat format, CancellationToken cancellationToken)
    {
        List<SyntaxReference> references = [.. symbol.DeclaringSyntaxReferences];
        if (symbol is IMethodSymbol { PartialImplementationPart: { } implementation })
        {
            references.AddRange(implementation.DeclaringSyntaxReferences);
        }

        List<SyntaxReference> inSource = [.. references.Where(r => !format.IsGenerated(Location.Create(r.SyntaxTree, r.Span)))];
        string name = NavigationFormat.IsPrimaryConstructor(symbol) ? symbol.ContainingType.ToDisplayString(SymbolFormat.NameFormat) : symbol.ToDisplayString(SymbolFormat.NameFormat);
        string kind = SymbolFormat.KindOf(symbol);
        List<SourcePart> parts = [];
        foreach (SyntaxReference reference in inSource.Count > 0 ? inSource : references)
        {
            SyntaxNode node = Widen(await reference.GetSyntaxAsync(cancellationToken).ConfigureAwait(false));
            SourceText text = await reference.SyntaxTree.GetTextAsync(cancellationToken).ConfigureAwait(false);
            int start = node.Span.Start;
            foreach (SyntaxTrivia trivia in node.GetLeadingTrivia())
            {
                if (trivia.IsKind(SyntaxKind.SingleLineDocumentationCommentTrivia) || trivia.IsKind(SyntaxKind.MultiLineDocumentationCommentTrivia))
                {
                    start = Math.Min(start, trivia.SpanStart);
                }
            }

            TextLine first = text.Lines.GetLineFromPosition(start);
            TextLine last = text.Lines.GetLineFromPosition(Math.Max(node.Span.Start, node.Span.End - 1));
            string path = SymbolFormat.LocationPath(format.Workspace, reference.SyntaxTree.FilePath, format.IsGenerated(Location.Create(reference.SyntaxTree, reference.Span)));
            parts.Add(new SourcePart(path, first.LineNumber + 1, last.LineNumber + 1, kind, name, text.ToString(TextSpan.FromBounds(first.Start, last.End))));
        }

        return [.. parts.Distinct().OrderBy(p => p.Path, StringComparer.Ordinal).ThenBy(p => p.FirstLine)];
    }

    /// <summary>A field's or event field's declarator widens to the whole declaration.</summary>
    private static SyntaxNode Widen(SyntaxNode node) =>
        node is VariableDeclaratorSyntax { Parent.Parent: (BaseFieldDeclarationSyntax or LocalDeclarationStatementSyntax) and { } declaration } ? declaration : node;

    /// <summary>
    /// The innermost declaration around a one-based line: a type for members, any member or type for source.
    /// </summary>
    public static async Task<ISymbol> InnermostAsync(Document document, int line, bool typeOnly, string shownPath, CancellationToken cancellationToken)
    {
        SourceText text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
        if (line > text.Lines.Count)
        {
            throw SemanticException.InvalidRequest($"Line {line} is past the end of {shownPath} ({text.Lines.Count} lines).");
        }

        TextLine textLine = text.Lines[line - 1];
        string content = textLine.ToString();
        int position = textLine.Start + (content.Length - content.TrimStart().Length);
        SyntaxNode root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) ?? throw SemanticException.InvalidRequest($"{shownPath} has no syntax tree.");
        SemanticModel model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false) ?? throw SemanticException.InvalidRequest($"{shownPath} has no semantic model.");
        SyntaxNode? node = root.FindToken(position).Parent;
        for (; node is not null; node = node.Parent)
        {
            if (!node.FullSpan.IntersectsWith(textLine.Span) && !(textLine.Span.IsEmpty && node.FullSpan.Contains(textLine.Start)))
            {
                continue;
            }

            bool candidate = typeOnly
                ? node is BaseTypeDeclarationSyntax or DelegateDeclarationSyntax
                : node is MemberDeclarationSyntax and not BaseNamespaceDeclarationSyntax;
            if (!candidate)
            {
                continue;
            }

            SyntaxNode declared = node is BaseFieldDeclarationSyntax field ? field.Declaration.Variables.First() : node;
            if (model.GetDeclaredSymbol(declared, cancellationToken) is { } symbol)
            {
                return symbol;
            }
        }

        throw new SemanticException(new SemanticErrorData(
            SemanticErrorKind.SymbolNotFound,
            $"No {(typeOnly ? "type" : "declaration")} encloses {shownPath}:{line}.",
            [],
            null,
            null) { Symbols = [] });
    }
}
