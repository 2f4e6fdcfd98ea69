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

    /// <summary>
    /// A camel-hump abbreviation of a whole name ranks first after an exact match: FeMa names FeatureManager, ahead of
    /// names it only starts (FeMale, FeatureManagerTests) or finds inside (GetFeatureManager); seen on a real
    /// repository, where FeatureManager came 10th of 48.
    /// </summary>
    [Fact]
    public void WholeNameCamelHumps_RankRightAfterExactMatches()
    {
        string[] names = ["GetFeatureManager", "FeatureManagerTests", "Femaleness", "FeatureManager", "FeMa", "fema", "SafeMargin"];
        Assert.Equal(
            ["FeMa", "fema", "FeatureManager", "Femaleness", "FeatureManagerTests", "GetFeatureManager", "SafeMargin"],
            names.OrderBy(n => NameMatch.Score(n, "FeMa")).ThenBy(n => n, StringComparer.Ordinal));
        Assert.Equal(2, NameMatch.Score("FeatureManager", "FM"));
        Assert.Equal(2, NameMatch.Score("FeatureManager", "featman"));
        Assert.Equal(2, NameMatch.Score("Calculator", "Calc")); // one hump: its prefix abbreviates the whole name
        Assert.Equal(3, NameMatch.Score("CalculatorTests", "Calc"));
        Assert.Equal(5, NameMatch.Score("FeatureManagerTests", "FeMa"));
        Assert.Equal(5, NameMatch.Score("GetFeatureManager", "FeMa"));
    }
}
