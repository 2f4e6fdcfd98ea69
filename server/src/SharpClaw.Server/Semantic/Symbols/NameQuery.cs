using System.Text;
using Microsoft.CodeAnalysis;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// A parsed <c>name</c>: dotted segments (generic arguments optional, compared by arity) plus an
/// optional parameter list. A qualified name matches the end of the fully qualified name.
/// A C# 14 extension member's name has its block as a segment, as Roslyn displays it
/// (<c>TextExtensions.extension(string).Shout()</c>); a name may leave the block out (<c>TextExtensions.Shout()</c>),
/// and a block named in a query matches by its type parameters' count and its receiver type, namespaces ignored.
/// </summary>
internal sealed partial class NameQuery
{
    private readonly List<string> segments;
    private readonly List<string>? parameters;

    private NameQuery(List<string> segments, List<string>? parameters)
    {
        this.segments = segments;
        this.parameters = parameters;
    }

    public bool HasParameters => this.parameters is not null;

    /// <summary>The last segment without generic arguments.</summary>
    public string SimpleName => WithoutGenerics(this.segments[^1]);

    public static NameQuery Parse(string name, string? signature)
    {
        string text = name.Trim();
        List<string>? parameters = null;
        int open = ParameterListStart(text);
        if (open >= 0)
        {
            int close = text.LastIndexOf(')');
            if (close < open)
            {
                throw SemanticException.InvalidRequest($"'{name}' has an unclosed parameter list.");
            }

            parameters = SplitParameters(text[(open + 1)..close]);
            text = text[..open];
        }
        else if (!string.IsNullOrWhiteSpace(signature))
        {
            string list = signature.Trim();
            if (list.StartsWith('(') && list.EndsWith(')'))
            {
                list = list[1..^1];
            }

            parameters = SplitParameters(list);
        }

        List<string> segments = [.. SplitTopLevel(SymbolFormat.Strip(text), '.').Select(s => IsExtensionBlock(s) || ConversionKeywordLength(s, 0) > 0 ? s : NormalizeGenerics(s))];
        if (segments.Count == 0 || segments.Any(s => s.Length == 0))
        {
            throw SemanticException.InvalidRequest($"'{name}' is not a symbol name.");
        }

        return new NameQuery(segments, parameters);
    }

    public bool Matches(ISymbol symbol, string display)
    {
        bool constructor = symbol is IMethodSymbol { MethodKind: MethodKind.Constructor };
        if (constructor && (!this.HasParameters || this.segments.Count < 2))
        {
            return false; // A constructor needs its parameter list: Box.Box(int).
        }

        if (!this.MatchesName(display))
        {
            return false;
        }

        if (this.parameters is null)
        {
            return true;
        }

        IReadOnlyList<IParameterSymbol>? actual = symbol switch
        {
            IMethodSymbol m => m.Parameters,
            INamedTypeSymbol { IsExtension: true, ExtensionParameter: { } receiver } => [receiver], // extension(string)
            IPropertySymbol { IsIndexer: true } p => p.Parameters,
            INamedTypeSymbol { DelegateInvokeMethod: { } invoke } => invoke.Parameters,
            _ => null,
        };
        if (actual is null || actual.Count != this.parameters.Count)
        {
            return false;
        }

        for (int i = 0; i < actual.Count; i++)
        {
            if (!ParameterMatches(this.parameters[i], SymbolFormat.ParameterType(actual[i])))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// The query's last two segments (one for a one-segment query) without generic arguments and without extension
    /// blocks: the key of <see cref="SymbolIndex.Candidates"/>.
    /// </summary>
    public IReadOnlyList<string> Tail
    {
        get
        {
            List<string> named = [.. this.segments.Where(s => !IsExtensionBlock(s))];
            return [.. named.Skip(Math.Max(0, named.Count - 2)).Select(SegmentKey)];
        }
    }

    /// <summary>
    /// The last two segments (or one) of a symbol's display name, parameters and generic arguments dropped, split
    /// exactly as <see cref="MatchesName"/> splits it, so a name can only match when its tail equals the query's.
    /// </summary>
    public static IReadOnlyList<string> TailOf(string display)
    {
        int open = ParameterListStart(display);
        List<string> actual = [.. SplitTopLevel(SymbolFormat.Strip(open >= 0 ? display[..open] : display), '.').Where(s => !IsExtensionBlock(s))];
        return actual.Count == 0 ? [string.Empty] : [.. actual.Skip(Math.Max(0, actual.Count - 2)).Select(SegmentKey)];
    }

    /// <summary>A display name split into its dotted segments (as written) and its parameter list with parentheses (or empty).</summary>
    public static (List<string> Segments, string Parameters) Split(string display)
    {
        int open = ParameterListStart(display);
        return open >= 0 ? (SplitTopLevel(display[..open], '.'), display[open..]) : (SplitTopLevel(display, '.'), string.Empty);
    }

    /// <summary>True when the display name (parameters ignored) ends with this query's segments.</summary>
    public bool MatchesName(string display)
    {
        List<string> actual = SplitTopLevel(SymbolFormat.Strip(WithoutParameters(display)), '.');
        if (this.EndsLike(actual))
        {
            return true;
        }

        // TextExtensions.Shout names the member of TextExtensions.extension(string) too.
        return !this.segments.Exists(IsExtensionBlock) && actual.Exists(IsExtensionBlock) && this.EndsLike([.. actual.Where(s => !IsExtensionBlock(s))]);
    }

    /// <summary>A name or display name without its parameter list (the one after its last segment).</summary>
    public static string WithoutParameters(string name)
    {
        int open = ParameterListStart(name);
        return open >= 0 ? name[..open] : name;
    }

    private bool EndsLike(List<string> actual)
    {
        if (actual.Count < this.segments.Count)
        {
            return false;
        }

        int offset = actual.Count - this.segments.Count;
        for (int i = 0; i < this.segments.Count; i++)
        {
            string wanted = this.segments[i];
            string candidate = actual[offset + i];
            bool equal = IsExtensionBlock(wanted) || IsExtensionBlock(candidate)
                ? SameExtensionBlock(wanted, candidate)
                : ConversionKeywordLength(wanted, 0) > 0 || ConversionKeywordLength(candidate, 0) > 0
                ? SegmentKey(wanted) == SegmentKey(candidate)
                : GenericStart(wanted) >= 0
                    ? wanted.Equals(NormalizeGenerics(candidate), StringComparison.Ordinal)
                    : wanted.Equals(WithoutGenerics(NormalizeGenerics(candidate)), StringComparison.Ordinal);
            if (!equal)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>An extension block as a segment of a name: <c>extension(string)</c>, <c>extension&lt;T&gt;(IEnumerable&lt;T&gt;)</c>.</summary>
    internal static bool IsExtensionBlock(string segment) =>
        segment.Length > "extension()".Length && segment.StartsWith("extension", StringComparison.Ordinal) && segment[9] is '(' or '<' && segment.EndsWith(')');

    /// <summary>Two extension blocks with as many type parameters and the same receiver type, namespaces and nullability ignored.</summary>
    private static bool SameExtensionBlock(string wanted, string candidate)
    {
        if (!IsExtensionBlock(wanted) || !IsExtensionBlock(candidate))
        {
            return false;
        }

        int wantedOpen = ParameterListStart(wanted);
        int candidateOpen = ParameterListStart(candidate);
        return NormalizeGenerics(wanted[..wantedOpen]) == NormalizeGenerics(candidate[..candidateOpen])
            && Unqualified(wanted[(wantedOpen + 1)..^1]).TrimEnd('?') == Unqualified(candidate[(candidateOpen + 1)..^1]).TrimEnd('?');
    }

    /// <summary>A type as written without namespaces or containing types: <c>System.Collections.Generic.IEnumerable&lt;T&gt;</c> → <c>IEnumerable&lt;T&gt;</c>.</summary>
    private static string Unqualified(string type) => QualifierPattern().Replace(SplitParameters(type).FirstOrDefault() ?? string.Empty, string.Empty);

    [System.Text.RegularExpressions.GeneratedRegex(@"(?:global::)?(?:@?[\p{L}_][\p{L}\p{N}_]*\.)+")]
    private static partial System.Text.RegularExpressions.Regex QualifierPattern();

    private static bool ParameterMatches(string wanted, string actual)
    {
        if (wanted == actual || actual == wanted + "?" || wanted == actual + "?")
        {
            return true;
        }

        // A namespace-qualified request type matches the (namespace-free) parameter type.
        return wanted.EndsWith("." + actual, StringComparison.Ordinal) || wanted.EndsWith("." + actual.TrimEnd('?'), StringComparison.Ordinal);
    }

    private static List<string> SplitParameters(string list)
    {
        if (string.IsNullOrWhiteSpace(list))
        {
            return [];
        }

        List<string> result = [];
        foreach (string raw in SplitTopLevel(list, ','))
        {
            string parameter = raw.Trim();
            foreach (string modifier in new[] { "ref readonly ", "scoped ", "ref ", "out ", "in ", "params ", "this " })
            {
                if (parameter.StartsWith(modifier, StringComparison.Ordinal))
                {
                    parameter = parameter[modifier.Length..].TrimStart();
                }
            }

            // "int a" (type and name) → "int".
            int space = LastIndexAtDepthZero(parameter, ' ');
            if (space > 0)
            {
                parameter = parameter[..space];
            }

            result.Add(SymbolFormat.Strip(parameter));
        }

        return result;
    }

    private static string NormalizeGenerics(string segment)
    {
        int open = GenericStart(segment);
        int close = segment.LastIndexOf('>');
        if (open < 0 || close < open)
        {
            return segment;
        }

        int arity = SplitTopLevel(segment[(open + 1)..close], ',').Count;
        return segment[..open] + "<" + new string(',', Math.Max(0, arity - 1)) + ">";
    }

    private static string WithoutGenerics(string segment)
    {
        int open = GenericStart(segment);
        return open < 0 ? segment : segment[..open];
    }

    private static List<string> SplitTopLevel(string text, char separator)
    {
        List<string> parts = [];
        int depth = 0;
        StringBuilder current = new();
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i];
            if (IsBracket(text, i, "<(["))
            {
                depth++;
            }
            else if (IsBracket(text, i, ">)]"))
            {
                depth = Math.Max(0, depth - 1);
            }

            if (separator == '.' && current.Length == 0 && ConversionKeywordLength(text, i) > 0)
            {
                current.Append(text[i..]); // implicit operator Ledger.Money: the type it converts to is part of the name.
                break;
            }

            if (c == separator && depth == 0)
            {
                parts.Add(current.ToString());
                current.Clear();
            }
            else
            {
                current.Append(c);
            }
        }

        if (current.Length > 0 || parts.Count > 0)
        {
            parts.Add(current.ToString());
        }

        return parts;
    }

    /// <summary>
    /// Where the parameter list of a name starts: the first <c>(</c> outside generic arguments in its last segment
    /// (after the last dot outside brackets, so an extension block's receiver in an earlier segment is not it), else -1.
    /// </summary>
    private static int ParameterListStart(string text)
    {
        int segmentStart = 0;
        int depth = 0;
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i];
            if (IsBracket(text, i, "<(["))
            {
                depth++;
            }
            else if (IsBracket(text, i, ">)]"))
            {
                depth = Math.Max(0, depth - 1);
            }
            else if (c == '.' && depth == 0)
            {
                segmentStart = i + 1;
            }
        }

        int angle = 0;
        for (int i = segmentStart; i < text.Length; i++)
        {
            char c = text[i];
            if (c == '(' && angle == 0)
            {
                return i;
            }

            if (IsBracket(text, i, "<"))
            {
                angle++;
            }
            else if (IsBracket(text, i, ">"))
            {
                angle = Math.Max(0, angle - 1);
            }
        }

        return -1;
    }

    /// <summary>
    /// A segment as the index keys it: without generic arguments; a conversion operator's with its keyword and the
    /// type it converts to without namespaces (<c>implicitoperatorLedger.Money</c> → <c>implicitoperatorMoney</c>).
    /// </summary>
    private static string SegmentKey(string segment)
    {
        int keyword = ConversionKeywordLength(segment, 0);
        return keyword > 0
            ? SymbolFormat.Strip(segment[..keyword]) + WithoutGenerics(Unqualified(SymbolFormat.Strip(segment[keyword..])))
            : WithoutGenerics(NormalizeGenerics(segment));
    }

    /// <summary>The length of <c>implicit operator</c> or <c>explicit operator</c> (written with or without spaces) at <paramref name="start"/>, else 0.</summary>
    private static int ConversionKeywordLength(string text, int start)
    {
        foreach (string keyword in ConversionKeywords)
        {
            if (string.CompareOrdinal(text, start, keyword, 0, keyword.Length) == 0)
            {
                int end = start + keyword.Length;
                return end < text.Length && text[end] == ' ' ? keyword.Length + 1 : keyword.Length;
            }
        }

        return 0;
    }

    private static readonly string[] ConversionKeywords = ["implicit operator", "explicit operator", "implicitoperator", "explicitoperator"];

    /// <summary>The first <c>&lt;</c> of a segment's generic arguments, or -1 (<c>operator &lt;</c> has none).</summary>
    private static int GenericStart(string segment)
    {
        for (int i = 0; i < segment.Length; i++)
        {
            if (IsBracket(segment, i, "<"))
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>
    /// True when the character at <paramref name="index"/> is one of <paramref name="brackets"/> and opens or closes
    /// something: the <c>&lt;</c> and <c>&gt;</c> of an operator's name (<c>operator &lt;=</c>, <c>operator &gt;&gt;</c>) do not.
    /// </summary>
    private static bool IsBracket(string text, int index, string brackets)
    {
        char c = text[index];
        if (!brackets.Contains(c, StringComparison.Ordinal))
        {
            return false;
        }

        if (c is not ('<' or '>'))
        {
            return true;
        }

        int start = index;
        while (start > 0 && text[start - 1] is '<' or '>' or '=')
        {
            start--;
        }

        while (start > 0 && text[start - 1] == ' ')
        {
            start--;
        }

        const string Keyword = "operator";
        return !(start >= Keyword.Length
            && string.CompareOrdinal(text, start - Keyword.Length, Keyword, 0, Keyword.Length) == 0
            && (start == Keyword.Length || !(char.IsLetterOrDigit(text[start - Keyword.Length - 1]) || text[start - Keyword.Length - 1] == '_')));
    }

    private static int LastIndexAtDepthZero(string text, char wanted)
    {
        int depth = 0;
        for (int i = text.Length - 1; i >= 0; i--)
        {
            char c = text[i];
            if (c is '>' or ')' or ']')
            {
                depth++;
            }
            else if (c is '<' or '(' or '[')
            {
                depth--;
            }
            else if (c == wanted && depth == 0)
            {
                return i;
            }
        }

        return -1;
    }
}
