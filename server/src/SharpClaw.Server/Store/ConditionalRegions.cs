using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace SharpClaw.Server.Store;

/// <summary>
/// The <c>#if</c>/<c>#elif</c>/<c>#else</c> branches of one file and the condition under which each is compiled, written
/// as C# (<c>NET</c>, <c>!NET</c>, <c>NET8_0_OR_GREATER &amp;&amp; DEBUG</c>): an <c>#elif</c> or <c>#else</c> branch is under the
/// negation of the branches before it, a nested branch under its parent's condition too. Read from the directives of
/// any parse of the file (inactive branches keep theirs).
/// </summary>
internal sealed class ConditionalRegions
{
    private readonly List<(int Start, int End, string Condition)> regions;

    private ConditionalRegions(List<(int Start, int End, string Condition)> regions) => this.regions = regions;

    public bool IsEmpty => this.regions.Count == 0;

    /// <summary>The branches of <paramref name="root"/>'s conditional directives.</summary>
    public static ConditionalRegions Of(SyntaxNode root)
    {
        List<(int Start, int End, string Condition)> regions = [];
        Stack<Branch> open = new();
        for (DirectiveTriviaSyntax? directive = (root as CSharpSyntaxNode)?.GetFirstDirective(); directive is not null; directive = directive.GetNextDirective())
        {
            switch (directive)
            {
                case IfDirectiveTriviaSyntax @if:
                    open.Push(new Branch(open.Count > 0 ? open.Peek().Condition : null, directive.FullSpan.End, Text(@if.Condition)));
                    break;
                case ElifDirectiveTriviaSyntax elif when open.Count > 0:
                    regions.Add(open.Peek().Close(directive.FullSpan.Start));
                    open.Peek().Next(directive.FullSpan.End, Text(elif.Condition));
                    break;
                case ElseDirectiveTriviaSyntax when open.Count > 0:
                    regions.Add(open.Peek().Close(directive.FullSpan.Start));
                    open.Peek().Next(directive.FullSpan.End, null);
                    break;
                case EndIfDirectiveTriviaSyntax when open.Count > 0:
                    regions.Add(open.Pop().Close(directive.FullSpan.Start));
                    break;
            }
        }

        while (open.Count > 0)
        {
            regions.Add(open.Pop().Close(root.FullSpan.End)); // An #if left open runs to the end of the file.
        }

        return new ConditionalRegions(regions);
    }

    /// <summary>The condition of the innermost branch holding <paramref name="position"/>, or null outside every branch.</summary>
    public string? ConditionAt(int position)
    {
        (int Start, int End, string Condition)? innermost = null;
        foreach ((int Start, int End, string Condition) region in this.regions)
        {
            if (region.Start <= position && position < region.End && (innermost is null || region.Start >= innermost.Value.Start))
            {
                innermost = region;
            }
        }

        return innermost?.Condition;
    }

    private static string Text(ExpressionSyntax condition) => condition.ToString().Trim();

    /// <summary>A simple name or a negated one stays as it is; anything else gets parentheses.</summary>
    private static bool IsSimple(string condition) => condition.TrimStart('!').All(c => char.IsLetterOrDigit(c) || c == '_');

    private static string Not(string condition) =>
        condition.StartsWith('!') && IsSimple(condition) ? condition[1..] : IsSimple(condition) ? "!" + condition : $"!({condition})";

    /// <summary>Parts joined by <c>&amp;&amp;</c>; a part with a top-level <c>||</c> gets parentheses.</summary>
    private static string And(IEnumerable<string> parts)
    {
        List<string> all = [.. parts];
        return all.Count == 1 ? all[0] : string.Join(" && ", all.Select(p => p.Contains("||", StringComparison.Ordinal) && !(p.StartsWith("!(", StringComparison.Ordinal) && p.EndsWith(')')) ? $"({p})" : p));
    }

    /// <summary>The open branch of one #if group: the conditions of the branches before it, and its own (null: #else).</summary>
    private sealed class Branch(string? parent, int start, string? own)
    {
        private readonly List<string> before = [];
        private int start = start;
        private string? own = own;

        /// <summary>The condition of the current branch, with its parent's.</summary>
        public string Condition => And([.. parent is null ? [] : new[] { parent }, .. this.before.Select(Not), .. this.own is null ? [] : new[] { this.own }]);

        public (int Start, int End, string Condition) Close(int end) => (this.start, end, this.Condition);

        public void Next(int start, string? own)
        {
            if (this.own is not null)
            {
                this.before.Add(this.own);
            }

            this.start = start;
            this.own = own;
        }
    }
}
