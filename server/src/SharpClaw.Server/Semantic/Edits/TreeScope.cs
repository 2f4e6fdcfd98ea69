using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// How much of one syntax tree an edit's error comparison binds: the whole tree (syntax, declarations and
/// every member body), its declarations only, its declarations plus the bodies of some members (the
/// members where the edit can change what a name binds to), or nothing. The same scope is used before and after the
/// edit for a tree whose text did not change, so both sides count errors over the same code.
/// </summary>
public sealed class TreeScope
{
    private TreeScope(bool whole, ImmutableArray<TextSpan> members, bool nothing = false)
    {
        this.Whole = whole;
        this.Members = members;
        this.Nothing = nothing;
        this.Key = nothing ? "none" : whole ? "full" : members.IsEmpty ? "declarations" : string.Join(",", members.Select(s => $"{s.Start}+{s.Length}"));
    }

    /// <summary>Nothing of the tree can bind differently, its declarations included.</summary>
    public static TreeScope None { get; } = new(whole: false, [], nothing: true);

    public bool Nothing { get; }

    /// <summary>Every diagnostic of the tree (changed trees, generator output, files holding a reference).</summary>
    public static TreeScope Full { get; } = new(whole: true, []);

    /// <summary>Declaration diagnostics only: no member body of the tree can bind differently.</summary>
    public static TreeScope Declarations { get; } = new(whole: false, []);

    public bool Whole { get; }

    /// <summary>The spans of the members whose bodies are bound besides the declarations (merged, ordered).</summary>
    public ImmutableArray<TextSpan> Members { get; }

    /// <summary>Identifies the scope for caching: equal keys bind the same code of the same text.</summary>
    public string Key { get; }

    /// <summary>Declarations plus the bodies of the members covering <paramref name="spans"/> (overlaps merged).</summary>
    public static TreeScope WithMembers(IEnumerable<TextSpan> spans)
    {
        List<TextSpan> merged = [];
        foreach (TextSpan span in spans.OrderBy(s => s.Start))
        {
            if (merged.Count > 0 && merged[^1].End >= span.Start)
            {
                merged[^1] = TextSpan.FromBounds(merged[^1].Start, Math.Max(merged[^1].End, span.End));
            }
            else
            {
                merged.Add(span);
            }
        }

        return merged.Count == 0 ? Declarations : new TreeScope(whole: false, [.. merged]);
    }

    /// <summary>The diagnostics of <paramref name="tree"/> in this scope (each reported once).</summary>
    public IEnumerable<Diagnostic> Diagnostics(Compilation compilation, SyntaxTree tree, CancellationToken cancellationToken)
    {
        if (this.Nothing)
        {
            return [];
        }

        SemanticModel model = compilation.GetSemanticModel(tree);
        if (this.Whole)
        {
            return model.GetDiagnostics(cancellationToken: cancellationToken);
        }

        IEnumerable<Diagnostic> found = model.GetDeclarationDiagnostics(cancellationToken: cancellationToken);
        foreach (TextSpan member in this.Members)
        {
            found = found.Concat(model.GetMethodBodyDiagnostics(member, cancellationToken));
        }

        return found;
    }
}
