using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol.Semantic;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// The changed lines of a planned file for a preview: changes whose old lines touch form one group, shown
/// as its whole old lines and the whole new lines they became (the client renders them as <c>@@ L:C</c>
/// excerpts with <c>-</c>/<c>+</c> lines).
/// </summary>
public static class EditExcerpts
{
    /// <summary>Each planned file as a preview operation with its excerpts, in plan order.</summary>
    public static IReadOnlyList<EditFileOperation> Preview(EditPlan plan, string workspace) =>
        [.. plan.Files.Zip(plan.Operations(workspace), (file, operation) => operation with { Excerpts = Of(file.BeforeText, file.Changes) })];

    /// <summary>One excerpt per group of changed lines; none without text changes (a pure file move).</summary>
    public static IReadOnlyList<EditExcerpt> Of(string before, IReadOnlyList<TextChange>? planned)
    {
        if (planned is null || planned.Count == 0)
        {
            return [];
        }

        SourceText oldText = SourceText.From(before);
        List<TextChange> changes = [.. planned.OrderBy(c => c.Span.Start)];
        SourceText newText = oldText.WithChanges(changes);

        // Group changes whose old lines touch, then show those whole lines before and after.
        List<(int FirstLine, int LastLine, int Delta, TextChange First)> groups = [];
        int delta = 0;
        foreach (TextChange change in changes)
        {
            int first = oldText.Lines.GetLineFromPosition(change.Span.Start).LineNumber;
            int last = oldText.Lines.GetLineFromPosition(change.Span.End).LineNumber;
            if (groups.Count > 0 && first <= groups[^1].LastLine + 1)
            {
                groups[^1] = (groups[^1].FirstLine, Math.Max(last, groups[^1].LastLine), groups[^1].Delta, groups[^1].First);
            }
            else
            {
                groups.Add((first, last, delta, change));
            }

            delta += (change.NewText?.Length ?? 0) - change.Span.Length;
        }

        List<EditExcerpt> excerpts = [];
        foreach ((int firstLine, int lastLine, int groupDelta, TextChange first) in groups)
        {
            int oldStart = oldText.Lines[firstLine].Start;
            int oldEnd = oldText.Lines[lastLine].End;
            int newStart = oldStart + groupDelta;
            int groupChange = changes.Where(c => c.Span.Start >= oldStart && c.Span.End <= oldText.Lines[lastLine].EndIncludingLineBreak)
                .Sum(c => (c.NewText?.Length ?? 0) - c.Span.Length);
            int newEnd = Math.Clamp(oldEnd + groupDelta + groupChange, newStart, newText.Length);
            LinePosition at = oldText.Lines.GetLinePosition(first.Span.Start);
            excerpts.Add(new EditExcerpt(
                at.Line + 1,
                at.Character + 1,
                Lines(oldText.ToString(TextSpan.FromBounds(oldStart, oldEnd))),
                Lines(newText.ToString(TextSpan.FromBounds(newStart, Math.Max(newStart, newEnd))))));
        }

        return excerpts;
    }

    /// <summary>The lines of a span (any newline convention); none for an empty span.</summary>
    private static string[] Lines(string text)
    {
        string[] lines = text.ReplaceLineEndings("\n").Split('\n');
        return lines is [""] ? [] : lines;
    }
}
