using System.Text.RegularExpressions;
using Microsoft.Data.Sqlite;
using SharpClaw.Protocol.Store;
using SharpClaw.Server.Semantic;

namespace SharpClaw.Server.Store;

/// <summary>
/// <c>workspace_search</c> over the file text in the store: a literal of three or more characters first asks
/// the FTS5 trigram index which files contain all its trigrams (case-insensitively), shorter literals and regular expressions
/// scan every indexed file; each candidate's lines are then matched exactly (case as asked). Path globs use
/// <see cref="PathGlob"/>; a glob without '/' matches at any depth (<c>*Tests.cs</c>). One match per line,
/// reported at its first occurrence, the line trimmed and cut at 200 characters.
/// </summary>
internal static class TextSearch
{
    private const int MaxLineText = 200;
    private static readonly TimeSpan RegexTimeout = TimeSpan.FromSeconds(2);

    public static (List<WorkspaceSearchMatch> Matches, int Files) Find(StoreDatabase database, string query, bool regex, bool caseSensitive, IReadOnlyList<string>? globs, CancellationToken cancellationToken)
    {
        Regex matcher;
        try
        {
            RegexOptions options = RegexOptions.CultureInvariant | RegexOptions.Multiline | (caseSensitive ? RegexOptions.None : RegexOptions.IgnoreCase);
            matcher = new Regex(regex ? query : Regex.Escape(query), options, RegexTimeout);
        }
        catch (ArgumentException ex)
        {
            throw SemanticException.InvalidRequest($"'{query}' is not a valid regular expression: {ex.Message}");
        }

        bool ignorePathCase = !OperatingSystem.IsLinux();
        List<Regex> paths = [.. (globs ?? []).Where(g => !string.IsNullOrWhiteSpace(g)).Select(g => g.Trim().Replace('\\', '/').TrimStart('/')).Select(g => PathGlob.ToRegex(g.Contains('/', StringComparison.Ordinal) ? g : "**/" + g, ignorePathCase))];
        string? trigrams = regex ? null : Trigrams(query);
        bool useIndex = trigrams is not null;
        using SqliteCommand command = database.Command(useIndex
            ? "SELECT f.path, t.text FROM file_text t JOIN files f ON f.id = t.rowid WHERE file_text MATCH $trigrams"
            : "SELECT f.path, t.text FROM files f JOIN file_text t ON t.rowid = f.id");
        if (useIndex)
        {
            command.Parameters.AddWithValue("$trigrams", trigrams);
        }

        List<WorkspaceSearchMatch> matches = [];
        int files = 0;
        using SqliteDataReader reader = command.ExecuteReader();
        while (reader.Read())
        {
            cancellationToken.ThrowIfCancellationRequested();
            string path = reader.GetString(0);
            if (paths.Count > 0 && !paths.Any(p => p.IsMatch(path)))
            {
                continue;
            }

            int before = matches.Count;
            try
            {
                MatchLines(path, reader.GetString(1), matcher, matches);
            }
            catch (RegexMatchTimeoutException)
            {
                throw SemanticException.InvalidRequest($"The regular expression '{query}' took too long on {path}; make it more specific.");
            }

            files += matches.Count > before ? 1 : 0;
        }

        matches.Sort((a, b) => string.CompareOrdinal(a.Path, b.Path) is int byPath and not 0 ? byPath : a.Line != b.Line ? a.Line.CompareTo(b.Line) : a.Character.CompareTo(b.Character));
        return (matches, files);
    }

    /// <summary>
    /// Every distinct trigram of the literal (in code points, as the FTS5 tokenizer counts) as an AND query
    /// (<c>"com" AND "omp" AND …</c>): the index keeps no positions, so it names the files holding all of them, a
    /// superset of those holding the literal. Null for a literal shorter than three code points.
    /// </summary>
    private static string? Trigrams(string literal)
    {
        string[] runes = [.. literal.EnumerateRunes().Select(r => r.ToString())];
        if (runes.Length < 3)
        {
            return null;
        }

        HashSet<string> terms = new(StringComparer.OrdinalIgnoreCase);
        for (int i = 0; i + 3 <= runes.Length; i++)
        {
            terms.Add("\"" + string.Concat(runes[i], runes[i + 1], runes[i + 2]).Replace("\"", "\"\"", StringComparison.Ordinal) + "\"");
        }

        return string.Join(" AND ", terms);
    }

    private static void MatchLines(string path, string text, Regex matcher, List<WorkspaceSearchMatch> matches)
    {
        int line = 1;
        int lineStart = 0;
        int lastLine = 0;
        for (Match match = matcher.Match(text); match.Success; match = match.NextMatch())
        {
            while (true)
            {
                int newline = text.IndexOf('\n', lineStart);
                if (newline < 0 || newline >= match.Index)
                {
                    break;
                }

                lineStart = newline + 1;
                line++;
            }

            if (line == lastLine)
            {
                continue;
            }

            lastLine = line;
            int lineEnd = text.IndexOf('\n', lineStart);
            string lineText = text[lineStart..(lineEnd < 0 ? text.Length : lineEnd)].TrimEnd('\r').Trim();
            matches.Add(new WorkspaceSearchMatch(path, line, match.Index - lineStart + 1, lineText.Length > MaxLineText ? lineText[..MaxLineText] + "…" : lineText));
        }
    }
}
