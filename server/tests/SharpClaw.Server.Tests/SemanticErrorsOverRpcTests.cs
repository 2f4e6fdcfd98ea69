using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>Discovery and request errors as the client sees them (code -32001 + data); nothing is evaluated.</summary>
public sealed class SemanticErrorsOverRpcTests
{
    [Fact]
    public async Task TargetAmbiguous_NoTarget_InvalidRequest_TravelWithCandidates_AndAskNothing()
    {
        using FixtureWorkspace two = FixtureWorkspace.Copy("TwoSolutions");
        using FixtureWorkspace nested = FixtureWorkspace.Copy("NestedOnly");
        await using SemanticHost host = await SemanticHost.StartAsync();

        SemanticErrorData ambiguous = await SemanticErrors.ExpectAsync(SemanticErrorKind.TargetAmbiguous, () => host.InspectAsync(two.Root));
        Assert.Equal(["First.slnx", "Second.sln"], ambiguous.Candidates);
        Assert.Null(ambiguous.Command);

        SemanticErrorData none = await SemanticErrors.ExpectAsync(SemanticErrorKind.NoTarget, () => host.GraphAsync(nested.Root));
        Assert.Equal(["src/Nested.slnx", "src/Lib/Lib.csproj"], none.Candidates);

        SemanticErrorData outside = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => host.InspectAsync(two.Root, target: "../../x.csproj"));
        Assert.Contains("outside the workspace", outside.Message, StringComparison.Ordinal);
        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => host.InspectAsync("not/absolute"));
        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => host.InspectAsync(two.Root, target: "First.slnx", configuration: "Debug;X=1"));

        Assert.Empty(host.Client.AuthorizationRequests);
        Assert.Empty((await host.StatusAsync()).LoadedContexts);
    }
}
