using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/FrameworkCalls: a member that compiled code calls (xunit's Assert.Equal through IEquatable&lt;T&gt;.Equals,
/// string interpolation through ToString) has no caller in source, yet the tests that hand an instance to that code
/// run it. navigate tests lists every test that creates an instance of its type, and no other.
/// </summary>
public sealed class FrameworkCallsTests(LoadedFixture.FrameworkCalls fx) : IClassFixture<LoadedFixture.FrameworkCalls>
{
    private async Task<List<string>> Tests(string name)
    {
        NavigateResult result = await fx.Invoke<NavigateResult>(ProtocolMethods.Navigate, new NavigateParams { Workspace = fx.Workspace.Root, Action = "tests", Name = name, Tool = "test-tool" });
        return [.. result.Related!.Select(r => r.Name)];
    }

    [Fact]
    public async Task AnEqualsThatAssertEqualCalls_ReachesTheTestsThatCreateItsType()
    {
        // Before the walk followed such members: no test (no source calls it).
        Assert.Equal(["Labels.Tests.LabelTests.Of_Trims", "Labels.Tests.LabelTests.Of_Formats"], await Tests("Label.Equals"));
    }

    [Fact]
    public async Task AToStringThatInterpolationCalls_ReachesTheTestsThatCreateItsType()
    {
        Assert.Equal(["Labels.Tests.LabelTests.Of_Trims", "Labels.Tests.LabelTests.Of_Formats"], await Tests("Label.ToString"));
    }

    [Fact]
    public async Task AMemberOnlySourceCalls_KeepsItsExactTests()
    {
        Assert.Equal(["Labels.Tests.LabelTests.Length_Trims"], await Tests("Names.Length"));
    }
}
