using Microsoft.CodeAnalysis.CSharp;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// The one rule for a new C# name, kept by every rename path (the rename tool's <see cref="RenameService"/>
/// and raw LSP <c>textDocument/rename</c>, which the VS Code, CLI and MCP surfaces reach): no format or
/// bidi control characters, a valid C# identifier, and a keyword only when escaped with <c>@</c>.
/// A refusal is invalid_identifier naming what was wrong.
/// </summary>
public static class IdentifierRule
{
    /// <summary>The identifier text to use (keywords need @), or invalid_identifier.</summary>
    public static string Validate(string? newName)
    {
        if (string.IsNullOrWhiteSpace(newName))
        {
            throw SemanticException.InvalidRequest("'newName' is required for rename.");
        }

        RejectInvisibleCharacters(newName);
        string name = newName.Trim();
        bool verbatim = name.StartsWith('@');
        string bare = verbatim ? name[1..] : name;
        if (!SyntaxFacts.IsValidIdentifier(bare))
        {
            throw SemanticException.Edit(SemanticErrorKind.InvalidIdentifier, $"'{name}' is not a valid C# identifier.");
        }

        if (!verbatim && SyntaxFacts.GetKeywordKind(bare) != SyntaxKind.None)
        {
            throw SemanticException.Edit(SemanticErrorKind.InvalidIdentifier, $"'{name}' is a C# keyword; write '@{name}' to use it as an identifier.");
        }

        return name;
    }

    /// <summary>
    /// Format and bidi control characters (Unicode category Cf: U+202E right-to-left override, U+200B
    /// zero-width space, U+00AD soft hyphen, ...) are legal in C# identifiers but ignored by the
    /// compiler, so they would slip unseen into every reference: invalid_identifier, naming the
    /// character and its one-based position.
    /// </summary>
    private static void RejectInvisibleCharacters(string newName)
    {
        for (int i = 0; i < newName.Length; i++)
        {
            char c = newName[i];
            if (char.GetUnicodeCategory(c) != System.Globalization.UnicodeCategory.Format)
            {
                continue;
            }

            string code = $"U+{(int)c:X4}";
            string name = InvisibleNames.TryGetValue(c, out string? known) ? $"{code} {known}" : $"{code} (a format control character)";
            string shown = string.Concat(newName.Select(ch => char.GetUnicodeCategory(ch) == System.Globalization.UnicodeCategory.Format ? $"\\u{(int)ch:X4}" : ch.ToString()));
            throw SemanticException.Edit(
                SemanticErrorKind.InvalidIdentifier,
                $"'{shown}' contains {name} at position {i + 1}; format and bidi control characters are invisible and ignored by the compiler, so SharpClaw refuses them in names.");
        }
    }

    private static readonly Dictionary<char, string> InvisibleNames = new()
    {
        ['\u00AD'] = "SOFT HYPHEN",
        ['\u061C'] = "ARABIC LETTER MARK",
        ['\u180E'] = "MONGOLIAN VOWEL SEPARATOR",
        ['\u200B'] = "ZERO WIDTH SPACE",
        ['\u200C'] = "ZERO WIDTH NON-JOINER",
        ['\u200D'] = "ZERO WIDTH JOINER",
        ['\u200E'] = "LEFT-TO-RIGHT MARK",
        ['\u200F'] = "RIGHT-TO-LEFT MARK",
        ['\u202A'] = "LEFT-TO-RIGHT EMBEDDING",
        ['\u202B'] = "RIGHT-TO-LEFT EMBEDDING",
        ['\u202C'] = "POP DIRECTIONAL FORMATTING",
        ['\u202D'] = "LEFT-TO-RIGHT OVERRIDE",
        ['\u202E'] = "RIGHT-TO-LEFT OVERRIDE",
        ['\u2060'] = "WORD JOINER",
        ['\u2066'] = "LEFT-TO-RIGHT ISOLATE",
        ['\u2067'] = "RIGHT-TO-LEFT ISOLATE",
        ['\u2068'] = "FIRST STRONG ISOLATE",
        ['\u2069'] = "POP DIRECTIONAL ISOLATE",
        ['\uFEFF'] = "ZERO WIDTH NO-BREAK SPACE",
    };
}
