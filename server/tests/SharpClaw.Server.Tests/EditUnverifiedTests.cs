using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>Edits in a workspace whose project/package generators SharpClaw excludes cannot be verified.</summary>
public sealed class EditUnverifiedTests
{
    [Fact]
    public async Task Rename_WithAnExcludedProjectGenerator_IsUnverified_WithoutEditsOrWriteRequests()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("CustomAnalyzers", "CustomAnalyzers.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();
        string before = fixture.Read("App/Program.cs");

        SemanticErrorData error = await SemanticErrors.ExpectAsync(
            SemanticErrorKind.Unverified,
            () => Poll.WithTimeout(
                host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(
                    ProtocolMethods.Edit,
                    new EditParams { Workspace = fixture.Root, Action = "rename", Name = "Program.Greeting", NewName = "Hello", Apply = true, Tool = "test-tool" }),
                SemanticHost.Timeout,
                ProtocolMethods.Edit));

        Assert.Contains("build to verify", error.Message, StringComparison.Ordinal);
        Assert.Contains(error.Details!, d => d.StartsWith("App/App.csproj: ", StringComparison.Ordinal) && d.Contains("Generator", StringComparison.Ordinal));
        Assert.DoesNotContain(error.Details!, d => d.Contains("xunit.analyzers", StringComparison.Ordinal)); // Analyzers only miss warnings.
        Assert.Empty(host.Client.WriteRequests);
        Assert.Equal(before, fixture.Read("App/Program.cs"));
    }
}
