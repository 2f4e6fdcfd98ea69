using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// Which code of a file the rename did not change can bind differently after it (<see cref="TreeScope"/> for
/// <see cref="EditValidator"/>). Binding can only change where the old or new name is written or where a
/// reference (also an implicit one, such as foreach's GetEnumerator) is: a file holding a reference is bound
/// whole; a file that writes neither name keeps its declarations checked only, and for a member of an
/// ordinary type only when one of its types derives from or implements that type (else nothing of it). In a file that writes a name,
/// the members around each occurrence are bound, except occurrences that cannot reach the renamed member:
/// the name of a declaration (the declarations are checked anyway); for a member of an ordinary type, the old
/// name in a file holding no reference (it bound to something else); <c>e.Name</c> where <c>e</c>'s type is
/// neither the member's type nor related to it by inheritance; and an unqualified <c>Name</c> inside types
/// unrelated to it (an instance member is only in scope in its type and the types derived from it). Those
/// three only for a method, property, field or event of an ordinary class, struct or interface: an extension
/// or a static member (reachable through <c>using static</c>) keeps every occurrence.
/// </summary>
public sealed class RenameBindingScope
{
    private readonly IReadOnlySet<string> watched;
    private readonly IReadOnlySet<string> referenceFiles;
    private readonly string? containingTypeId;
    private readonly string? containingTypeName;
    private readonly bool instanceOnly;

    public RenameBindingScope(ISymbol symbol, IReadOnlySet<string> names, IReadOnlySet<string> referenceFiles)
    {
        this.referenceFiles = referenceFiles;
        if (symbol.Kind is SymbolKind.Method or SymbolKind.Property or SymbolKind.Field or SymbolKind.Event
            && symbol is not IMethodSymbol { MethodKind: not MethodKind.Ordinary } and not IMethodSymbol { IsExtensionMethod: true }
            && symbol.ContainingType is { IsStatic: false, TypeKind: TypeKind.Class or TypeKind.Struct or TypeKind.Interface } type
            && type.ContainingType is not { IsStatic: true })
        {
            this.containingTypeId = DocumentationCommentId.CreateDeclarationId(type.OriginalDefinition);
            this.containingTypeName = type.Name;
            this.instanceOnly = !symbol.IsStatic;
        }

        // For a member of an ordinary type, a file without a reference can only bind differently where the new
        // name is written: the reference search reports every use of the member and every failed lookup that
        // had it as a candidate, so an old-name occurrence there bound to another member (or failed without
        // it), and taking away a candidate that did not win does not change what a lookup chose.
        this.watched = this.containingTypeId is null ? names : names.Where(n => !string.Equals(n, symbol.Name, StringComparison.Ordinal)).ToHashSet(StringComparer.Ordinal);
    }

    /// <summary>The scope to bind <paramref name="tree"/> (unchanged by the rename) in, in <paramref name="compilation"/> (after the rename).</summary>
    public TreeScope Of(SyntaxTree tree, Compilation compilation, CancellationToken cancellationToken)
    {
        if (this.referenceFiles.Contains(tree.FilePath))
        {
            return TreeScope.Full;
        }

        SemanticModel? model = null;
        string text = tree.GetText(cancellationToken).ToString();
        if (!this.watched.Any(n => text.Contains(n, StringComparison.Ordinal)))
        {
            return this.DeclarationsOrNothing(tree, compilation, ref model, cancellationToken);
        }

        List<TextSpan> members = [];
        foreach (SyntaxToken token in tree.GetRoot(cancellationToken).DescendantTokens())
        {
            if (!token.IsKind(SyntaxKind.IdentifierToken) || !this.watched.Contains(token.ValueText) || IsMemberOrTypeDeclarationName(token))
            {
                continue;
            }

            if (this.containingTypeId is not null && token.Parent is SimpleNameSyntax name
                && this.CannotReach(name, model ??= compilation.GetSemanticModel(tree), cancellationToken))
            {
                continue;
            }

            if (EnclosingMember(token) is not { } member)
            {
                return TreeScope.Full; // a base list, attribute or constraint of a type, or no member at all
            }

            members.Add(member);
        }

        return members.Count > 0 ? TreeScope.WithMembers(members) : this.DeclarationsOrNothing(tree, compilation, ref model, cancellationToken);
    }

    /// <summary>
    /// A file where no occurrence can reach the member: its declarations can still change when one of its
    /// types derives from or implements the member's type (an implementation or override inherited through
    /// it, a member it hides); a file without such a type is left out.
    /// </summary>
    private TreeScope DeclarationsOrNothing(SyntaxTree tree, Compilation compilation, ref SemanticModel? model, CancellationToken cancellationToken)
    {
        if (this.containingTypeId is null)
        {
            return TreeScope.Declarations;
        }

        foreach (BaseTypeDeclarationSyntax declaration in tree.GetRoot(cancellationToken)
            .DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or TypeDeclarationSyntax)
            .OfType<BaseTypeDeclarationSyntax>())
        {
            // Without a base list in any part, a type derives from nothing it could inherit the member from.
            if (declaration is EnumDeclarationSyntax
                || (declaration.BaseList is null && !declaration.Modifiers.Any(SyntaxKind.PartialKeyword)))
            {
                continue;
            }

            model ??= compilation.GetSemanticModel(tree);
            if (model.GetDeclaredSymbol(declaration, cancellationToken) is not INamedTypeSymbol type || this.Related(type))
            {
                return TreeScope.Declarations;
            }
        }

        return TreeScope.None;
    }

    /// <summary>The name of a type or member declaration: its declaration diagnostics are checked anyway.</summary>
    private static bool IsMemberOrTypeDeclarationName(SyntaxToken token) => token.Parent switch
    {
        BaseTypeDeclarationSyntax type => type.Identifier == token,
        DelegateDeclarationSyntax @delegate => @delegate.Identifier == token,
        MethodDeclarationSyntax method => method.Identifier == token,
        PropertyDeclarationSyntax property => property.Identifier == token,
        EventDeclarationSyntax @event => @event.Identifier == token,
        EnumMemberDeclarationSyntax member => member.Identifier == token,
        VariableDeclaratorSyntax variable => variable.Identifier == token && variable.Parent?.Parent is BaseFieldDeclarationSyntax,
        _ => false,
    };

    /// <summary>Whether this occurrence cannot bind to (or be captured by) the renamed member.</summary>
    private bool CannotReach(SimpleNameSyntax name, SemanticModel model, CancellationToken cancellationToken)
    {
        if (name.Parent is MemberAccessExpressionSyntax access && access.Name == name && access.IsKind(SyntaxKind.SimpleMemberAccessExpression))
        {
            return model.GetTypeInfo(access.Expression, cancellationToken).Type is INamedTypeSymbol { TypeKind: not TypeKind.Error } receiver
                && !this.Related(receiver);
        }

        if (!this.instanceOnly || !IsUnqualified(name))
        {
            return false;
        }

        // An instance member is found by an unqualified name only inside its type, a type derived from it,
        // or a type nested in one of those.
        foreach (BaseTypeDeclarationSyntax declaration in name.Ancestors().OfType<BaseTypeDeclarationSyntax>())
        {
            if (model.GetDeclaredSymbol(declaration, cancellationToken) is not INamedTypeSymbol type || this.Related(type))
            {
                return false;
            }
        }

        return true;
    }

    private static bool IsUnqualified(SimpleNameSyntax name) => name.Parent switch
    {
        MemberAccessExpressionSyntax access => access.Name != name,
        QualifiedNameSyntax qualified => qualified.Right != name,
        MemberBindingExpressionSyntax or NameColonSyntax or NameEqualsSyntax or AliasQualifiedNameSyntax => false,
        AssignmentExpressionSyntax { Parent: InitializerExpressionSyntax } => false, // an object initializer's member
        _ => true,
    };

    /// <summary>
    /// The member's type itself, or a type deriving from it or implementing it: only there can a lookup find
    /// the member. (Through a base type or interface of the member's type a lookup finds the base member,
    /// which Roslyn renames along with an override or implementation — its references are then changed files.)
    /// </summary>
    private bool Related(INamedTypeSymbol type)
    {
        for (INamedTypeSymbol? current = type; current is not null; current = current.BaseType)
        {
            if (this.IsContainingType(current))
            {
                return true;
            }
        }

        return type.AllInterfaces.Any(this.IsContainingType);
    }

    private bool IsContainingType(INamedTypeSymbol type) =>
        string.Equals(type.Name, this.containingTypeName, StringComparison.Ordinal)
        && string.Equals(DocumentationCommentId.CreateDeclarationId(type.OriginalDefinition), this.containingTypeId, StringComparison.Ordinal);

    /// <summary>The member (or the top-level statements) around a token: the code whose binding it can change.</summary>
    private static TextSpan? EnclosingMember(SyntaxToken token)
    {
        for (SyntaxNode? node = token.Parent; node is not null; node = node.Parent)
        {
            switch (node)
            {
                case GlobalStatementSyntax global when global.Parent is CompilationUnitSyntax unit:
                    List<GlobalStatementSyntax> statements = [.. unit.Members.OfType<GlobalStatementSyntax>()];
                    return TextSpan.FromBounds(statements[0].FullSpan.Start, statements[^1].FullSpan.End);
                case BaseTypeDeclarationSyntax or BaseNamespaceDeclarationSyntax or DelegateDeclarationSyntax:
                    return null;
                case MemberDeclarationSyntax member:
                    return member.FullSpan;
            }
        }

        return null;
    }
}
