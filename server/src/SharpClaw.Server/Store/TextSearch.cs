using System.Text.RegularExpressions;
using Microsoft.Data.Sqlite;
using SharpClaw.Protocol.Store;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Store;

/// <summary>
/// <c>workspace_search</c> over the file text in the store: a literal of three or more characters first asks
/// the FTS5 trigram index which files contain all its trigrams (case-insensitively), shorter literals and regular expressions
/// scan every indexed file; each candidate's lines are then matched exactly (case as asked). Path globs are the
/// host's one dialect (<see cref="PathGlob.PathFilter"/>: braces, classes; a glob without '/' matches at any depth, <c>*Tests.cs</c>). One match per line,
/// reported at its first occurrence, the line as <see cref="LineExcerpt"/> shows it (a long one cut around the match). Only the requested page is kept
/// (a bounded heap in path, line, column order) and only its lines are cut out of the text: a query matching
/// hundreds of thousands of lines counts them without making an answer item of each.
/// </summary>
internal static class TextSearch
{
    /// <summary>One of the <c>paths</c> globs as a filter; a glob the dialect cannot read is the caller's InvalidRequest.</summary>
    private static Func<string, bool> PathFilter(string glob)
    {
        try
        {
            return PathGlob.PathFilter(glob, ignoreCase: PathUtil.Comparison != StringComparison.Ordinal);
        }
        catch (ArgumentException ex)
        {
            throw SemanticException.InvalidRequest($"'paths' has {ex.Message}");
        }
    }

    /// <summary>
    /// How long the backtracking engine may take on one file before the search starts again on .NET's linear-time
    /// engine. The bound is wall-clock, so a starved machine can pass it with a fine pattern: passing it fails the
    /// search only for a pattern the linear engine cannot run (backreferences, lookarounds, atomic groups).
    /// </summary>
    private static readonly TimeSpan RegexTimeout = TimeSpan.FromSeconds(2);

    /// <summary>A search's page and counts; <paramref name="PathsMatchedFiles"/> only with paths and no match (how many files the globs let through).</summary>
    public sealed record Found(List<WorkspaceSearchMatch> Page, int Total, int Files, int? PathsMatchedFiles = null);

    /// <param name="indexedPaths">Every indexed file's path (the store's in-memory image): what an empty answer counts the globs over.</param>
    public static Found Find(StoreDatabase database, IEnumerable<string> indexedPaths, string query, bool regex, bool caseSensitive, IReadOnlyList<string>? globs, int offset, int limit, CancellationToken cancellationToken)
    {
        string pattern = regex ? query : Regex.Escape(query);
        RegexOptions options = RegexOptions.CultureInvariant | RegexOptions.Multiline | (caseSensitive ? RegexOptions.None : RegexOptions.IgnoreCase);
        Regex backtracking;
        try
        {
            backtracking = new Regex(pattern, options, RegexTimeout);
        }
        catch (ArgumentException ex)
        {
            throw SemanticException.InvalidRequest($"'{query}' is not a valid regular expression: {ex.Message}");
        }

        List<Func<string, bool>> paths = [.. (globs ?? []).Where(g => !string.IsNullOrWhiteSpace(g)).Select(g => g.Trim().Replace('\\', '/').TrimStart('/')).Select(PathFilter)];
        bool Within(string path) => paths.Count == 0 || paths.Exists(matches => matches(path));
        string? slowPath = null; // The file a match took too long on, named when no other engine can run the pattern.
        Found found;
        try
        {
            found = Scan(backtracking);
        }
        catch (RegexMatchTimeoutException)
        {
            Regex linear;
            try
            {
                linear = new Regex(pattern, options | RegexOptions.NonBacktracking);
            }
            catch (NotSupportedException)
            {
                throw SemanticException.InvalidRequest($"The regular expression '{query}' took too long on {slowPath}; make it more specific (without backreferences, lookarounds or atomic groups it runs in linear time).");
            }

            found = Scan(linear);
        }

        // No match within the globs: say whether they let any file through (an indexed search read only the files
        // holding the query's trigrams, so count them over every indexed path).
        return found.Total > 0 || paths.Count == 0 ? found : found with { PathsMatchedFiles = indexedPaths.Count(Within) };

        Found Scan(Regex matcher)
        {
            string? trigrams = regex ? null : Trigrams(query);
            bool useIndex = trigrams is not null;
            using SqliteCommand command = database.Command(useIndex
                ? "SELECT f.path, t.text FROM file_text t JOIN files f ON f.id = t.rowid WHERE file_text MATCH $trigrams"
                : "SELECT f.path, t.text FROM files f JOIN file_text t ON t.rowid = f.id");
            if (useIndex)
            {
                command.Parameters.AddWithValue("$trigrams", trigrams);
            }

            // A max-heap of the first offset+limit matches in answer order: its top is the last one kept.
            int keep = offset + limit;
            PriorityQueue<WorkspaceSearchMatch, WorkspaceSearchMatch> kept = new(keep + 1, Comparer<WorkspaceSearchMatch>.Create((a, b) => Compare(b, a)));
            int total = 0;
            int files = 0;
            void Match(string path, string text)
            {
                int lines;
                try
                {
                    lines = MatchLines(path, text, matcher, kept, keep);
                }
                catch (RegexMatchTimeoutException)
                {
                    slowPath = path;
                    throw;
                }

                total += lines;
                files += lines > 0 ? 1 : 0;
            }

            using SqliteDataReader reader = command.ExecuteReader();
            IEnumerable<(string Path, string Text)> Rows()
            {
                while (reader.Read())
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    string path = reader.GetString(0);
                    if (Within(path))
                    {
                        yield return (path, reader.GetString(1));
                    }
                }
            }

            if (useIndex)
            {
                foreach ((string path, string text) in Rows())
                {
                    Match(path, text);
                }
            }
            else
            {
                // A scan of every file: reading the text out of SQLite costs about as much as matching it, so one thread
                // reads while another matches (dotnet/efcore, 77 M characters: regexes matching on many lines took
                // 149–188 ms, now 113–159 ms on the third call).
                Pipelined(Rows(), Match, cancellationToken);
            }

            List<WorkspaceSearchMatch> page = [.. kept.UnorderedItems.Select(item => item.Element)];
            page.Sort(Compare);
            return new Found([.. page.Skip(offset)], total, files);
        }
    }

    /// <summary>
    /// Feeds <paramref name="rows"/> (read on this thread: the connection is not shared) to <paramref name="match"/>
    /// on a thread of its own through a small bounded queue. A failure on either side stops both and is thrown here.
    /// </summary>
    private static void Pipelined(IEnumerable<(string Path, string Text)> rows, Action<string, string> match, CancellationToken cancellationToken)
    {
        using System.Collections.Concurrent.BlockingCollection<(string Path, string Text)> queue = new(boundedCapacity: 32);
        using CancellationTokenSource stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        Task matching = Task.Factory.StartNew(
            () =>
            {
                try
                {
                    foreach ((string path, string text) in queue.GetConsumingEnumerable(stop.Token))
                    {
                        match(path, text);
                    }
                }
                catch
                {
                    stop.Cancel(); // The reader must not wait on a queue nobody empties.
                    throw;
                }
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning, // A thread of its own: a busy pool must not leave the reader waiting.
            TaskScheduler.Default);
        try
        {
            foreach ((string Path, string Text) row in rows)
            {
                queue.Add(row, stop.Token);
            }
        }
        catch (OperationCanceledException) when (matching.IsFaulted || (stop.IsCancellationRequested && !cancellationToken.IsCancellationRequested))
        {
            // The matcher failed: its exception is the answer, thrown below.
        }
        catch
        {
            stop.Cancel();
            queue.CompleteAdding();
            try
            {
                matching.Wait(CancellationToken.None);
            }
            catch (AggregateException)
            {
                // The reader's own failure is the one to report.
            }

            throw;
        }

        queue.CompleteAdding();
        try
        {
            matching.Wait(CancellationToken.None);
        }
        catch (AggregateException ex) when (ex.InnerExceptions.Count == 1)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(ex.InnerExceptions[0]);
        }
    }

    /// <summary>The answer's order: path (ordinal), then line, then column.</summary>
    private static int Compare(WorkspaceSearchMatch a, WorkspaceSearchMatch b) => Compare(a.Path, a.Line, a.Character, b);

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

    /// <summary>Counts the file's matching lines; a line that belongs among the first <paramref name="keep"/> of the answer is cut out and kept.</summary>
    private static int MatchLines(string path, string text, Regex matcher, PriorityQueue<WorkspaceSearchMatch, WorkspaceSearchMatch> kept, int keep)
    {
        int count = 0;
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
            count++;
            int character = match.Index - lineStart + 1;
            if (kept.Count == keep && Compare(path, line, character, kept.Peek()) >= 0)
            {
                continue; // After every kept match: counted, never shown.
            }

            int lineEnd = text.IndexOf('\n', lineStart);
            WorkspaceSearchMatch found = new(path, line, character, LineExcerpt.Around(text.AsSpan(lineStart, (lineEnd < 0 ? text.Length : lineEnd) - lineStart), match.Index - lineStart));
            if (kept.Count < keep)
            {
                kept.Enqueue(found, found);
            }
            else
            {
                kept.DequeueEnqueue(found, found);
            }
        }

        return count;
    }

    private static int Compare(string path, int line, int character, WorkspaceSearchMatch b) =>
        string.CompareOrdinal(path, b.Path) is int byPath and not 0 ? byPath : line != b.Line ? line.CompareTo(b.Line) : character.CompareTo(b.Character);
}
