using System.Text;
using System.Text.RegularExpressions;

namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// The one glob dialect of the host, for every path filter: csharp_diagnostics' <c>file</c>, csharp_workspace_search's
/// <c>paths</c>, the DefaultItemExcludes a file rename checks, and (without braces, as git reads them) .gitignore lines.
/// <list type="bullet">
/// <item><c>*</c> any run of characters within one segment; <c>?</c> one character (never <c>/</c>).</item>
/// <item><c>**</c> as a whole segment: any number of whole segments (<c>src/**/*.cs</c>, <c>**/Tests/**</c>); elsewhere it is <c>*</c>.</item>
/// <item><c>[abc]</c>, <c>[a-z]</c>, <c>[!a-z]</c> (or <c>[^a-z]</c>): one character of (not of) the class, never <c>/</c>.</item>
/// <item><c>{a,b}</c>: either alternative, nested braces allowed; a brace without its partner is itself.</item>
/// <item><c>\x</c>: <c>x</c> itself.</item>
/// </list>
/// A glob is matched against the whole '/'-separated relative path; <see cref="PathFilter"/> (a tool's filter) also
/// matches a glob without '/' against the file name at any depth. Translated once into a culture-invariant
/// regular expression run by the non-backtracking engine, so matching time is linear in the path whatever the pattern.
/// </summary>
public static class PathGlob
{
    /// <summary>The longest glob a tool's path filter may be (the tool schemas say the same).</summary>
    public const int MaxLength = 1024;

    /// <summary>Whether <paramref name="text"/> is a glob rather than a path: it has a character the dialect gives a meaning.</summary>
    public static bool IsGlob(string text) => text.IndexOfAny(['*', '?', '{', '[']) >= 0;

    /// <summary>
    /// A tool's path filter: <paramref name="glob"/> ('/'-separated, workspace-relative) against a relative path; without
    /// '/', against the file name at any depth (<c>*Tests.cs</c>). Throws <see cref="ArgumentException"/> naming what is wrong
    /// for a glob longer than <see cref="MaxLength"/> or one with a malformed class (<c>[z-a]</c>).
    /// </summary>
    public static Func<string, bool> PathFilter(string glob, bool ignoreCase)
    {
        if (glob.Length > MaxLength)
        {
            throw new ArgumentException($"a glob of {glob.Length} characters; at most {MaxLength} are accepted.");
        }

        Regex regex = ToRegex(glob.Contains('/', StringComparison.Ordinal) ? glob : "**/" + glob, ignoreCase);
        return regex.IsMatch;
    }

    /// <summary>
    /// The anchored regular expression of <paramref name="glob"/>; <paramref name="braces"/> false reads <c>{</c> and <c>}</c>
    /// as themselves (git's dialect). Throws <see cref="ArgumentException"/> for a malformed class (<c>[z-a]</c>).
    /// With <paramref name="matchTimeout"/> the expression is the cheap-to-build backtracking one, each match
    /// bounded by that time (<see cref="RegexMatchTimeoutException"/>): for thousands of patterns built at once
    /// (a .gitignore), where building the linear-time engine's automaton for each costs milliseconds.
    /// </summary>
    public static Regex ToRegex(string glob, bool ignoreCase, bool braces = true, TimeSpan? matchTimeout = null)
    {
        RegexOptions options = RegexOptions.CultureInvariant | (matchTimeout is null ? RegexOptions.NonBacktracking : RegexOptions.None) | (ignoreCase ? RegexOptions.IgnoreCase : RegexOptions.None);
        try
        {
            return matchTimeout is { } timeout ? new Regex(ToPattern(glob, braces), options, timeout) : new Regex(ToPattern(glob, braces), options);
        }
        catch (ArgumentException)
        {
            // Everything but a class's body is escaped, so only a class can be malformed.
            throw new ArgumentException($"not a valid glob: '{glob}' has a malformed character class (a range such as [z-a]).");
        }
    }

    /// <summary>The pattern of <see cref="ToRegex"/>. Repeated <c>**</c> segments mean the same as one and are collapsed
    /// first, so the expression grows linearly with the glob.</summary>
    internal static string ToPattern(string glob, bool braces = true)
    {
        while (glob.Contains("**/**", StringComparison.Ordinal) || glob.Contains("***", StringComparison.Ordinal))
        {
            glob = glob.Replace("**/**", "**", StringComparison.Ordinal).Replace("***", "**", StringComparison.Ordinal);
        }

        HashSet<int> pairedBraces = braces ? PairedBraces(glob) : [];
        StringBuilder pattern = new("^");
        int open = 0;
        for (int i = 0; i < glob.Length; i++)
        {
            char c = glob[i];
            switch (c)
            {
                case '*' when i + 1 < glob.Length && glob[i + 1] == '*' && SegmentStarts(glob, i, pairedBraces, open) && SegmentEnds(glob, i + 2, pairedBraces, open):
                    bool slash = i + 2 < glob.Length && glob[i + 2] == '/';
                    pattern.Append(slash ? "(?:.*/)?" : ".*");
                    i += slash ? 2 : 1; // past '**' (and its '/')
                    break;
                case '*':
                    pattern.Append("[^/]*");
                    while (i + 1 < glob.Length && glob[i + 1] == '*')
                    {
                        i++; // '**' inside a segment is one '*'
                    }

                    break;
                case '?':
                    pattern.Append("[^/]");
                    break;
                case '[' when ClassEnd(glob, i) is int close:
                    string body = glob[(i + 1)..close];
                    bool negated = body.StartsWith('!') || body.StartsWith('^');
                    body = negated ? body[1..] : body;
                    pattern.Append('[').Append(negated ? "^/" : string.Empty).Append(body.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("[", "\\[", StringComparison.Ordinal)).Append(']');
                    i = close;
                    break;
                case '\\' when i + 1 < glob.Length:
                    pattern.Append(Regex.Escape(glob[++i].ToString()));
                    break;
                case '{' when pairedBraces.Contains(i):
                    open++;
                    pattern.Append("(?:");
                    break;
                case '}' when pairedBraces.Contains(i):
                    open--;
                    pattern.Append(')');
                    break;
                case ',' when open > 0:
                    pattern.Append('|');
                    break;
                default:
                    pattern.Append(Regex.Escape(c.ToString()));
                    break;
            }
        }

        return pattern.Append('$').ToString();
    }

    /// <summary>Whether position <paramref name="i"/> starts a segment: the glob's start, after '/', or the start of an alternative.</summary>
    private static bool SegmentStarts(string glob, int i, HashSet<int> pairedBraces, int open) =>
        i == 0 || glob[i - 1] == '/' || (pairedBraces.Contains(i - 1) && glob[i - 1] == '{') || (open > 0 && glob[i - 1] == ',');

    /// <summary>Whether position <paramref name="i"/> ends a segment: the glob's end, a '/', or the end of an alternative.</summary>
    private static bool SegmentEnds(string glob, int i, HashSet<int> pairedBraces, int open) =>
        i == glob.Length || glob[i] == '/' || (pairedBraces.Contains(i) && glob[i] == '}') || (open > 0 && glob[i] == ',');

    /// <summary>The index of the <c>]</c> that closes a non-empty class opened at <paramref name="start"/>, or null (then <c>[</c> is itself).</summary>
    private static int? ClassEnd(string glob, int start) =>
        glob.IndexOf(']', start + 1) is int close and > 0 && close > start + 1 ? close : null;

    /// <summary>The positions of the braces that pair up (outside classes and escapes); any other brace is itself.</summary>
    private static HashSet<int> PairedBraces(string glob)
    {
        HashSet<int> paired = [];
        Stack<int> open = new();
        for (int i = 0; i < glob.Length; i++)
        {
            switch (glob[i])
            {
                case '\\':
                    i++;
                    break;
                case '[' when ClassEnd(glob, i) is int close:
                    i = close;
                    break;
                case '{':
                    open.Push(i);
                    break;
                case '}' when open.Count > 0:
                    paired.Add(open.Pop());
                    paired.Add(i);
                    break;
            }
        }

        return paired;
    }
}
