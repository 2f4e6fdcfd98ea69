using System.Text;
using System.Text.Json;
using SharpClaw.Server.Semantic.Evaluation;

namespace SharpClaw.Server.Tests;

/// <summary>Reading MSBuild's -getResultOutputFile JSON row by row, as the loaders do.</summary>
public sealed class ResultItemsTests
{
    private const string Result = """
        {
          "Properties": { "Items": "not this one" },
          "Items": {
            "Other": [ { "Identity": "skipped" } ],
            "Wanted": [
              { "Identity": "C:\\src\\A.cs", "Link": "Shared\\A.cs", "Count": 3, "Nested": { "Identity": "no" }, "List": [ "no" ] },
              { "Identity": "B.cs", "Text": "line one\nline \"two\" \u00e9" }
            ]
          },
          "TargetResults": { "Build": { "Result": "Success", "Items": [ { "Identity": "also not" } ] } }
        }
        """;

    [Fact]
    public void Read_ReturnsTheNamedItemsRows_InOrder_WithTheirStringMetadataUnescaped()
    {
        List<IReadOnlyDictionary<string, string>> rows = ResultItems.Read(Encoding.UTF8.GetBytes(Result), "Wanted");

        Assert.Equal(2, rows.Count);
        Assert.Equal(@"C:\src\A.cs", ResultItems.Get(rows[0], "Identity"));
        Assert.Equal(@"Shared\A.cs", ResultItems.Get(rows[0], "Link"));
        Assert.Equal(["Identity", "Link"], rows[0].Keys.Order(StringComparer.Ordinal)); // Numbers, objects and arrays are not metadata.
        Assert.Equal("line one\nline \"two\" é", ResultItems.Get(rows[1], "Text"));
        Assert.Equal(string.Empty, ResultItems.Get(rows[1], "Link"));
    }

    [Fact]
    public void Read_OfAnAbsentItemType_IsEmpty_AndOfBrokenJson_Throws()
    {
        Assert.Empty(ResultItems.Read(Encoding.UTF8.GetBytes(Result), "Missing"));
        Assert.Empty(ResultItems.Read(Encoding.UTF8.GetBytes("""{ "Properties": {} }"""), "Wanted"));
        Assert.ThrowsAny<JsonException>(() => ResultItems.Read(Encoding.UTF8.GetBytes("""{ "Items": { "Wanted": [ { "Identity": """), "Wanted"));
    }
}
