using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/MultiTargetCodeAction: a code action on a file that two target frameworks compile, with no
/// targetFramework given. The change computed in one flavour is written as the file's text (the unchanged
/// copy in the other flavour is no linked_document_conflict), and every flavour is validated with it.
/// </summary>
public sealed class MultiTargetCodeActionTests
{
    [Fact]
    public async Task CodeAction_OnAMultiTargetedFile_AppliesToEveryFlavour_AndIsValidatedInEach()
    {
        using FixtureWorkspace workspace = FixtureWorkspace.Restored("MultiTargetCodeAction", "MultiTargetCodeAction.csproj");
        await using SemanticHost host = await SemanticHost.StartAsync();

        Task<EditResult> Edit(EditParams parameters) => Poll.WithTimeout(
            host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(ProtocolMethods.Edit, parameters with { Workspace = workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.Edit);

        string before = workspace.Read("Counter.cs");
        // 'label' is never reassigned in either flavour: the action applies once, for both.
        EditResult labelActions = await Edit(new EditParams { Action = "code_actions", Path = "Counter.cs", Line = 5, Character = 20 });
        CodeActionEntry labelReadonly = Assert.Single(labelActions.Actions!, a => a.Title == "Add readonly modifier");
        EditResult applied = await Edit(new EditParams { Action = "code_actions", ProposalId = labelActions.ProposalId, ActionIndex = labelReadonly.Index, Apply = true });
        Assert.Equal(EditResultKind.Applied, applied.Kind);
        Assert.Equal(before.Replace("private string label", "private readonly string label", StringComparison.Ordinal), workspace.Read("Counter.cs"));
        Assert.DoesNotContain(applied.Diagnostics?.Items ?? [], d => d.Severity == "error");

        // 'step' is assigned only where NET10_0_OR_GREATER is not defined: readonly breaks the net8.0 flavour.
        string labelled = workspace.Read("Counter.cs");
        EditResult stepActions = await Edit(new EditParams { Action = "code_actions", Path = "Counter.cs", Line = 6, Character = 17 });
        CodeActionEntry stepReadonly = Assert.Single(stepActions.Actions!, a => a.Title == "Add readonly modifier");
        SemanticErrorData refused = await SemanticErrors.ExpectAsync(
            SemanticErrorKind.NewErrors,
            () => Edit(new EditParams { Action = "code_actions", ProposalId = stepActions.ProposalId, ActionIndex = stepReadonly.Index }));
        string error = Assert.Single(refused.Details!);
        Assert.StartsWith("Counter.cs:17:", error, StringComparison.Ordinal);
        Assert.Contains("CS0191", error, StringComparison.Ordinal);
        Assert.Equal(labelled, workspace.Read("Counter.cs"));

        // A rename of a member of the same file still applies to both flavours.
        EditResult rename = await Edit(new EditParams { Action = "rename", Name = "Counter.Describe", NewName = "Summary", Apply = true });
        Assert.Equal(EditResultKind.Applied, rename.Kind);
        Assert.Contains("public string Summary()", workspace.Read("Counter.cs"), StringComparison.Ordinal);
    }
}
