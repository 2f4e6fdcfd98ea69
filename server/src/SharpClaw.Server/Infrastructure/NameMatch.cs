namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// The one rule for how well a symbol name matches a name query, shared by csharp_symbols' workspace query (Roslyn)
/// and the store's symbol_search (the syntax index); <see cref="NameFilter"/> skips the names it would reject.
/// </summary>
public static class NameMatch
{
    /// <summary>
    /// Lower is better: exact (case-sensitive, then not), prefix (the same), camel humps (<c>FeMa</c> →
    /// <c>FeatureManager</c>: a deliberate abbreviation), substring (the same); int.MaxValue: no match.
    /// </summary>
    public static int Score(ReadOnlySpan<char> name, ReadOnlySpan<char> query)
    {
        if (name.Equals(query, StringComparison.Ordinal))
        {
            return 0;
        }

        if (name.Equals(query, StringComparison.OrdinalIgnoreCase))
        {
            return 1;
        }

        if (name.StartsWith(query, StringComparison.Ordinal))
        {
            return 2;
        }

        if (name.StartsWith(query, StringComparison.OrdinalIgnoreCase))
        {
            return 3;
        }

        if (CamelHumps(name, query))
        {
            return 4;
        }

        if (name.Contains(query, StringComparison.Ordinal))
        {
            return 5;
        }

        return name.Contains(query, StringComparison.OrdinalIgnoreCase) ? 6 : int.MaxValue;
    }

    /// <summary>Each query character matches the start of a hump or continues the current one: <c>CoCa</c> and <c>CC</c> match <c>CountCalls</c>.</summary>
    private static bool CamelHumps(ReadOnlySpan<char> name, ReadOnlySpan<char> query)
    {
        // Without allocation: symbol_search scores every indexed name that holds the query's letters in order.
        Span<bool> humps = name.Length <= 512 ? stackalloc bool[name.Length] : new bool[name.Length];
        for (int i = 0; i < name.Length; i++)
        {
            humps[i] = i == 0 || char.IsUpper(name[i]) || (name[i - 1] == '_' && name[i] != '_');
        }

        return MatchHumps(name, query, humps, 0, 0);
    }

    private static bool MatchHumps(ReadOnlySpan<char> name, ReadOnlySpan<char> query, ReadOnlySpan<bool> humps, int q, int at)
    {
        if (q == query.Length)
        {
            return true;
        }

        // Continue within the current hump.
        if (at < name.Length && q > 0 && char.ToLowerInvariant(name[at]) == char.ToLowerInvariant(query[q]) && !humps[at] && MatchHumps(name, query, humps, q + 1, at + 1))
        {
            return true;
        }

        // Or start a later hump.
        for (int hump = at; hump < name.Length; hump++)
        {
            if (humps[hump] && char.ToUpperInvariant(name[hump]) == char.ToUpperInvariant(query[q]) && MatchHumps(name, query, humps, q + 1, hump + 1))
            {
                return true;
            }
        }

        return false;
    }
}
