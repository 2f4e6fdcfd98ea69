using System.Text;

namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// Cheap tests that let a name search (csharp_symbols' workspace query, the store's symbol_search) skip most names
/// before scoring them with <see cref="NameMatch.Score"/>. Each is exact: it never rejects a name the score
/// would accept, under any of the score's case rules (ordinal, ordinal ignoring case, invariant lower case).
/// </summary>
public static class NameFilter
{
    /// <summary>
    /// The characters a name holds, as 64 bits: a–z (either case), 0–9, '_' and 27 buckets for the rest. A
    /// character sets the bits of both its invariant upper and lower case, so a query character equal to it under
    /// any case rule finds its bit.
    /// </summary>
    public static ulong NameMask(string name)
    {
        ulong mask = 0;
        foreach (char c in name)
        {
            mask |= c < 128 ? 1UL << Bit(c) : (1UL << Bit(char.ToUpperInvariant(c))) | (1UL << Bit(char.ToLowerInvariant(c)));
        }

        return mask;
    }

    /// <summary>
    /// The bits every matching name holds: one per query character whose upper and lower case share a bit. A
    /// character whose cases fall in different bits (the dotless ı, the Kelvin sign) or a surrogate adds none.
    /// </summary>
    public static ulong QueryMask(string query)
    {
        ulong mask = 0;
        foreach (char c in query)
        {
            if (c < 128)
            {
                mask |= 1UL << Bit(c);
            }
            else if (!char.IsSurrogate(c) && Bit(char.ToUpperInvariant(c)) is int upper && upper == Bit(char.ToLowerInvariant(c)))
            {
                mask |= 1UL << upper;
            }
        }

        return mask;
    }

    public static bool MayMatch(ulong nameMask, ulong queryMask) => (nameMask & queryMask) == queryMask;

    /// <summary>
    /// The query's characters appear in the name in order, ignoring case (<c>CoTo</c> in <c>ComputeTotal</c>): each
    /// match quality implies it. Decided for ASCII names and queries only; anything else passes (non-ASCII case
    /// rules differ between the score's comparisons, and the score decides).
    /// </summary>
    public static bool MayBeSubsequence(ReadOnlySpan<char> query, ReadOnlySpan<char> name)
    {
        if (!Ascii.IsValid(query) || !Ascii.IsValid(name))
        {
            return true;
        }

        int at = 0;
        foreach (char c in query)
        {
            char lower = char.ToLowerInvariant(c);
            char upper = char.ToUpperInvariant(c);
            int found = lower == upper ? name[at..].IndexOf(c) : name[at..].IndexOfAny(lower, upper);
            if (found < 0)
            {
                return false;
            }

            at += found + 1;
        }

        return true;
    }

    private static int Bit(char c) => c switch
    {
        >= 'a' and <= 'z' => c - 'a',
        >= 'A' and <= 'Z' => c - 'A',
        >= '0' and <= '9' => 26 + (c - '0'),
        '_' => 36,
        _ => 37 + (c % 27),
    };
}
