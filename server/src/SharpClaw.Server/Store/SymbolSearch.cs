using Microsoft.Data.Sqlite;
using SharpClaw.Protocol.Store;
using SharpClaw.Server.Semantic;
using SharpClaw.Server.Semantic.Navigation;

namespace SharpClaw.Server.Store;

/// <summary>
/// <c>symbol_search</c> over the syntax index: declarations whose name matches the query, scored by the rule
/// csharp_symbols uses (<see cref="SymbolsService.Score"/>: exact, prefix, camel humps, substring), then types
/// before members before fields, then shorter names (JsConv: JsonConverter before CustomJsonConverter), then path and position. A dotted query (<c>Calculator.Add</c>) searches the
/// last segment inside containers ending with the rest. SQL narrows the rows (the query as a subsequence);
/// the score decides.
/// </summary>
internal static class SymbolSearch
{
    private static readonly HashSet<string> Kinds = new(StringComparer.Ordinal)
    {
        "namespace", "class", "record", "struct", "interface", "enum", "delegate", "method", "constructor", "operator", "property", "field", "event",
    };

    public static (List<SymbolSearchItem> Matches, string Name) Find(StoreDatabase database, string query, string? kind, string? container)
    {
        if (kind is not null && !Kinds.Contains(kind))
        {
            throw SemanticException.InvalidRequest($"kind '{kind}' is not one of: {string.Join(", ", Kinds)}.");
        }

        string name = query.Trim();
        int dot = name.LastIndexOf('.');
        if (dot > 0 && dot < name.Length - 1)
        {
            container = container is null ? name[..dot] : container + "." + name[..dot];
            name = name[(dot + 1)..];
        }

        string lower = name.ToLowerInvariant();
        using SqliteCommand command = database.Command(
            "SELECT d.name, d.display, d.kind, d.container, d.signature, f.path, d.line, d.character, d.end_line, d.end_character FROM decls d JOIN files f ON f.id = d.file_id " +
            "WHERE d.name_lower GLOB $subsequence" + (kind is null ? string.Empty : " AND d.kind = $kind"));
        command.Parameters.AddWithValue("$subsequence", Subsequence(lower));
        if (kind is not null)
        {
            command.Parameters.AddWithValue("$kind", kind);
        }

        List<(int Score, int KindRank, int Length, SymbolSearchItem Item)> scored = [];
        using SqliteDataReader reader = command.ExecuteReader();
        while (reader.Read())
        {
            string declared = reader.GetString(0);
            int score = SymbolsService.Score(declared, name);
            string? declaredContainer = reader.IsDBNull(3) ? null : reader.GetString(3);
            if (score == int.MaxValue || !ContainerMatches(declaredContainer, container))
            {
                continue;
            }

            string declaredKind = reader.GetString(2);
            SymbolSearchItem item = new(
                reader.GetString(1), declaredKind, declaredContainer, reader.GetString(4), reader.GetString(5),
                reader.GetInt32(6), reader.GetInt32(7), reader.GetInt32(8), reader.GetInt32(9));
            scored.Add((score, KindRank(declaredKind), declared.Length, item));
        }

        List<SymbolSearchItem> ordered = [.. scored
            .OrderBy(s => s.Score).ThenBy(s => s.KindRank).ThenBy(s => s.Length)
            .ThenBy(s => s.Item.Path, StringComparer.Ordinal).ThenBy(s => s.Item.Line).ThenBy(s => s.Item.Character)
            .Select(s => s.Item)];
        return (ordered, name);
    }

    /// <summary>
    /// A GLOB that matches every lower-cased name containing the query's characters in order (<c>*c*o*t*o*</c>): each
    /// match quality (exact, prefix, camel humps, substring) implies it, so it narrows the rows without losing one.
    /// </summary>
    private static string Subsequence(string lower)
    {
        System.Text.StringBuilder pattern = new("*");
        foreach (char c in lower)
        {
            pattern.Append(c is '*' or '?' or '[' or ']' ? $"[{c}]" : c.ToString()).Append('*');
        }

        return pattern.ToString();
    }

    /// <summary>The container equals the wanted one or ends with it at a dot (Core.Calculator matches Calc.Core.Calculator).</summary>
    private static bool ContainerMatches(string? declared, string? wanted) =>
        wanted is null
        || (declared is not null && (declared.Equals(wanted, StringComparison.Ordinal) || declared.EndsWith("." + wanted, StringComparison.Ordinal)));

    /// <summary>As csharp_symbols ranks within one match quality: types, then members that run code, then the rest.</summary>
    private static int KindRank(string kind) => kind switch
    {
        "class" or "record" or "struct" or "interface" or "enum" or "delegate" => 0,
        "method" or "constructor" or "operator" or "property" or "event" => 1,
        _ => 2,
    };
}
