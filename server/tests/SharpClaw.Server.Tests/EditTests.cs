using System.Text;
using System.Text.RegularExpressions;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>sharpclaw/edit (rename, rename_file, code_actions), undo and redo on fixtures/EditTools.</summary>
public sealed partial class EditTests(EditToolsFixture fx) : IClassFixture<EditToolsFixture>, IDisposable
{
    private const string Calculator = "Lib/Calculator.cs";
    private const string Formatter = "Lib/Formatter.cs";
    private const string Program = "App/Program.cs";
    private const string CalculatorTests = "Tests/CalculatorTests.cs";

    public void Dispose() => fx.ResetSources();

    [Fact]
    public async Task AReader_WaitsForARunningApply_AndSeesItsResult()
    {
        fx.ResetSources();
        EditResult preview = await fx.RenameAsync("Calculator.Add", "Sum");
        TaskCompletionSource<AuthorizeEvaluationResult> answer = new(TaskCreationOptions.RunContinuationsAsynchronously);
        TaskCompletionSource asked = new(TaskCreationOptions.RunContinuationsAsynchronously);
        fx.Host.Client.WriteAnswer = _ =>
        {
            asked.TrySetResult();
            return answer.Task;
        };
        Task<EditResult> apply = fx.EditAsync(new EditParams { Action = "rename", ProposalId = preview.ProposalId, Apply = true });
        await asked.Task.WaitAsync(TimeSpan.FromSeconds(120));

        // The apply is running (waiting for its approval): a read-only request queues behind it.
        Task<SymbolResolveResult> read = fx.ResolveAsync("Calculator.Sum");
        // A fixed wait, since what is asserted is that nothing happens: the reader does not finish meanwhile.
        await Task.Delay(500);
        Assert.False(read.IsCompleted, "a reader ran while an edit was being applied");

        answer.SetResult(new AuthorizeEvaluationResult { Granted = true });
        Assert.Equal(EditResultKind.Applied, (await apply).Kind);
        Assert.Equal("EditTools.Lib.Calculator.Sum(int, int)", (await read.WaitAsync(TimeSpan.FromSeconds(60))).Symbol.Name);
        await fx.UndoAsync();
    }

    [Fact]
    public async Task Rename_PreviewThenApply_AcrossProjects_KeepsNewlines_RefreshesRoslyn_UndoRedo()
    {
        fx.ResetSources();
        int writeRequests = fx.Host.Client.WriteRequests.Count;
        EditResult preview = await fx.RenameAsync("Calculator.Add", "Sum");

        Assert.Equal(EditResultKind.Preview, preview.Kind);
        Assert.Matches("^[0-9a-f]{6}$", preview.ProposalId!);
        EditFileOperation calculatorPreview = Assert.Single(preview.Operations, o => o.Path == "Lib/Calculator.cs");
        Assert.Equal("change", calculatorPreview.Operation);
        EditExcerpt declaration = Assert.Single(calculatorPreview.Excerpts!, e => (e.Line, e.Character) == (6, 16));
        Assert.Equal(["    public int Add(int a, int b) => a + b;"], declaration.Removed);
        Assert.Equal(["    public int Sum(int a, int b) => a + b;"], declaration.Added);
        Assert.Equal(
            [("App/Program.cs", 1), ("Lib/Calculator.cs", 2), ("Lib/Formatter.cs", 1), ("Tests/CalculatorTests.cs", 1)],
            preview.Operations.Select(o => (o.Path, o.Occurrences)).OrderBy(o => o.Path, StringComparer.Ordinal).ToList());
        Assert.Equal(fx.Original(Calculator), fx.Bytes(Calculator)); // Preview writes nothing.
        Assert.Equal(writeRequests, fx.Host.Client.WriteRequests.Count);

        EditResult applied = await fx.EditAsync(new EditParams { Action = "rename", ProposalId = preview.ProposalId, Apply = true });

        Assert.Equal(EditResultKind.Applied, applied.Kind);
        Assert.True(applied.Refreshed);
        Assert.Equal(4, applied.Operations.Count);
        Assert.Contains(new EditFileOperation("change", "Lib/Calculator.cs", null, 2), applied.Operations);
        Assert.Contains(new EditFileOperation("change", "App/Program.cs", null, 1), applied.Operations);
        Assert.All(applied.Operations, o => Assert.Null(o.Excerpts)); // A receipt has no excerpts.
        Assert.Equal(4, applied.Diagnostics!.Files);
        Assert.Null(applied.Diagnostics.SkippedAbove);
        Assert.Contains(new EditDiagnostic("Lib/Formatter.cs", 10, 13, "warning", "CS0168", "The variable 'unused' is declared but never used"), applied.Diagnostics.Items);

        AuthorizeWriteParams asked = fx.Host.Client.WriteRequests[^1];
        Assert.Equal(("rename", "test-tool"), (asked.Operation, asked.Tool));
        Assert.Contains(new WriteFile("Lib/Calculator.cs", null, 2), asked.Files);

        string calculator = Encoding.UTF8.GetString(fx.Bytes(Calculator));
        Assert.Contains("public int Sum(int a, int b) => a + b;\r\n", calculator);
        Assert.Contains("=> Sum(value, value);", calculator);
        Assert.DoesNotMatch("[^\r]\n", calculator); // CRLF file stays CRLF.
        string formatter = Encoding.UTF8.GetString(fx.Bytes(Formatter));
        Assert.Contains("calculator.Sum(a, b)", formatter);
        Assert.DoesNotContain("\r", formatter); // LF file stays LF.

        // Roslyn sees the new text without re-evaluating MSBuild.
        int authorizations = fx.Host.Client.AuthorizationRequests.Count;
        Assert.Equal("EditTools.Lib.Calculator.Sum(int, int)", (await fx.ResolveAsync("Calculator.Sum")).Symbol.Name);
        Assert.Equal(authorizations, fx.Host.Client.AuthorizationRequests.Count);

        EditResult undone = await fx.UndoAsync();
        Assert.Equal((EditResultKind.Applied, true, 4), (undone.Kind, undone.Refreshed, undone.Operations.Count));
        Assert.Equal(fx.Original(Calculator), fx.Bytes(Calculator));
        Assert.Equal(fx.Original(Program), fx.Bytes(Program));
        Assert.Equal("undo", fx.Host.Client.WriteRequests[^1].Operation);

        await fx.RedoAsync();
        Assert.Contains("calculator.Sum(2, 3)", fx.Workspace.Read(Program));
        await fx.UndoAsync();
        Assert.Equal(fx.Original(Program), fx.Bytes(Program));
        await fx.RedoAsync();
        await fx.UndoAsync();
        await SemanticErrors.ExpectAsync(SemanticErrorKind.NothingToUndo, () => fx.RedoAsync().ContinueWith(_ => fx.RedoAsync()).Unwrap());
    }

    [Fact]
    public async Task Rename_InAFileLinkedIntoTwoProjects_RenamesBothContexts_OneWrite()
    {
        fx.ResetSources();

        // BuildInfo.cs is compiled into Lib and App; App/Program.cs uses App's copy.
        EditResult applied = await fx.RenameAsync("BuildInfo.Channel", "Stream", apply: true, project: "Lib");
        Assert.Equal([("App/Program.cs", 1), ("Lib/Shared/BuildInfo.cs", 1)], applied.Operations.Select(o => (o.Path, o.Occurrences)).OrderBy(o => o.Path, StringComparer.Ordinal).ToList());
        Assert.Contains("public const string Stream = \"edit\";", fx.Workspace.Read("Lib/Shared/BuildInfo.cs"), StringComparison.Ordinal);
        Assert.Contains("BuildInfo.Stream", fx.Workspace.Read(Program), StringComparison.Ordinal);
        await fx.UndoAsync();
    }

    [Theory]
    [InlineData("1abc", "not a valid C# identifier")]
    [InlineData("class", "write '@class'")]
    [InlineData("Sum-2", "not a valid C# identifier")]
    public async Task Rename_InvalidIdentifier_IsRejected(string newName, string message)
    {
        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidIdentifier, () => fx.RenameAsync("Calculator.Add", newName, apply: true));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
        Assert.Equal(fx.Original(Calculator), fx.Bytes(Calculator));
    }

    [Fact]
    public async Task Rename_VerbatimKeyword_IsAccepted()
    {
        fx.ResetSources();
        EditResult preview = await fx.RenameAsync("Calculator.Add", "@class");
        Assert.Contains("    public int @class(int a, int b) => a + b;", preview.Operations.SelectMany(o => o.Excerpts!).SelectMany(e => e.Added));
    }

    [Fact]
    public async Task Rename_ClashWithSdkGeneratedMember_IsRejected_WithoutWriting()
    {
        fx.ResetSources();
        // JsonContext gets a generated 'Point' property from the SDK's System.Text.Json generator.
        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.RenameConflict, () => fx.RenameAsync("JsonContext.Version", "Point", apply: true));
        Assert.StartsWith("'JsonContext' already defines 'Point'", error.Message, StringComparison.Ordinal);
        Assert.Contains(error.Details!, d => d.Contains("CS0102", StringComparison.Ordinal));
        Assert.Equal(fx.Original("Lib/JsonContext.cs"), fx.Bytes("Lib/JsonContext.cs"));
    }

    [Fact]
    public async Task Rename_ToAnExistingTypeName_IsRejected()
    {
        fx.ResetSources();
        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.RenameConflict, () => fx.RenameAsync("Formatter", "Calculator", apply: true));
        Assert.StartsWith("'EditTools.Lib' already defines 'Calculator'", error.Message, StringComparison.Ordinal);
        Assert.NotEmpty(error.Details!);
        Assert.Equal(fx.Original(Formatter), fx.Bytes(Formatter));
    }

    [Fact]
    public async Task Rename_NewNameInAnExistingErrorMessage_IsNotANewError()
    {
        fx.ResetSources();
        fx.Workspace.Edit(Formatter, text => text.Replace("    public static string Describe(", "    public static void Broken(Calculator c) => c.Missing();\n\n    public static string Describe(", StringComparison.Ordinal));

        // The existing CS1061 names 'Calculator'; after the rename it names 'Computer' at the same place.
        EditResult preview = await fx.RenameAsync("EditTools.Lib.Calculator", "Computer");
        Assert.Equal(EditResultKind.Preview, preview.Kind);
        Assert.Contains("    public static void Broken(Computer c) => c.Missing();", preview.Operations.SelectMany(o => o.Excerpts!).SelectMany(e => e.Added));
    }

    [Fact]
    public async Task Rename_ErrorInAnUnchangedFileThatSeesTheMember_IsReported()
    {
        fx.ResetSources();
        // Calculator gains Dispose(); in App/Program.cs (another project, which never writes Dispose) Owned
        // implements IDisposable through the Dispose it inherits. Renamed to Release, Calculator's method no
        // longer implements IDisposable.Dispose for Owned: a new error in a file the rename leaves as it was,
        // which Roslyn's rename does not see (the interface is in metadata, the file never names the method).
        fx.Workspace.Edit("Lib/Calculator.cs", text => text.Replace("    public int Twice(", "    public void Dispose()\r\n    {\r\n    }\r\n\r\n    public int Twice(", StringComparison.Ordinal));
        fx.Workspace.Edit("App/Program.cs", text => text + """

            class Owned : Calculator, IDisposable
            {
            }

            """);
        string program = File.ReadAllText(fx.Workspace.Path("App/Program.cs"));

        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.NewErrors, () => fx.RenameAsync("EditTools.Lib.Calculator.Dispose", "Release", apply: true));
        string detail = Assert.Single(error.Details!);
        Assert.StartsWith("App/Program.cs:7:", detail, StringComparison.Ordinal);
        Assert.Contains("CS0535", detail, StringComparison.Ordinal);
        Assert.Equal(program, File.ReadAllText(fx.Workspace.Path("App/Program.cs")));
        Assert.DoesNotContain("Release", File.ReadAllText(fx.Workspace.Path("Lib/Calculator.cs")), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Rename_TouchingAGeneratedDocument_IsRejected()
    {
        fx.ResetSources();
        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.GeneratedDocument, () => fx.RenameAsync("Settings.Scale", "Factor", apply: true));
        Assert.Equal(["Lib/Settings.Designer.cs"], error.Details);
        Assert.Equal(fx.Original("Lib/Settings.cs"), fx.Bytes("Lib/Settings.cs"));
    }

    [Fact]
    public async Task Rename_ReachingAFileThroughASymbolicLinkBelowTheRoot_IsOutsideWorkspace()
    {
        fx.ResetSources();
        string external = Path.Combine(fx.Workspace.Parent, "external");
        Directory.CreateDirectory(external);
        File.WriteAllText(Path.Combine(external, "External.cs"), "namespace EditTools.Lib;\n\ninternal static class External\n{\n    public static string Call() => Formatter.Describe(new Calculator(), 1, 1);\n}\n");
        string link = fx.Workspace.Path("Lib/Linked");
        Directory.CreateSymbolicLink(link, external);
        try
        {
            // Lib's default compile glob picks the file up through the link (a structural change: the test client authorizes the reload).
            SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.OutsideWorkspace, () => fx.RenameAsync("Formatter.Describe", "Explain", apply: true));
            // The refusal names the file as the workspace reaches it and the link it passes through, never the machine path behind the link.
            Assert.StartsWith("The edit would write Lib/Linked/External.cs through the symbolic link Lib/Linked below the workspace, which leads outside the workspace", error.Message, StringComparison.Ordinal);
            Assert.DoesNotContain(external, error.Message, StringComparison.Ordinal);
            Assert.Equal(["Lib/Linked/External.cs"], error.Details);
            Assert.Equal(fx.Original(Formatter), fx.Bytes(Formatter));
            Assert.Contains("Formatter.Describe(", File.ReadAllText(Path.Combine(external, "External.cs")), StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(link);
        }
    }

    [Fact]
    public async Task Proposal_StaleWhenAnEditedFileChanges_ValidWhenAnotherSourceChanges_StaleOnProjectChange_ExpiresAfterFiveMinutes()
    {
        fx.ResetSources();

        // Another source file changed: still valid.
        EditResult preview = await fx.RenameAsync("Formatter.Describe", "Explain");
        fx.Workspace.Edit(CalculatorTests, text => text + "// unrelated edit\n");
        EditResult applied = await fx.EditAsync(new EditParams { Action = "rename", ProposalId = preview.ProposalId, Apply = true });
        Assert.Equal(EditResultKind.Applied, applied.Kind);
        await fx.UndoAsync();
        await SemanticErrors.ExpectAsync(SemanticErrorKind.StaleEdit, () => fx.EditAsync(new EditParams { Action = "rename", ProposalId = preview.ProposalId, Apply = true }));

        // A file it edits changed: stale, and the external text is kept.
        preview = await fx.RenameAsync("Formatter.Describe", "Explain");
        fx.Workspace.Edit(Program, text => text + "// external\n");
        SemanticErrorData stale = await SemanticErrors.ExpectAsync(SemanticErrorKind.StaleEdit, () => fx.EditAsync(new EditParams { Action = "rename", ProposalId = preview.ProposalId, Apply = true }));
        Assert.Contains("App/Program.cs", stale.Message, StringComparison.Ordinal);
        Assert.EndsWith("// external\n", fx.Workspace.Read(Program), StringComparison.Ordinal);
        Assert.DoesNotContain("Explain", fx.Workspace.Read(Formatter), StringComparison.Ordinal);

        // Expired after five minutes (injected clock).
        preview = await fx.RenameAsync("Formatter.Describe", "Explain");
        fx.Clock.Now += TimeSpan.FromMinutes(5) + TimeSpan.FromSeconds(1);
        SemanticErrorData expired = await SemanticErrors.ExpectAsync(SemanticErrorKind.StaleEdit, () => fx.EditAsync(new EditParams { Action = "rename", ProposalId = preview.ProposalId, Apply = true }));
        Assert.Contains("expired", expired.Message, StringComparison.Ordinal);

        // Unknown ids are stale too.
        await SemanticErrors.ExpectAsync(SemanticErrorKind.StaleEdit, () => fx.EditAsync(new EditParams { Action = "rename", ProposalId = "abcdef", Apply = true }));
    }

    [Fact]
    public async Task Proposal_StaleWhenAProjectFileChanges()
    {
        fx.ResetSources();
        EditResult preview = await fx.RenameAsync("Formatter.Describe", "Explain");
        string project = fx.Workspace.Read("Lib/Lib.csproj");
        try
        {
            fx.Workspace.Edit("Lib/Lib.csproj", text => text.Replace("</Project>", "<!-- touched -->\n</Project>", StringComparison.Ordinal));
            SemanticErrorData stale = await SemanticErrors.ExpectAsync(SemanticErrorKind.StaleEdit, () => fx.EditAsync(new EditParams { Action = "rename", ProposalId = preview.ProposalId, Apply = true }));
            Assert.Contains("Lib/Lib.csproj", stale.Details!);
        }
        finally
        {
            fx.Workspace.Edit("Lib/Lib.csproj", _ => project);
        }
    }

    [Fact]
    public async Task Apply_ExternalEditRightBeforeAWrite_IsDetectedPreservedAndReported_EarlierWritesRolledBack()
    {
        fx.ResetSources();
        EditResult preview = await fx.RenameAsync("Calculator.Add", "Sum");
        List<string> order = [.. preview.Operations.Select(o => o.Path)];
        string victim = order[1];
        fx.Hook = (index, file, ct) =>
        {
            if (index == 1)
            {
                File.AppendAllText(file.Path, "// typed in an editor\n");
            }

            return Task.CompletedTask;
        };

        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.ContentChanged, () => fx.EditAsync(new EditParams { Action = "rename", ProposalId = preview.ProposalId, Apply = true }));

        Assert.Contains(error.Details!, d => d.StartsWith($"failed: step 2 of 4, {victim}", StringComparison.Ordinal));
        Assert.Contains($"written then rolled back: {order[0]}", error.Details!);
        Assert.Equal(fx.Original(order[0]), fx.Bytes(order[0]));
        Assert.EndsWith("// typed in an editor\n", fx.Workspace.Read(victim), StringComparison.Ordinal);
        Assert.DoesNotContain("Sum(", fx.Workspace.Read(victim), StringComparison.Ordinal);
        Assert.Equal(fx.Original(order[2]), fx.Bytes(order[2]));
    }

    [Fact]
    public async Task Apply_FaultInTheMiddle_RollsBack_AndReportsResidualChangesItMustNotOverwrite()
    {
        fx.ResetSources();
        EditResult preview = await fx.RenameAsync("Calculator.Add", "Sum");
        List<string> order = [.. preview.Operations.Select(o => o.Path)];
        fx.Hook = (index, file, ct) => index == 2 ? throw new IOException("disk full (injected)") : Task.CompletedTask;

        SemanticErrorData failed = await SemanticErrors.ExpectAsync(SemanticErrorKind.WriteFailed, () => fx.EditAsync(new EditParams { Action = "rename", ProposalId = preview.ProposalId, Apply = true }));
        Assert.Contains("no change remains", failed.Message, StringComparison.Ordinal);
        Assert.Contains(failed.Details!, d => d.Contains("disk full (injected)", StringComparison.Ordinal));
        foreach (string path in order)
        {
            Assert.Equal(fx.Original(path), fx.Bytes(path));
        }

        // Now the first written file is edited by someone else before the fault: rollback must leave it.
        preview = await fx.RenameAsync("Calculator.Add", "Sum");
        fx.Hook = (index, file, ct) =>
        {
            if (index == 2)
            {
                File.AppendAllText(fx.Workspace.Path(order[0]), "// edited after our write\n");
                throw new IOException("injected");
            }

            return Task.CompletedTask;
        };
        failed = await SemanticErrors.ExpectAsync(SemanticErrorKind.WriteFailed, () => fx.EditAsync(new EditParams { Action = "rename", ProposalId = preview.ProposalId, Apply = true }));
        Assert.Contains($"residual: {order[0]}: changed after the write, so rollback left it as it is", failed.Details!);
        Assert.Contains($"written then rolled back: {order[1]}", failed.Details!);
        Assert.EndsWith("// edited after our write\n", fx.Workspace.Read(order[0]), StringComparison.Ordinal);
        Assert.Equal(fx.Original(order[1]), fx.Bytes(order[1]));
    }

    [Fact]
    public async Task UndoAndRedo_RefuseWhenAFileChangedSince_NamingIt()
    {
        fx.ResetSources();
        await fx.RenameAsync("Formatter.Describe", "Explain", apply: true);
        string renamed = fx.Workspace.Read(Program);
        fx.Workspace.Edit(Program, text => text + "// later edit\n");

        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.ContentChanged, () => fx.UndoAsync());
        Assert.Equal(["App/Program.cs"], error.Details);
        Assert.EndsWith("// later edit\n", fx.Workspace.Read(Program), StringComparison.Ordinal);
        Assert.Contains("Explain", fx.Workspace.Read(Formatter), StringComparison.Ordinal); // Nothing was undone.

        fx.Workspace.Edit(Program, _ => renamed);
        await fx.UndoAsync();
        Assert.Equal(fx.Original(Formatter), fx.Bytes(Formatter));

        fx.Workspace.Edit(Formatter, text => text + "// edit before redo\n");
        error = await SemanticErrors.ExpectAsync(SemanticErrorKind.ContentChanged, () => fx.RedoAsync());
        Assert.Equal(["Lib/Formatter.cs"], error.Details);
    }

    [Fact]
    public async Task Apply_WithoutWritePermission_IsDenied_AndWritesNothing()
    {
        fx.ResetSources();
        fx.Host.Client.WriteAnswer = _ => Task.FromResult(new AuthorizeEvaluationResult { Granted = false, Message = "denied by the test" });
        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => fx.RenameAsync("Calculator.Add", "Sum", apply: true));
        Assert.Contains("denied by the test", error.Message, StringComparison.Ordinal);
        Assert.Equal(fx.Original(Calculator), fx.Bytes(Calculator));
        Assert.Contains(fx.Host.Client.WriteRequests[^1].Files, f => f.Path == "Lib/Calculator.cs" && f.Occurrences == 2);
    }

    [Fact]
    public async Task RenameFile_MovesTheDocument_WithoutReevaluation_AndUndoMovesItBack()
    {
        fx.ResetSources();
        _ = await fx.ResolveAsync("Formatter.Describe"); // Loaded first (run alone, this test would count the cold load's approval).
        int authorizations = fx.Host.Client.AuthorizationRequests.Count;
        EditResult preview = await fx.EditAsync(new EditParams { Action = "rename_file", Path = "Formatter.cs", NewName = "TextFormatter.cs" });
        Assert.Equal("Lib/Formatter.cs", preview.ResolvedFile);
        EditFileOperation move = Assert.Single(preview.Operations);
        Assert.Equal(("rename", "Lib/Formatter.cs", "Lib/TextFormatter.cs"), (move.Operation, move.Path, move.NewPath));

        EditResult applied = await fx.EditAsync(new EditParams { Action = "rename_file", ProposalId = preview.ProposalId, Apply = true });
        Assert.True(applied.Refreshed);
        Assert.Contains(applied.Operations, o => (o.Operation, o.Path, o.NewPath) == ("rename", "Lib/Formatter.cs", "Lib/TextFormatter.cs"));
        Assert.False(File.Exists(fx.Workspace.Path(Formatter)));
        Assert.Equal(fx.Original(Formatter), fx.Bytes("Lib/TextFormatter.cs"));
        SymbolResolveResult resolved = await fx.ResolveAsync("Formatter.Describe");
        Assert.Equal("Lib/TextFormatter.cs", resolved.Symbol.Locations[0].Path);
        Assert.Equal(authorizations, fx.Host.Client.AuthorizationRequests.Count);

        await fx.UndoAsync();
        Assert.Equal(fx.Original(Formatter), fx.Bytes(Formatter));
        Assert.False(File.Exists(fx.Workspace.Path("Lib/TextFormatter.cs")));
        Assert.Equal("Lib/Formatter.cs", (await fx.ResolveAsync("Formatter.Describe")).Symbol.Locations[0].Path);
        Assert.Equal(authorizations, fx.Host.Client.AuthorizationRequests.Count);
    }

    [Fact]
    public async Task CodeActions_ListByDiagnostic_ResolveToPreview_Apply_KeepsLf()
    {
        fx.ResetSources();
        EditResult listing = await fx.EditAsync(new EditParams { Action = "code_actions", Path = Formatter, Diagnostic = "CS0168" });
        Assert.Equal(EditResultKind.Listing, listing.Kind);
        Assert.Equal("Lib/Formatter.cs", listing.Path);
        CodeActionEntry remove = Assert.Single(listing.Actions!, a => a.Title == "Remove unused variable");
        Assert.Contains(listing.Actions!, a => a.Title == "Fix All: Remove unused variable (Document)");
        Assert.Equal(listing.Actions!.Count, listing.Actions!.Select(a => a.Index).Distinct().Count());
        Assert.DoesNotContain(listing.Actions!, a => a.Hidden);
        Assert.True(listing.HiddenActions > 0);

        // all: the hidden entries appear with the same indexes as before.
        EditResult all = await fx.EditAsync(new EditParams { Action = "code_actions", Path = Formatter, Diagnostic = "CS0168", All = true });
        Assert.Equal(remove.Index, all.Actions!.Single(a => a.Title == remove.Title).Index);
        CodeActionEntry suppress = Assert.Single(all.Actions!, a => a.Title == "Suppress or configure issues > Suppress CS0168 > in Source");
        Assert.True(suppress.Hidden);
        Assert.Contains(all.Actions!, a => a.Hidden && a.Title == "Suppress or configure issues > Configure CS0168 severity > None");
        Assert.Equal(listing.HiddenActions, all.Actions!.Count(a => a.Hidden));

        EditResult pragma = await fx.EditAsync(new EditParams { Action = "code_actions", ProposalId = all.ProposalId, ActionIndex = suppress.Index });
        Assert.Contains(pragma.Operations.SelectMany(o => o.Excerpts!).SelectMany(e => e.Added), l => l.StartsWith("#pragma warning disable CS0168", StringComparison.Ordinal));

        // Configuring the severity would create an .editorconfig: new files are refused, nothing written.
        CodeActionEntry configure = all.Actions!.Single(a => a.Title == "Suppress or configure issues > Configure CS0168 severity > None");
        SemanticErrorData refused = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.EditAsync(new EditParams { Action = "code_actions", ProposalId = all.ProposalId, ActionIndex = configure.Index, Apply = true }));
        Assert.Contains("adds or removes files", refused.Message, StringComparison.Ordinal);
        Assert.False(File.Exists(fx.Workspace.Path(".editorconfig")));

        EditResult preview = await fx.EditAsync(new EditParams { Action = "code_actions", ProposalId = listing.ProposalId, ActionIndex = remove.Index });
        Assert.Equal(EditResultKind.Preview, preview.Kind);
        Assert.NotEqual(listing.ProposalId, preview.ProposalId);
        Assert.Contains("        int unused;", preview.Operations.SelectMany(o => o.Excerpts!).SelectMany(e => e.Removed));

        EditResult applied = await fx.EditAsync(new EditParams { Action = "code_actions", ProposalId = preview.ProposalId, Apply = true });
        Assert.Equal((true, 1), (applied.Refreshed, applied.Operations.Count));
        Assert.Equal((1, (int?)null), (applied.Diagnostics!.Files, applied.Diagnostics.SkippedAbove));
        Assert.Empty(applied.Diagnostics.Items);
        string formatter = fx.Workspace.Read(Formatter);
        Assert.DoesNotContain("int unused", formatter, StringComparison.Ordinal);
        Assert.DoesNotContain("\r", formatter, StringComparison.Ordinal);
        await fx.UndoAsync();
    }

    [Fact]
    public async Task CodeActions_AtAPosition_ListRefactorings_AndApplyWithoutPreview()
    {
        fx.ResetSources();
        SourceLocation at = Locate(Formatter, "int $$unused;");
        EditResult listing = await fx.EditAsync(new EditParams { Action = "code_actions", Path = Formatter, Line = at.Line, Character = at.Character });
        CodeActionEntry remove = Assert.Single(listing.Actions!, a => a.Title == "Remove unused variable");

        EditResult applied = await fx.EditAsync(new EditParams { Action = "code_actions", Path = Formatter, Line = at.Line, Character = at.Character, ActionIndex = remove.Index, Apply = true });
        Assert.Equal(EditResultKind.Applied, applied.Kind);
        Assert.DoesNotContain("int unused", fx.Workspace.Read(Formatter), StringComparison.Ordinal);
        await fx.UndoAsync();
    }

    [Fact]
    public async Task ExternalCheck_AfterRenamesAndAFix_DotnetBuildAndTestStayGreen()
    {
        fx.ResetSources();
        await fx.RenameAsync("EditTools.Lib.Calculator", "Adder", apply: true);
        await fx.RenameAsync("Adder.Add", "Sum", apply: true);
        await fx.EditAsync(new EditParams { Action = "code_actions", Path = Formatter, Diagnostic = "CS0168", ActionIndex = 0, Apply = true });
        Assert.Contains("new Adder().Sum(2, 3)", fx.Workspace.Read(CalculatorTests), StringComparison.Ordinal);

        (int build, string buildOutput) = FixtureWorkspace.Dotnet(fx.Workspace.Root, ["build", "EditTools.slnx", "-nologo", "-v:q"]);
        Assert.True(build == 0, buildOutput);
        (int test, string testOutput) = FixtureWorkspace.Dotnet(fx.Workspace.Root, ["test", "Tests/Tests.csproj", "--no-build", "-nologo"]);
        Assert.True(test == 0, testOutput);
        Assert.Contains("Passed!", testOutput, StringComparison.Ordinal);

        await fx.UndoAsync();
        await fx.UndoAsync();
        await fx.UndoAsync();
        Assert.Equal(fx.Original(Calculator), fx.Bytes(Calculator));
    }

    private SourceLocation Locate(string relative, string marked)
    {
        int caret = marked.IndexOf("$$", StringComparison.Ordinal);
        string needle = marked.Remove(caret, 2);
        string text = fx.Workspace.Read(relative).ReplaceLineEndings("\n");
        int position = text.IndexOf(needle, StringComparison.Ordinal) + caret;
        int lineStart = text.LastIndexOf('\n', Math.Max(0, position - 1)) + 1;
        return new SourceLocation(relative, text[..lineStart].Count(c => c == '\n') + 1, position - lineStart + 1);
    }
}
