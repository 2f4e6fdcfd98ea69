using System.Text;
using System.Text.RegularExpressions;

namespace SharpClaw.Server.Store;

/// <summary>
/// The one glob dialect of the store (gitignore patterns and workspace_search's path globs): <c>*</c> any run
/// within a segment, <c>?</c> one character, <c>**</c> any number of whole segments, <c>[abc]</c> / <c>[!a-z]</c>
/// classes; <c>/</c> separates segments. Translated once to an anchored, culture-invariant regex.
/// </summary>
internal static class PathGlob
{
    public static Regex ToRegex(string glob, bool ignoreCase)
    {
        StringBuilder pattern = new("^");
        for (int i = 0; i < glob.Length; i++)
        {
            char c = glob[i];
            if (c == '*')
            {
                bool doubleStar = i + 1 < glob.Length && glob[i + 1] == '*';
                if (doubleStar)
                {
                    bool segmentStart = i == 0 || glob[i - 1] == '/';
                    bool segmentEnd = i + 2 == glob.Length || glob[i + 2] == '/';
                    if (segmentStart && segmentEnd)
                    {
                        if (i + 2 == glob.Length)
                        {
                            pattern.Append(".*");
                        }
                        else
                        {
                            pattern.Append("(?:.*/)?");
                            i++; // the '/' after '**'
                        }

                        i++;
                        continue;
                    }

                    i++;
                }

                pattern.Append("[^/]*");
            }
            else if (c == '?')
            {
                pattern.Append("[^/]");
            }
            else if (c == '[' && glob.IndexOf(']', i + 1) is int close and > 0 && close > i + 1)
            {
                string body = glob[(i + 1)..close];
                bool negated = body.StartsWith('!') || body.StartsWith('^');
                if (negated)
                {
                    body = body[1..];
                }

                pattern.Append('[').Append(negated ? "^/" : string.Empty).Append(body.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("[", "\\[", StringComparison.Ordinal)).Append(']');
                i = close;
            }
            else if (c == '\\' && i + 1 < glob.Length)
            {
                pattern.Append(Regex.Escape(glob[++i].ToString()));
            }
            else
            {
                pattern.Append(Regex.Escape(c.ToString()));
            }
        }

        pattern.Append('$');
        RegexOptions options = RegexOptions.CultureInvariant | (ignoreCase ? RegexOptions.IgnoreCase : RegexOptions.None);
        return new Regex(pattern.ToString(), options, TimeSpan.FromSeconds(1));
    }
}
