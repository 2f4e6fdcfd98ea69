using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/MultiTargetIfRename: a rename whose uses under <c>#if NET10_0_OR_GREATER</c> only the net10.0
/// flavour sees. The flavours' renames change the file differently; they are merged (every use renamed once),
/// not refused as linked_document_conflict, and the project still builds in both frameworks.
/// </summary>
public sealed class MultiTargetIfRenameTests
{
    [Fact]
    public async Task Rename_WithUsesUnderIf_MergesTheFlavoursEdits_AndBuilds()
    {
        using FixtureWorkspace workspace = FixtureWorkspace.Restored("MultiTargetIfRename", "MultiTargetIfRename.csproj");
        await using SemanticHost host = await SemanticHost.StartAsync();
        string before = workspace.Read("Checks.cs");

        EditResult applied = await Poll.WithTimeout(
            host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(ProtocolMethods.Edit, new EditParams { Workspace = workspace.Root, Tool = "test-tool", Action = "rename", Name = "Checks.IsTrueOk", NewName = "Succeeds", Apply = true }),
            SemanticHost.Timeout,
            ProtocolMethods.Edit);

        Assert.Equal(EditResultKind.Applied, applied.Kind);
        Assert.Equal(before.Replace("IsTrueOk", "Succeeds", StringComparison.Ordinal), workspace.Read("Checks.cs"));
        (int exitCode, string output) = FixtureWorkspace.Dotnet(workspace.Root, ["build", "MultiTargetIfRename.csproj", "--no-restore"]);
        Assert.True(exitCode == 0, output);
    }
}
