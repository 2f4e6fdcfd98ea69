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

    /// <summary>The rules of <paramref name="file"/>, or null when it is absent or unreadable.</summary>
    public static GitIgnore? Load(string file, string baseRelative)
    {
        string[] lines;
        try
        {
            if (!File.Exists(file))
            {
                return null;
            }

            lines = File.ReadAllLines(file);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        return Parse(lines, baseRelative);
    }

    public static GitIgnore Parse(IEnumerable<string> lines, string baseRelative)
    {
        List<Rule> rules = [];
        foreach (string raw in lines)
        {
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

            bool anchored = line.Contains('/', StringComparison.Ordinal);
            line = line.TrimStart('/');
            try
            {
                rules.Add(new Rule(PathGlob.ToRegex(line, ignoreCase: false, braces: false), negated, directoryOnly, anchored));
            }
            catch (ArgumentException)
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

            if (rule.Pattern.IsMatch(rule.Anchored ? relative : name))
            {
                decision = !rule.Negated;
            }
        }

        return decision;
    }

    private sealed record Rule(Regex Pattern, bool Negated, bool DirectoryOnly, bool Anchored);
}
