using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace SharpClaw.Server.Semantic.TestSelection;

/// <summary>
/// Which members of a C# file changed between two texts (HEAD's and the working copy's), compared syntactically —
/// the start of a test selection by reach (issue 41): only a change confined to member bodies names members; anything
/// that can change what other code binds to or runs without calling a changed member is a reason to run every test
/// (a <see cref="Result.Fallbacks"/> line): a member added or removed, a declaration changed (signature, modifiers,
/// attributes), a static constructor or static initializer, a type's declaration, using directives, top-level
/// statements, or code under <c>#if</c> (a syntax tree parsed without the project's symbols cannot see inside it).
/// Trivia (comments, whitespace) is never a change.
/// </summary>
public static class ChangedMembers
{
    /// <summary>A changed member: how a report names it, and where it is declared in the new text (one-based).</summary>
    public sealed record Member(string Name, int Line, int Character);

    /// <summary>The members whose bodies changed, and why every test must run instead (empty when the members say it all).</summary>
    public sealed record Result(IReadOnlyList<Member> Members, IReadOnlyList<string> Fallbacks);

    /// <summary>Compares <paramref name="before"/> (null: the file is new) with <paramref name="after"/> (null: deleted); <paramref name="file"/> names it in reasons.</summary>
    public static Result Compare(string? before, string? after, string file)
    {
        if (before is null || after is null)
        {
            return new([], [$"{file} was {(before is null ? "added" : "deleted")}"]);
        }

        CompilationUnitSyntax old = Parse(before);
        CompilationUnitSyntax now = Parse(after);
        List<string> fallbacks = [];
        if (!SameDirectives(old, now))
        {
            fallbacks.Add($"{file} changed code under #if or another preprocessor directive");
        }

        if (!SyntaxFactory.AreEquivalent(old.Usings, now.Usings, topLevel: false) || !SyntaxFactory.AreEquivalent(old.Externs, now.Externs, topLevel: false) || !SyntaxFactory.AreEquivalent(old.AttributeLists, now.AttributeLists, topLevel: false))
        {
            fallbacks.Add($"{file} changed its using directives or assembly attributes");
        }

        Dictionary<string, List<SyntaxNode>> oldDeclarations = Declarations(old);
        Dictionary<string, List<SyntaxNode>> newDeclarations = Declarations(now);
        List<Member> members = [];
        foreach ((string key, List<SyntaxNode> nodes) in newDeclarations)
        {
            if (!oldDeclarations.TryGetValue(key, out List<SyntaxNode>? previous) || previous.Count != nodes.Count)
            {
                fallbacks.Add($"{file}: {key} was added");
                continue;
            }

            for (int i = 0; i < nodes.Count; i++)
            {
                SyntaxNode was = previous[i];
                SyntaxNode @is = nodes[i];
                if (SyntaxFactory.AreEquivalent(was, @is, topLevel: false)
                    || (@is is TypeDeclarationSyntax && SyntaxFactory.AreEquivalent(Declaration(was), Declaration(@is), topLevel: false)))
                {
                    continue; // A type whose own declaration is unchanged: its members are compared one by one.
                }

                if (@is is BaseTypeDeclarationSyntax or DelegateDeclarationSyntax or GlobalStatementSyntax || !SyntaxFactory.AreEquivalent(Declaration(was), Declaration(@is), topLevel: false))
                {
                    fallbacks.Add($"{file}: the declaration of {key} changed");
                }
                else if (IsStatic(@is) && @is is ConstructorDeclarationSyntax or FieldDeclarationSyntax or PropertyDeclarationSyntax or EventFieldDeclarationSyntax)
                {
                    fallbacks.Add($"{file}: {(@is is ConstructorDeclarationSyntax ? "a static constructor" : "a static initializer")} changed ({key})");
                }
                else
                {
                    members.AddRange(Changed(was, @is, key));
                }
            }
        }

        fallbacks.AddRange(oldDeclarations.Keys.Where(key => !newDeclarations.ContainsKey(key)).Select(key => $"{file}: {key} was removed"));
        return new(members, fallbacks);
    }

    private static CompilationUnitSyntax Parse(string text) =>
        (CompilationUnitSyntax)CSharpSyntaxTree.ParseText(text, new CSharpParseOptions(LanguageVersion.Preview)).GetRoot();

    /// <summary>The preprocessor directives and the text they disable, in order: a change there is invisible to the tree's nodes.</summary>
    private static bool SameDirectives(CompilationUnitSyntax old, CompilationUnitSyntax now)
    {
        static IEnumerable<string> Of(CompilationUnitSyntax root) => root.DescendantTrivia(descendIntoTrivia: true)
            .Where(t => t.IsDirective || t.IsKind(SyntaxKind.DisabledTextTrivia))
            .Select(t => t.IsDirective ? ((DirectiveTriviaSyntax)t.GetStructure()!).ToString().Trim() : string.Concat(t.ToString().Where(c => !char.IsWhiteSpace(c))));
        return Of(old).SequenceEqual(Of(now), StringComparer.Ordinal);
    }

    /// <summary>Every type and member declaration (and top-level statements) by a key of its containers, kind, name and parameter types.</summary>
    private static Dictionary<string, List<SyntaxNode>> Declarations(CompilationUnitSyntax root)
    {
        Dictionary<string, List<SyntaxNode>> byKey = new(StringComparer.Ordinal);
        foreach (SyntaxNode node in root.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or TypeDeclarationSyntax))
        {
            if (node is not (MemberDeclarationSyntax and not BaseNamespaceDeclarationSyntax))
            {
                continue;
            }

            string key = Key(node);
            if (!byKey.TryGetValue(key, out List<SyntaxNode>? nodes))
            {
                byKey[key] = nodes = [];
            }

            nodes.Add(node);
        }

        return byKey;
    }

    private static string Key(SyntaxNode node)
    {
        string containers = string.Join('.', node.Ancestors().Reverse().Select(a => a switch
        {
            BaseNamespaceDeclarationSyntax ns => ns.Name.ToString(),
            TypeDeclarationSyntax type => type.Identifier.Text + Arity(type.TypeParameterList),
            _ => null,
        }).OfType<string>());
        string name = node switch
        {
            BaseTypeDeclarationSyntax type => $"{KindOf(type)} {type.Identifier.Text}{Arity((type as TypeDeclarationSyntax)?.TypeParameterList)}",
            DelegateDeclarationSyntax d => $"delegate {d.Identifier.Text}{Arity(d.TypeParameterList)}",
            MethodDeclarationSyntax m => $"{m.Identifier.Text}{Arity(m.TypeParameterList)}({Parameters(m.ParameterList)})",
            ConstructorDeclarationSyntax c => $"{(c.Modifiers.Any(SyntaxKind.StaticKeyword) ? "static " : string.Empty)}constructor({Parameters(c.ParameterList)})",
            DestructorDeclarationSyntax => "finalizer",
            OperatorDeclarationSyntax o => $"operator {o.OperatorToken.Text}({Parameters(o.ParameterList)})",
            ConversionOperatorDeclarationSyntax c => $"{c.ImplicitOrExplicitKeyword.Text} operator {Plain(c.Type)}",
            PropertyDeclarationSyntax p => p.Identifier.Text,
            IndexerDeclarationSyntax i => $"this[{Parameters(i.ParameterList)}]",
            EventDeclarationSyntax e => e.Identifier.Text,
            BaseFieldDeclarationSyntax f => string.Join(", ", f.Declaration.Variables.Select(v => v.Identifier.Text)),
            GlobalStatementSyntax => "top-level statements",
            _ => node.Kind().ToString(),
        };
        return containers.Length == 0 ? name : $"{containers}.{name}";
    }

    private static string KindOf(BaseTypeDeclarationSyntax type) => type switch
    {
        TypeDeclarationSyntax t => t.Keyword.Text,
        EnumDeclarationSyntax e => e.EnumKeyword.Text,
        _ => "type",
    };

    private static string Arity(TypeParameterListSyntax? list) => list is null ? string.Empty : $"`{list.Parameters.Count}";

    private static string Parameters(BaseParameterListSyntax list) => string.Join(", ", list.Parameters.Select(p => p.Type is null ? p.Identifier.Text : Plain(p.Type)));

    private static string Plain(SyntaxNode node) => node.WithoutTrivia().ToString();

    private static bool IsStatic(SyntaxNode node) => node is MemberDeclarationSyntax member && member.Modifiers.Any(SyntaxKind.StaticKeyword) || node is BaseFieldDeclarationSyntax { Modifiers: var m } && m.Any(SyntaxKind.ConstKeyword);

    /// <summary>A member without what runs when it runs (bodies, initializers, a constructor's base call): its declaration.</summary>
    private static SyntaxNode Declaration(SyntaxNode node) => node switch
    {
        TypeDeclarationSyntax t => t.WithMembers(default),
        ConstructorDeclarationSyntax c => c.WithBody(null).WithExpressionBody(null).WithInitializer(null).WithSemicolonToken(default),
        BaseMethodDeclarationSyntax m => m.WithBody(null).WithExpressionBody(null).WithSemicolonToken(default),
        BasePropertyDeclarationSyntax p => WithoutBodies(p),
        BaseFieldDeclarationSyntax f => f.WithDeclaration(f.Declaration.WithVariables(SyntaxFactory.SeparatedList(f.Declaration.Variables.Select(v => v.WithInitializer(null))))),
        _ => node,
    };

    private static SyntaxNode WithoutBodies(BasePropertyDeclarationSyntax property)
    {
        BasePropertyDeclarationSyntax stripped = property.AccessorList is { } accessors
            ? property.WithAccessorList(accessors.WithAccessors(SyntaxFactory.List(accessors.Accessors.Select(a => a.WithBody(null).WithExpressionBody(null).WithSemicolonToken(default)))))
            : property;
        return stripped switch
        {
            PropertyDeclarationSyntax p => p.WithExpressionBody(null).WithInitializer(null).WithSemicolonToken(default),
            IndexerDeclarationSyntax i => i.WithExpressionBody(null).WithSemicolonToken(default),
            _ => stripped,
        };
    }

    /// <summary>
    /// The members a body change names: the member itself; for an instance field's or property's initializer, the
    /// constructors of its type that run it (all that do not chain to <c>this(...)</c>, or the type when it declares none).
    /// </summary>
    private static IEnumerable<Member> Changed(SyntaxNode was, SyntaxNode node, string key)
    {
        // A property's initializer runs in the constructors, its accessors where it is used: either or both may have changed.
        bool initializerChanged = node is BaseFieldDeclarationSyntax
            || (node is PropertyDeclarationSyntax now && was is PropertyDeclarationSyntax before && !SyntaxFactory.AreEquivalent(before.Initializer, now.Initializer, topLevel: false));
        bool accessorsChanged = node is not BaseFieldDeclarationSyntax
            && !(node is PropertyDeclarationSyntax after && was is PropertyDeclarationSyntax prior && SyntaxFactory.AreEquivalent(WithoutInitializer(prior), WithoutInitializer(after), topLevel: false));
        if (initializerChanged && node.Ancestors().OfType<TypeDeclarationSyntax>().FirstOrDefault() is { } type)
        {
            List<ConstructorDeclarationSyntax> constructors = [.. type.Members.OfType<ConstructorDeclarationSyntax>().Where(c => !c.Modifiers.Any(SyntaxKind.StaticKeyword) && c.Initializer is not { RawKind: (int)SyntaxKind.ThisConstructorInitializer })];
            if (constructors.Count == 0)
            {
                yield return At($"{key} (its initializer, run by {type.Identifier.Text}'s implicit constructor)", type.Identifier);
            }

            foreach (ConstructorDeclarationSyntax constructor in constructors)
            {
                yield return At($"{key} (its initializer, run by a constructor)", constructor.Identifier);
            }
        }

        if (!accessorsChanged)
        {
            yield break;
        }

        SyntaxToken identifier = node switch
        {
            MethodDeclarationSyntax m => m.Identifier,
            ConstructorDeclarationSyntax c => c.Identifier,
            DestructorDeclarationSyntax d => d.Identifier,
            OperatorDeclarationSyntax o => o.OperatorToken,
            ConversionOperatorDeclarationSyntax c => c.OperatorKeyword,
            PropertyDeclarationSyntax p => p.Identifier,
            IndexerDeclarationSyntax i => i.ThisKeyword,
            EventDeclarationSyntax e => e.Identifier,
            _ => node.GetFirstToken(),
        };
        yield return At(key, identifier);
    }

    private static PropertyDeclarationSyntax WithoutInitializer(PropertyDeclarationSyntax property) => property.WithInitializer(null).WithSemicolonToken(default);

    private static Member At(string name, SyntaxToken token)
    {
        FileLinePositionSpan span = token.GetLocation().GetLineSpan();
        return new(name, span.StartLinePosition.Line + 1, span.StartLinePosition.Character + 1);
    }
}
