using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/MultiTargetReceipt: an applied edit's receipt lists the diagnostics of every flavour
/// (target framework) of a changed file, deduplicated and in a fixed order — not those of whichever
/// flavour's document Roslyn happened to list first.
/// </summary>
public sealed class MultiTargetReceiptTests
{
    [Fact]
    public async Task AppliedRename_ReceiptHasEveryFlavoursDiagnostics_Once()
    {
        using FixtureWorkspace workspace = FixtureWorkspace.Restored("MultiTargetReceipt", "MultiTargetReceipt.csproj");
        await using SemanticHost host = await SemanticHost.StartAsync();

        Task<EditResult> Edit(EditParams parameters) => Poll.WithTimeout(
            host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(ProtocolMethods.Edit, parameters with { Workspace = workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.Edit);

        EditResult preview = await Edit(new EditParams { Action = "rename", Name = "Greeter.Greet", NewName = "SayHello" });
        Assert.Equal(EditResultKind.Preview, preview.Kind);
        EditResult applied = await Edit(new EditParams { Action = "rename", ProposalId = preview.ProposalId, Apply = true });

        Assert.Equal(EditResultKind.Applied, applied.Kind);
        Assert.Equal(
            [
                new EditDiagnostic("Greeter.cs", 10, 13, "warning", "CS0168", "The variable 'unusedOnNet10' is declared but never used"),
                new EditDiagnostic("Greeter.cs", 12, 13, "warning", "CS0168", "The variable 'unusedOnNet8' is declared but never used"),
            ],
            applied.Diagnostics!.Items);
    }
}
