using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// <c>sharpclaw/reachedTests</c> given actual changes, as the verifier sends them: each changed file's text before the
/// change beside the workspace's text now. A member whose body changed gives exactly the tests that reach it (the
/// union over the changed members, ordered by project, file and line), and every test project's test count; a
/// changed signature gives no member and a fallback that names it. fixtures/TestReach is left as it is: the "before"
/// texts are the fixture's files with one member body (or signature) different.
/// </summary>
[Collection(TestReachCollection.Name)]
public sealed class ReachedTestsServiceTests(LoadedFixture.TestReach fx)
{
    private string Text(string path) => File.ReadAllText(Path.Combine(fx.Workspace.Root, path));

    /// <summary>The file's text at "HEAD": the workspace's text with <paramref name="now"/> as <paramref name="before"/>.</summary>
    private ReachedTestsChange Changed(string path, string now, string before)
    {
        string text = Text(path);
        Assert.Single(text.Split(now)[1..]);
        return new ReachedTestsChange { Path = path, Before = text.Replace(now, before, StringComparison.Ordinal) };
    }

    private Task<ReachedTestsResult> Reached(params ReachedTestsChange[] changes) =>
        fx.Invoke<ReachedTestsResult>(ProtocolMethods.ReachedTests, new ReachedTestsParams { Workspace = fx.Workspace.Root, Tool = "test-tool", Changes = changes });

    [Fact]
    public async Task ChangedMemberBodies_GiveExactlyTheTestsThatReachThem()
    {
        ReachedTestsResult result = await Reached(
            Changed("src/Shapes/Money.cs", "decimal.Round(amount, 2);", "decimal.Round(amount, 3);"),
            Changed("src/Shapes/Shapes.cs", "public double Area() => Math.PI * radius * radius;", "public double Area() => Math.PI * radius;"));

        Assert.Equal(2, result.ChangedMembers);
        Assert.Empty(result.Fallbacks);
        Assert.Empty(result.Failures);
        Assert.Null(result.Unfollowable);
        Assert.False(result.LimitReached);
        // Rounding.Cents reaches the NUnit conversion test; Circle.Area the tests calling it directly, through IShape
        // (interface dispatch), by lambda, by method group and only in the net10.0 flavour.
        Assert.Equal(
            [
                "Shapes.MSTest.SquareTests.Area_ThroughTheInterface",
                "Shapes.MSTest.SquareTests.Doubled_IsTwiceTheArea",
                "Shapes.NUnit.CartTests.Conversion_RoundsToCents",
                "Shapes.XunitV3.CircleTests.UnitCircle_HasAreaPi",
                "Shapes.XunitV3.CircleTests.Total_AddsEveryShape",
                "Shapes.XunitVstest.PassedCodeTests.Largest_ByLambda",
                "Shapes.XunitVstest.PassedCodeTests.Largest_ByMethodGroup",
                "Shapes.XunitVstest.PassedCodeTests.Describe_OnlyInNet",
            ],
            result.Tests.Select(t => t.FullyQualifiedName));
        Assert.Equal(
            ["tests/Shapes.MSTest/Shapes.MSTest.csproj", "tests/Shapes.NUnit/Shapes.NUnit.csproj", "tests/Shapes.XunitV3/Shapes.XunitV3.csproj", "tests/Shapes.XunitVstest/Shapes.XunitVstest.csproj"],
            result.Tests.Select(t => t.Project).Distinct());
        Assert.Equal(
            ["tests/Shapes.MSTest/Shapes.MSTest.csproj: 4", "tests/Shapes.NUnit/Shapes.NUnit.csproj: 5", "tests/Shapes.XunitV3/Shapes.XunitV3.csproj: 4", "tests/Shapes.XunitVstest/Shapes.XunitVstest.csproj: 11"],
            result.ProjectTests.Select(p => $"{p.Project}: {p.Tests}"));
    }

    [Fact]
    public async Task AnUnchangedFile_NamesNoMember_AndOneChangedBody_OnlyItsTests()
    {
        ReachedTestsResult result = await Reached(
            new ReachedTestsChange { Path = "src/Shapes/Geometry.cs", Before = Text("src/Shapes/Geometry.cs") },
            Changed("src/Shapes/Money.cs", "decimal.Round(amount, 2);", "decimal.Round(amount, 3);"));

        Assert.Equal(1, result.ChangedMembers);
        Assert.Equal(["Shapes.NUnit.CartTests.Conversion_RoundsToCents"], result.Tests.Select(t => t.FullyQualifiedName));
    }

    [Fact]
    public async Task AChangedSignature_IsAFallback_NotAMember()
    {
        ReachedTestsResult result = await Reached(
            Changed("src/Shapes/Money.cs", "public static decimal Cents(decimal amount) => decimal.Round(amount, 2);", "public static decimal Cents(decimal value) => decimal.Round(value, 2);"));

        Assert.Equal(0, result.ChangedMembers);
        Assert.Empty(result.Tests);
        string fallback = Assert.Single(result.Fallbacks);
        Assert.StartsWith("src/Shapes/Money.cs: the declaration of ", fallback, StringComparison.Ordinal);
        Assert.Contains("Cents", fallback, StringComparison.Ordinal);
        Assert.EndsWith(" changed", fallback, StringComparison.Ordinal);
    }
}
