using System.Text;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol.Semantic;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// The one place that formats edit previews, listings and receipts (agents and the CLI print this text as is).
/// </summary>
public static class EditRenderer
{
    public const int MaxPreviewChars = 32_000;

    /// <summary>Lines of one excerpt side before it is cut (the comparison limit).</summary>
    public const int MaxExcerptLines = 40;

    /// <summary>Operation lines a receipt shows before it ends with a <c>truncated:</c> line.</summary>
    public const int MaxReceiptOperations = 100;

    /// <summary>
    /// <c>proposal ID: N files, not applied</c>, then per file <c>change PATH</c> (or <c>rename A -> B</c>) and
    /// <c>@@ L:C</c> excerpts with <c>-</c>/<c>+</c> lines; capped at 32,000 characters with a final <c>truncated:</c> line.
    /// </summary>
    public static string Preview(string proposalId, EditPlan plan, string workspace)
    {
        StringBuilder text = new();
        text.Append("proposal ").Append(proposalId).Append(": ").Append(Files(plan.Files.Count)).Append(", not applied\n");
        int shown = 0;
        bool cutExcerpts = false;
        foreach (PlannedFile file in plan.Files)
        {
            StringBuilder block = new();
            block.Append(file.IsRename
                ? $"rename {PathUtil.ToWorkspaceRelative(workspace, file.Path)} -> {PathUtil.ToWorkspaceRelative(workspace, file.NewPath!)}\n"
                : $"change {PathUtil.ToWorkspaceRelative(workspace, file.Path)}\n");
            cutExcerpts |= AppendExcerpts(block, file.BeforeText, file.Changes);
            if (text.Length + block.Length > MaxPreviewChars - 200)
            {
                break;
            }

            text.Append(block);
            shown++;
        }

        if (shown < plan.Files.Count)
        {
            text.Append($"truncated: {shown} of {plan.Files.Count} files shown within {MaxPreviewChars} characters; applying the proposal writes all of them.\n");
        }
        else if (cutExcerpts)
        {
            text.Append($"truncated: some excerpts were cut at {MaxExcerptLines} lines; applying the proposal writes the complete edit.\n");
        }

        return text.ToString().TrimEnd('\n');
    }

    /// <summary>The receipt: status line, one line per completed operation, then the diagnostics of the changed C# files.</summary>
    public static string Receipt(bool finished, bool refreshed, IReadOnlyList<PlannedFile> completed, string workspace, string? diagnostics)
    {
        StringBuilder text = new();
        text.Append(finished ? "writes finished" : "writes NOT finished")
            .Append(refreshed ? ", Roslyn refreshed" : ", Roslyn not refreshed (it reloads on the next request)")
            .Append($": {Files(completed.Count)}\n");
        foreach (PlannedFile file in completed.Take(MaxReceiptOperations))
        {
            text.Append(file.IsRename
                ? $"rename {PathUtil.ToWorkspaceRelative(workspace, file.Path)} -> {PathUtil.ToWorkspaceRelative(workspace, file.NewPath!)}\n"
                : $"change {PathUtil.ToWorkspaceRelative(workspace, file.Path)} ({file.Occurrences} {(file.Occurrences == 1 ? "occurrence" : "occurrences")})\n");
        }

        if (diagnostics is not null)
        {
            text.Append(diagnostics);
        }

        if (completed.Count > MaxReceiptOperations)
        {
            text.Append($"truncated: {completed.Count} operations in total, {MaxReceiptOperations} shown; every one of them was written.\n");
        }

        return text.ToString().TrimEnd('\n');
    }

    public static string Listing(string proposalId, string path, IReadOnlyList<CodeActionEntry> entries, bool all)
    {
        StringBuilder text = new();
        List<CodeActionEntry> shown = [.. entries.Where(e => all || !e.Hidden)];
        int hidden = entries.Count(e => e.Hidden);
        text.Append("proposal ").Append(proposalId).Append($": {shown.Count} code action{(shown.Count == 1 ? string.Empty : "s")} for {path}\n");
        foreach (CodeActionEntry entry in shown)
        {
            text.Append(entry.Index).Append(' ').Append(entry.Title).Append(entry.Unverified ? " (unverified)" : string.Empty).Append('\n');
        }

        if (shown.Any(e => e.Unverified))
        {
            text.Append("unverified: applying these would be refused; a source generator SharpClaw does not run can see this file's project (see dotnet_solution_inspect).\n");
        }

        if (entries.Count == 0)
        {
            text.Append("no code actions here\n");
        }

        if (hidden > 0 && !all)
        {
            text.Append($"hidden: {hidden} entries under Suppress or configure issues; set all to list them.\n");
        }

        return text.ToString().TrimEnd('\n');
    }

    private static string Files(int count) => count == 1 ? "1 file" : $"{count} files";

    /// <summary>Appends one <c>@@ L:C</c> excerpt per group of changed lines; true when an excerpt was cut.</summary>
    private static bool AppendExcerpts(StringBuilder block, string before, IReadOnlyList<TextChange>? planned)
    {
        if (planned is null || planned.Count == 0)
        {
            return false;
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

        bool cut = false;
        foreach ((int firstLine, int lastLine, int groupDelta, TextChange first) in groups)
        {
            int oldStart = oldText.Lines[firstLine].Start;
            int oldEnd = oldText.Lines[lastLine].End;
            int newStart = oldStart + groupDelta;
            int groupChange = changes.Where(c => c.Span.Start >= oldStart && c.Span.End <= oldText.Lines[lastLine].EndIncludingLineBreak)
                .Sum(c => (c.NewText?.Length ?? 0) - c.Span.Length);
            int newEnd = Math.Clamp(oldEnd + groupDelta + groupChange, newStart, newText.Length);
            LinePosition at = oldText.Lines.GetLinePosition(first.Span.Start);
            block.Append($"@@ {at.Line + 1}:{at.Character + 1}\n");
            cut |= AppendLines(block, '-', oldText.ToString(TextSpan.FromBounds(oldStart, oldEnd)));
            cut |= AppendLines(block, '+', newText.ToString(TextSpan.FromBounds(newStart, Math.Max(newStart, newEnd))));
        }

        return cut;
    }

    private static bool AppendLines(StringBuilder block, char sign, string text)
    {
        string[] lines = text.ReplaceLineEndings("\n").Split('\n');
        if (lines.Length == 1 && lines[0].Length == 0)
        {
            return false;
        }

        foreach (string line in lines.Take(MaxExcerptLines))
        {
            block.Append(sign).Append(' ').Append(line).Append('\n');
        }

        return lines.Length > MaxExcerptLines;
    }
}
