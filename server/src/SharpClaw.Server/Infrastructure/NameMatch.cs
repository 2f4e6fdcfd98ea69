namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// The one rule for how well a symbol name matches a name query, shared by csharp_symbols' workspace query (Roslyn)
/// and the store's symbol_search (the syntax index); <see cref="NameFilter"/> skips the names it would reject.
/// </summary>
public static class NameMatch
{
    /// <summary>
    /// Lower is better: exact (case-sensitive, then not); camel humps of the whole name, every hump in order from
    /// the first (<c>FeMa</c> → <c>FeatureManager</c>: a deliberate abbreviation of exactly that name, ahead of the
    /// prefix <c>Female</c> or <c>FeatureManagerTests</c>, which <c>FeMa</c> only starts); prefix (case-sensitive, then
    /// not); camel humps anywhere (<c>FeMa</c> in <c>GetFeatureMap</c>); substring (the same); int.MaxValue: no match.
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

        if (WholeNameHumps(name, query))
        {
            return 2;
        }

        if (name.StartsWith(query, StringComparison.Ordinal))
        {
            return 3;
        }

        if (name.StartsWith(query, StringComparison.OrdinalIgnoreCase))
        {
            return 4;
        }

        if (CamelHumps(name, query))
        {
            return 5;
        }

        if (name.Contains(query, StringComparison.Ordinal))
        {
            return 6;
        }

        return name.Contains(query, StringComparison.OrdinalIgnoreCase) ? 7 : int.MaxValue;
    }

    /// <summary>
    /// The query abbreviates the whole name: it starts the first hump and then each next one in order, skipping none,
    /// and ends in the last (<c>FeMa</c>, <c>FM</c> and <c>FeatMan</c> for <c>FeatureManager</c>; not <c>FeMa</c> for
    /// <c>FeatureManagerTests</c> or <c>GetFeatureManager</c>). Hump starts match ignoring case, as in <see cref="CamelHumps"/>;
    /// an upper-case query letter must start one.
    /// </summary>
    private static bool WholeNameHumps(ReadOnlySpan<char> name, ReadOnlySpan<char> query)
    {
        if (query.Length == 0 || name.Length == 0)
        {
            return false;
        }

        Span<bool> humps = name.Length <= 512 ? stackalloc bool[name.Length] : new bool[name.Length];
        for (int i = 0; i < name.Length; i++)
        {
            humps[i] = i == 0 || char.IsUpper(name[i]) || (name[i - 1] == '_' && name[i] != '_');
        }

        return MatchWholeHumps(name, query, humps, 0, 0);
    }

    private static bool MatchWholeHumps(ReadOnlySpan<char> name, ReadOnlySpan<char> query, ReadOnlySpan<bool> humps, int q, int at)
    {
        int next = at;
        while (next < name.Length && !humps[next])
        {
            next++;
        }

        if (q == query.Length)
        {
            return next == name.Length; // No hump left unstarted.
        }

        // Continue within the current hump (an upper-case query letter starts a hump: FeMa is no abbreviation of Femaleness).
        if (at < name.Length && q > 0 && !humps[at] && !char.IsUpper(query[q]) && char.ToLowerInvariant(name[at]) == char.ToLowerInvariant(query[q]) && MatchWholeHumps(name, query, humps, q + 1, at + 1))
        {
            return true;
        }

        // Or start the next hump, and only that one.
        return next < name.Length && char.ToUpperInvariant(name[next]) == char.ToUpperInvariant(query[q]) && MatchWholeHumps(name, query, humps, q + 1, next + 1);
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
