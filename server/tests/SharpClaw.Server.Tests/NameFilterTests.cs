using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The name filters in front of csharp_symbols' and symbol_search's scoring may only skip names the score rejects:
/// every pair of names and queries below (ASCII, case variants, and the characters whose cases differ between
/// .NET's comparisons: dotless ı, dotted İ, the Kelvin sign, the long s, Greek, a surrogate pair) that the score
/// accepts must pass both filters, and the filters must still reject what cannot match.
/// </summary>
public sealed class NameFilterTests
{
    private static readonly string[] Names =
    [
        "ComputeTotal", "CountCalls", "countCalls", "Count", "_value", "Value_2", "ToString", "JsonConverter", "CustomJsonConverter",
        "İndex", "ıtem", "Item", "Kelvin", "\u212Aelvin", "ſum", "Sum", "Σύνολο", "σύνολο", "Ωmega", "Deseret\U00010400", "Deseret\U00010428", "X",
    ];

    private static readonly string[] Queries =
    [
        "CoTo", "CC", "cc", "count", "COUNT", "_v", "V2", "ue_", "tostr", "JsConv", "conv", "zz", "q",
        "index", "İNDEX", "item", "ITEM", "ıtem", "ITem", "kelvin", "KELVIN", "\u212Aelvin", "sum", "SUM", "ſum", "σύν", "ΣΎΝ", "ωMEGA",
        "\U00010400", "\U00010428", "Deseret\U00010428", "x",
    ];

    [Fact]
    public void EveryNameTheScoreAccepts_PassesBothFilters()
    {
        int accepted = 0;
        foreach (string name in Names)
        {
            foreach (string query in Queries)
            {
                if (NameMatch.Score(name, query) == int.MaxValue)
                {
                    continue;
                }

                accepted++;
                Assert.True(NameFilter.MayMatch(NameFilter.NameMask(name), NameFilter.QueryMask(query)), $"the mask rejects '{name}' for '{query}'");
                Assert.True(NameFilter.MayBeSubsequence(query, name), $"the subsequence test rejects '{name}' for '{query}'");
            }
        }

        Assert.True(accepted > 40, $"only {accepted} accepted pairs: the test would prove little");
    }

    [Theory]
    [InlineData("ComputeTotal", "zz")]
    [InlineData("ComputeTotal", "q")]
    [InlineData("Count", "CoTo")]
    [InlineData("ToString", "CoTo")]
    public void NamesThatCannotMatch_AreSkipped(string name, string query)
    {
        Assert.Equal(int.MaxValue, NameMatch.Score(name, query));
        Assert.False(NameFilter.MayMatch(NameFilter.NameMask(name), NameFilter.QueryMask(query)) && NameFilter.MayBeSubsequence(query, name));
    }
}
