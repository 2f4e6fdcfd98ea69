using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;

namespace SharpClaw.Server.Store;

/// <summary>
/// One declaration read from syntax alone. <see cref="Display"/> is the name the csharp_* tools accept: the
/// enclosing types and the name, with type parameters and the parameter types of a method, constructor, delegate or indexer
/// (<c>Calculator.Add(int, int)</c>); <see cref="Container"/> is the dotted namespace and types around it.
/// Positions are one-based: the name's start, the declaration's end.
/// </summary>
/// <see cref="Condition"/> is the <c>#if</c> condition it is declared under (<see cref="ConditionalRegions"/>), null when unconditional.
internal sealed record SyntaxDeclaration(string Name, string Display, string Kind, string? Container, string Signature, int Line, int Character, int EndLine, int EndCharacter, string? Condition = null);

/// <summary>
/// Parses a C# file with Roslyn's syntax API only (<see cref="CSharpSyntaxTree.ParseText(SourceText, CSharpParseOptions?, string, CancellationToken)"/>):
/// no compilation, no references, no project; kinds use the names of <c>SymbolFormat.KindOf</c>. A file with
/// <c>#if</c> directives is parsed again under the workspace's modern and lowest flavours' symbols
/// (<see cref="PreprocessorSymbols"/>), so what <c>#if NET</c> or its <c>#else</c> declares is found; each declaration
/// under a branch carries the branch's condition.
/// </summary>
internal static class SyntaxDeclarations
{
    private const int MaxSignature = 200;

    private static readonly CSharpParseOptions ParseOptions = CSharpParseOptions.Default.WithLanguageVersion(LanguageVersion.Preview);

    public static List<SyntaxDeclaration> Read(SourceText text, CancellationToken cancellationToken) => Read(text, null, cancellationToken);

    /// <summary>
    /// The declarations of a file: those of the parse without symbols, then, in a file with conditional directives
    /// only (most have none, and are parsed once), those the parses under <paramref name="symbols"/> add.
    /// </summary>
    public static List<SyntaxDeclaration> Read(SourceText text, PreprocessorSymbols? symbols, CancellationToken cancellationToken)
    {
        SyntaxNode root = CSharpSyntaxTree.ParseText(text, ParseOptions, cancellationToken: cancellationToken).GetRoot(cancellationToken);
        List<SyntaxDeclaration> result = [];
        Visit(root, null, null, text, result);
        if (symbols is null || !root.ContainsDirectives)
        {
            return result;
        }

        ConditionalRegions regions = ConditionalRegions.Of(root);
        if (regions.IsEmpty)
        {
            return result;
        }

        HashSet<(string Kind, string Display, int Line, int Character)> seen = [];
        for (int i = 0; i < result.Count; i++)
        {
            result[i] = Tagged(result[i], regions, text);
            seen.Add((result[i].Kind, result[i].Display, result[i].Line, result[i].Character));
        }

        int before = result.Count;
        foreach (IReadOnlyList<string>? set in new[] { symbols.Modern, symbols.Lowest })
        {
            if (set is null)
            {
                continue;
            }

            List<SyntaxDeclaration> flavour = [];
            Visit(CSharpSyntaxTree.ParseText(text, ParseOptions.WithPreprocessorSymbols(set), cancellationToken: cancellationToken).GetRoot(cancellationToken), null, null, text, flavour);
            foreach (SyntaxDeclaration declaration in flavour)
            {
                if (seen.Add((declaration.Kind, declaration.Display, declaration.Line, declaration.Character)))
                {
                    result.Add(Tagged(declaration, regions, text));
                }
            }
        }

        if (result.Count > before)
        {
            // Declarations in file order, as one parse lists them.
            result = [.. result.OrderBy(d => d.Line).ThenBy(d => d.Character)];
        }

        return result;
    }

    private static SyntaxDeclaration Tagged(SyntaxDeclaration declaration, ConditionalRegions regions, SourceText text)
    {
        int position = text.Lines[declaration.Line - 1].Start + declaration.Character - 1;
        return regions.ConditionAt(position) is { } condition ? declaration with { Condition = condition } : declaration;
    }

    /// <summary>
    /// Types and namespaces nested deeper than this are not indexed: a hand-written file never comes near it,
    /// and each level repeats every name above it in its display and container (5,000 levels would be
    /// hundreds of MB of names).
    /// </summary>
    internal const int MaxNestingDepth = 256;

    /// <summary>
    /// The declarations under <paramref name="root"/> in file order, walked with an explicit stack of the scopes
    /// being read (not recursion): a file a user or generator writes with thousands of nested types must not
    /// overflow the host's stack.
    /// </summary>
    private static void Visit(SyntaxNode root, string? rootContainer, string? rootTypePrefix, SourceText text, List<SyntaxDeclaration> result)
    {
        Stack<(IEnumerator<SyntaxNode> Children, string? Container, string? TypePrefix)> scopes = new();
        scopes.Push((root.ChildNodes().GetEnumerator(), rootContainer, rootTypePrefix));
        void Enter(SyntaxNode scope, string? container, string? typePrefix)
        {
            if (scopes.Count < MaxNestingDepth)
            {
                scopes.Push((scope.ChildNodes().GetEnumerator(), container, typePrefix));
            }
        }

        while (scopes.Count > 0)
        {
            (IEnumerator<SyntaxNode> children, string? container, string? typePrefix) = scopes.Peek();
            if (!children.MoveNext())
            {
                children.Dispose();
                scopes.Pop();
                continue;
            }

            SyntaxNode child = children.Current;
            switch (child)
            {
                case BaseNamespaceDeclarationSyntax ns:
                {
                    string name = ns.Name.ToString();
                    Add(result, text, ns, ns.Name.GetLocation().SourceSpan, name, name, "namespace", container, Header(ns, ns.Name));
                    Enter(ns, Join(container, name), null);
                    break;
                }

                case ExtensionBlockDeclarationSyntax extension:
                {
                    // A C# 14 extension block has no name: it is a segment of its members' names as Roslyn displays
                    // them (TextExtensions.extension(string).Shout()), and its members stay in the declaring class.
                    string block = "extension" + (extension.TypeParameterList is { } blockTypeParameters ? TypeParameters(blockTypeParameters) : string.Empty)
                        + (extension.ParameterList is { } receiver ? Parameters(receiver) : "()");
                    string display = Join(typePrefix, block);
                    int headerEnd = extension.ParameterList?.Span.End ?? extension.Keyword.Span.End;
                    Add(result, text, extension, extension.Keyword.Span, "extension", display, "type", container, HeaderTo(extension, headerEnd));
                    Enter(extension, container, display);
                    break;
                }

                case BaseTypeDeclarationSyntax type:
                {
                    string name = type.Identifier.ValueText;
                    string display = Join(typePrefix, name + (type is TypeDeclarationSyntax { TypeParameterList: { } typeParameters } ? TypeParameters(typeParameters) : string.Empty));
                    string kind = type switch
                    {
                        RecordDeclarationSyntax => "record",
                        ClassDeclarationSyntax => "class",
                        StructDeclarationSyntax => "struct",
                        InterfaceDeclarationSyntax => "interface",
                        EnumDeclarationSyntax => "enum",
                        _ => "type",
                    };
                    int headerEnd = type is TypeDeclarationSyntax typed
                        ? typed.ParameterList?.Span.End ?? typed.TypeParameterList?.Span.End ?? typed.Identifier.Span.End
                        : type.Identifier.Span.End;
                    Add(result, text, type, type.Identifier.Span, name, display, kind, container, HeaderTo(type, headerEnd));
                    if (type is EnumDeclarationSyntax enumeration)
                    {
                        foreach (EnumMemberDeclarationSyntax member in enumeration.Members)
                        {
                            string memberName = member.Identifier.ValueText;
                            Add(result, text, member, member.Identifier.Span, memberName, Join(display, memberName), "field", Join(container, name), member.Identifier.ValueText);
                        }
                    }
                    else
                    {
                        Enter(type, Join(container, name), display);
                    }

                    break;
                }

                case DelegateDeclarationSyntax del:
                    Add(result, text, del, del.Identifier.Span, del.Identifier.ValueText, Join(typePrefix, del.Identifier.ValueText) + Parameters(del.ParameterList), "delegate", container, Header(del, del.ParameterList));
                    break;
                case MethodDeclarationSyntax method:
                    Add(result, text, method, method.Identifier.Span, method.Identifier.ValueText, Join(typePrefix, method.Identifier.ValueText) + (method.TypeParameterList is { } methodTypeParameters ? TypeParameters(methodTypeParameters) : string.Empty) + Parameters(method.ParameterList), "method", container, Header(method, method.ParameterList));
                    break;
                case ConstructorDeclarationSyntax ctor:
                    Add(result, text, ctor, ctor.Identifier.Span, ctor.Identifier.ValueText, Join(typePrefix, ctor.Identifier.ValueText) + Parameters(ctor.ParameterList), "constructor", container, Header(ctor, ctor.ParameterList));
                    break;
                case OperatorDeclarationSyntax op:
                    Add(result, text, op, op.OperatorToken.Span, "operator " + op.OperatorToken.Text, Join(typePrefix, "operator " + op.OperatorToken.Text) + Parameters(op.ParameterList), "operator", container, Header(op, op.ParameterList));
                    break;
                case ConversionOperatorDeclarationSyntax conversion:
                    Add(result, text, conversion, conversion.Type.Span, "operator " + conversion.Type, Join(typePrefix, "operator " + conversion.Type) + Parameters(conversion.ParameterList), "operator", container, Header(conversion, conversion.ParameterList));
                    break;
                case PropertyDeclarationSyntax property:
                    Add(result, text, property, property.Identifier.Span, property.Identifier.ValueText, Join(typePrefix, property.Identifier.ValueText), "property", container, HeaderTo(property, property.Identifier.Span.End));
                    break;
                case IndexerDeclarationSyntax indexer:
                    Add(result, text, indexer, indexer.ThisKeyword.Span, "this[]", Join(typePrefix, "this[]"), "property", container, Header(indexer, indexer.ParameterList));
                    break;
                case EventDeclarationSyntax ev:
                    Add(result, text, ev, ev.Identifier.Span, ev.Identifier.ValueText, Join(typePrefix, ev.Identifier.ValueText), "event", container, HeaderTo(ev, ev.Identifier.Span.End));
                    break;
                case BaseFieldDeclarationSyntax field:
                    foreach (VariableDeclaratorSyntax variable in field.Declaration.Variables)
                    {
                        string kind = field is EventFieldDeclarationSyntax ? "event" : "field";
                        Add(result, text, variable, variable.Identifier.Span, variable.Identifier.ValueText, Join(typePrefix, variable.Identifier.ValueText), kind, container, Collapse(field.Modifiers.ToString() + " " + field.Declaration.Type + " " + variable.Identifier.ValueText));
                    }

                    break;
            }
        }
    }

    private static void Add(List<SyntaxDeclaration> result, SourceText text, SyntaxNode declaration, TextSpan nameSpan, string name, string display, string kind, string? container, string signature)
    {
        LinePosition start = text.Lines.GetLinePosition(nameSpan.Start);
        LinePosition end = text.Lines.GetLinePosition(declaration.Span.End);
        result.Add(new SyntaxDeclaration(name, display, kind, container, signature, start.Line + 1, start.Character + 1, end.Line + 1, end.Character + 1));
    }

    private static string Join(string? prefix, string name) => prefix is null ? name : prefix + "." + name;

    /// <summary>Type parameters as the csharp_* tools show and accept them: <c>&lt;T, U&gt;</c>.</summary>
    private static string TypeParameters(TypeParameterListSyntax list) => "<" + string.Join(", ", list.Parameters.Select(p => p.Identifier.ValueText)) + ">";

    /// <summary>The parameter types as the csharp_* tools accept them: <c>(int, string?)</c>.</summary>
    private static string Parameters(BaseParameterListSyntax list)
    {
        StringBuilder builder = new("(");
        for (int i = 0; i < list.Parameters.Count; i++)
        {
            ParameterSyntax parameter = list.Parameters[i];
            builder.Append(i > 0 ? ", " : string.Empty).Append(parameter.Type is null ? parameter.Identifier.ValueText : Collapse(parameter.Type.ToString()));
        }

        return builder.Append(')').ToString();
    }

    /// <summary>The declaration from its first modifier (attributes left out) to the end of <paramref name="last"/>.</summary>
    private static string Header(MemberDeclarationSyntax declaration, SyntaxNode last) => HeaderTo(declaration, last.Span.End);

    private static string HeaderTo(MemberDeclarationSyntax declaration, int end)
    {
        int start = declaration.Modifiers.Count > 0 ? declaration.Modifiers.Span.Start : declaration.AttributeLists.Count > 0 ? declaration.AttributeLists.Span.End : declaration.SpanStart;
        string header = declaration.SyntaxTree.GetText().ToString(TextSpan.FromBounds(Math.Min(start, end), end));
        return Collapse(header.TrimStart());
    }

    private static string Collapse(string text)
    {
        StringBuilder builder = new(Math.Min(text.Length, MaxSignature + 1));
        bool space = false;
        foreach (char c in text)
        {
            if (char.IsWhiteSpace(c))
            {
                space = builder.Length > 0;
                continue;
            }

            if (space)
            {
                builder.Append(' ');
                space = false;
            }

            builder.Append(c);
            if (builder.Length >= MaxSignature)
            {
                builder.Append('…');
                break;
            }
        }

        return builder.ToString();
    }
}
