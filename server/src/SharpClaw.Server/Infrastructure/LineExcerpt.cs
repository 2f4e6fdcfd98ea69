namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// A source line as answers show it: trimmed, and when longer than <see cref="MaxLength"/> cut to a window that holds
/// the position the answer points at (from <see cref="ContextBefore"/> characters before it), with "…" where it was
/// cut, so a long generated line shows what matched and not only its start. Used by workspace_search's match lines
/// and by the navigate tools' context lines.
/// </summary>
public static class LineExcerpt
{
    public const int MaxLength = 200;

    private const int ContextBefore = 40;

    /// <param name="line">The whole line, without its line break.</param>
    /// <param name="column">The zero-based position in <paramref name="line"/> the window must hold.</param>
    public static string Around(ReadOnlySpan<char> line, int column)
    {
        int from = line.Length - line.TrimStart().Length;
        int to = line.TrimEnd().Length;
        if (to - from <= MaxLength)
        {
            return from < to ? line[from..to].ToString() : string.Empty;
        }

        int start = Math.Max(from, Math.Min(column - ContextBefore, to - MaxLength));
        int end = Math.Min(to, start + MaxLength);
        start += start > from && char.IsLowSurrogate(line[start]) ? 1 : 0; // Never half a character.
        end -= end < to && char.IsHighSurrogate(line[end - 1]) ? 1 : 0;
        return string.Concat(start > from ? "…" : string.Empty, line[start..end], end < to ? "…" : string.Empty);
    }
}
