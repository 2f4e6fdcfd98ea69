using System.Text.RegularExpressions;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Store;

/// <summary>
/// The rules of one <c>.gitignore</c> file, read as git reads them: blank lines and <c>#</c> comments skipped,
/// <c>!</c> re-includes, a trailing <c>/</c> matches folders only, a pattern with a <c>/</c> before its end is
/// anchored to the file's folder, otherwise it matches a name at any depth below it. Patterns are the host's one glob
/// dialect (<see cref="PathGlob"/>) without braces, which git reads as themselves. The last matching rule
/// wins; a file inside an ignored folder stays ignored (the walker never enters it). No git process runs: a
/// repository's config (fsmonitor, hooks) could execute code.
/// </summary>
internal sealed class GitIgnore
{
    private readonly List<Rule> rules;

    private GitIgnore(string baseRelative, List<Rule> rules)
    {
        this.BaseRelative = baseRelative;
        this.rules = rules;
    }

    /// <summary>The folder of the .gitignore, workspace-relative with '/' (empty at the root).</summary>
    public string BaseRelative { get; }

    /// <summary>The most of one .gitignore the host reads (the largest real ones are a few KiB).</summary>
    public const long MaxBytes = 1024 * 1024;

    /// <summary>The most patterns of one .gitignore: each is matched against every path below its folder.</summary>
    public const int MaxPatterns = 5_000;

    /// <summary>
    /// How long the cheap-to-build backtracking expression may take on one path before that pattern moves to the
    /// linear-time engine (built then, once per pattern). A wall-clock bound alone would refuse a trivial pattern on a
    /// machine starved of CPU, so passing it never fails a search: it only changes the engine.
    /// </summary>
    private static readonly TimeSpan MatchTimeout = TimeSpan.FromMilliseconds(100);

    /// <summary>The longest pattern: longer ones are no path a workspace holds, only work for the matcher.</summary>
    public const int MaxPatternLength = 4096;

    /// <summary>
    /// The rules of <paramref name="file"/>, or null when it is absent, unreadable or no regular file (a FIFO
    /// is never opened). One over <see cref="MaxBytes"/>, <see cref="MaxPatterns"/> or with a pattern over
    /// <see cref="MaxPatternLength"/> is invalid_request naming the file (and the pattern's line), so a search
    /// never answers from rules it did not read.
    /// </summary>
    public static GitIgnore? Load(string file, string baseRelative)
    {
        string shown = baseRelative.Length == 0 ? ".gitignore" : baseRelative + "/.gitignore";
        string? text = BoundedFileRead.ReadText(file, MaxBytes, out BoundedFileRead.Refusal refusal);
        if (refusal == BoundedFileRead.Refusal.TooLarge)
        {
            throw SemanticException.InvalidRequest($"{shown} {BoundedFileRead.Describe(refusal, MaxBytes)}; shorten it (or delete it) and search again.");
        }

        return text is null ? null : Parse(text.Split('\n'), baseRelative, shown);
    }

    public static GitIgnore Parse(IEnumerable<string> lines, string baseRelative, string? shown = null)
    {
        shown ??= baseRelative.Length == 0 ? ".gitignore" : baseRelative + "/.gitignore";
        List<Rule> rules = [];
        int number = 0;
        foreach (string raw in lines)
        {
            number++;
            string line = raw.TrimEnd('\r');
            if (!line.EndsWith("\\ ", StringComparison.Ordinal))
            {
                line = line.TrimEnd(' ');
            }

            if (line.Length == 0 || line.StartsWith('#'))
            {
                continue;
            }

            bool negated = line.StartsWith('!');
            if (negated)
            {
                line = line[1..];
            }
            else if (line.StartsWith("\\!", StringComparison.Ordinal) || line.StartsWith("\\#", StringComparison.Ordinal))
            {
                line = line[1..];
            }

            bool directoryOnly = line.EndsWith('/');
            line = line.TrimEnd('/');
            if (line.Length == 0)
            {
                continue;
            }

            if (line.Length > MaxPatternLength)
            {
                throw SemanticException.InvalidRequest($"{shown} line {number}: a pattern of {line.Length} characters ('{line[..40]}…'); SharpClaw reads patterns of at most {MaxPatternLength} characters. Shorten it and search again.");
            }

            if (rules.Count == MaxPatterns)
            {
                throw SemanticException.InvalidRequest($"{shown} has more than {MaxPatterns} patterns (line {number}: '{(line.Length > 40 ? line[..40] + "…" : line)}'); SharpClaw reads at most {MaxPatterns} of one .gitignore. Shorten it and search again.");
            }

            bool anchored = line.Contains('/', StringComparison.Ordinal);
            line = line.TrimStart('/');
            try
            {
                rules.Add(new Rule(PathGlob.ToRegex(line, ignoreCase: false, braces: false, MatchTimeout), negated, directoryOnly, anchored, line));
            }
            catch (Exception ex) when (ex is ArgumentException or NotSupportedException)
            {
                // A pattern .NET cannot translate is skipped, as git skips malformed ones.
            }
        }

        return new GitIgnore(baseRelative, rules);
    }

    /// <summary>Ignored (true), re-included (false) or not mentioned (null) by this file's rules.</summary>
    public bool? Decide(string workspaceRelative, bool isDirectory)
    {
        string relative = this.BaseRelative.Length == 0 ? workspaceRelative : workspaceRelative[(this.BaseRelative.Length + 1)..];
        string name = relative[(relative.LastIndexOf('/') + 1)..];
        bool? decision = null;
        foreach (Rule rule in this.rules)
        {
            if (rule.DirectoryOnly && !isDirectory)
            {
                continue;
            }

            if (rule.IsMatch(rule.Anchored ? relative : name))
            {
                decision = !rule.Negated;
            }
        }

        return decision;
    }

    private sealed class Rule(Regex pattern, bool negated, bool directoryOnly, bool anchored, string text)
    {
        private Regex pattern = pattern;

        public bool Negated { get; } = negated;

        public bool DirectoryOnly { get; } = directoryOnly;

        public bool Anchored { get; } = anchored;

        public bool IsMatch(string path)
        {
            try
            {
                return this.pattern.IsMatch(path);
            }
            catch (RegexMatchTimeoutException)
            {
                // Backtracking (*a*a*a…*b on a long name) or a starved machine: the linear engine answers in time
                // proportional to the path, so this rule keeps it from now on. It runs every expression of the glob
                // dialect (tools' path filters use nothing else), so building it cannot fail here.
                this.pattern = PathGlob.ToRegex(text, ignoreCase: false, braces: false);
                return this.pattern.IsMatch(path);
            }
        }
    }
}
