using System.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// A client with its own editor model (VS Code) applies the planned texts it receives with the write
/// authorization and answers appliedByClient: the host checks the disk, journals, refreshes and reports
/// as if it had written — and names every file that did not get its planned text.
/// </summary>
public sealed class EditClientAppliesTests(EditToolsFixture fx) : IClassFixture<EditToolsFixture>, IDisposable
{
    private const string Calculator = "Lib/Calculator.cs";
    private const string Program = "App/Program.cs";

    public void Dispose()
    {
        fx.Host.Client.WriteAnswer = _ => Task.FromResult(new AuthorizeEvaluationResult { Granted = true });
        fx.ResetSources();
    }

    /// <summary>Plays the editor: writes each planned after-text (except <paramref name="skip"/>) and says it applied them.</summary>
    private void ClientApplies(string? skip = null) =>
        fx.Host.Client.WriteAnswer = request =>
        {
            foreach (EditFileText change in request.Changes!)
            {
                if (change.Path != skip)
                {
                    File.WriteAllBytes(fx.Workspace.Path(change.Path), Encoding.UTF8.GetBytes(change.After));
                }
            }

            return Task.FromResult(new AuthorizeEvaluationResult { Granted = true, AppliedByClient = true });
        };

    [Fact]
    public async Task ClientAppliedRename_IsCheckedJournaledAndRefreshed_UndoGoesThroughTheClientToo()
    {
        fx.ResetSources();
        ClientApplies();

        EditResult applied = await fx.EditAsync(new EditParams { Action = "rename", Name = "Calculator.Add", NewName = "Sum", Apply = true });

        AuthorizeWriteParams asked = fx.Host.Client.WriteRequests[^1];
        EditFileText planned = Assert.Single(asked.Changes!, c => c.Path == Calculator);
        Assert.Contains("public int Add(int a, int b) => a + b;\r\n", planned.Before);
        Assert.Contains("public int Sum(int a, int b) => a + b;\r\n", planned.After); // CRLF kept in the planned text.
        Assert.Equal((EditResultKind.Applied, true, 4), (applied.Kind, applied.Refreshed, applied.Operations.Count));
        Assert.Contains("calculator.Sum(2, 3)", fx.Workspace.Read(Program));
        Assert.Equal("EditTools.Lib.Calculator.Sum(int, int)", (await fx.ResolveAsync("Calculator.Sum")).Symbol.Name);

        EditResult undone = await fx.UndoAsync();
        Assert.Equal(EditResultKind.Applied, undone.Kind);
        Assert.Equal("undo", fx.Host.Client.WriteRequests[^1].Operation);
        Assert.Equal(fx.Original(Calculator), fx.Bytes(Calculator));
    }

    [Fact]
    public async Task ClientLeftAFileUnchanged_ContentChangedNamesIt_AndUndoRevertsWhatWasApplied()
    {
        fx.ResetSources();
        ClientApplies(skip: Program);

        SemanticErrorData error = await SemanticErrors.ExpectAsync(
            SemanticErrorKind.ContentChanged,
            () => fx.EditAsync(new EditParams { Action = "rename", Name = "Calculator.Add", NewName = "Sum", Apply = true }));

        Assert.Contains("applied 3 of 4 file operations", error.Message, StringComparison.Ordinal);
        Assert.Equal([Program], error.Details);
        Assert.Equal(fx.Original(Program), fx.Bytes(Program));

        // The three applied files were journaled: undo restores them.
        await fx.UndoAsync();
        Assert.Equal(fx.Original(Calculator), fx.Bytes(Calculator));
    }
}
