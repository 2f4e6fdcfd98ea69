using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Edits;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// A host killed mid-apply (SIGKILL after 2 of 4 files): the disk as the kill leaves it — two files
/// written, a truncated temp file next to the third, the apply's durable record in the state folder —
/// is what the next host finds. It removes the temp file, reports the interrupted edit with its files,
/// and undoes it.
/// </summary>
public sealed class InterruptedApplyTests
{
    private static Task<EditResult> Edit(SemanticHost host, string workspace, EditParams parameters) => Poll.WithTimeout(
        host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(ProtocolMethods.Edit, parameters with { Workspace = workspace, Tool = "test-tool" }),
        SemanticHost.Timeout,
        ProtocolMethods.Edit);

    [Fact]
    public async Task KilledMidApply_NextStartRemovesTempFiles_ReportsTheEdit_AndOffersUndo()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("EditTools", "EditTools.slnx");
        string[] sources = ["App/Program.cs", "Lib/Calculator.cs", "Lib/Formatter.cs", "Tests/CalculatorTests.cs"];
        Dictionary<string, byte[]> originals = sources.ToDictionary(s => s, s => File.ReadAllBytes(fixture.Path(s)));
        string journal = Path.Combine(StateFolder.ForWorkspace(fixture.Root), "journal");

        // What a SIGKILL right before the third write leaves on disk, captured inside the real apply.
        Dictionary<string, byte[]> atKill = [];
        Dictionary<string, byte[]> records = [];
        string? temp = null;
        await using (SemanticHost first = await SemanticHost.StartAsync(new HostServerOptions
        {
            WriteHook = (index, file, _) =>
            {
                if (index == 2)
                {
                    foreach (string source in sources)
                    {
                        atKill[source] = File.ReadAllBytes(fixture.Path(source));
                    }

                    foreach (string record in Directory.Exists(journal) ? Directory.GetFiles(journal) : [])
                    {
                        records[record] = File.ReadAllBytes(record);
                    }

                    temp = Path.Combine(Path.GetDirectoryName(file.Path)!, $".{Path.GetFileName(file.Path)}.sharpclaw-{Guid.NewGuid():N}.tmp");
                    throw new IOException("simulated SIGKILL");
                }

                return Task.CompletedTask;
            },
        }))
        {
            EditResult preview = await Edit(first, fixture.Root, new EditParams { Action = "rename", Name = "Calculator.Add", NewName = "Sum" });
            await SemanticErrors.ExpectAsync(SemanticErrorKind.WriteFailed, () => Edit(first, fixture.Root, new EditParams { Action = "rename", ProposalId = preview.ProposalId, Apply = true }));
        }

        KeyValuePair<string, byte[]> durable = Assert.Single(records); // Written before the first file.
        Assert.Equal(2, sources.Count(s => !atKill[s].AsSpan().SequenceEqual(originals[s])));
        foreach ((string source, byte[] bytes) in atKill)
        {
            File.WriteAllBytes(fixture.Path(source), bytes);
        }

        File.WriteAllBytes(durable.Key, durable.Value);
        File.WriteAllText(temp!, "public int Su"); // Truncated.

        // The next start.
        await using SemanticHost next = await SemanticHost.StartAsync();
        // The client asks as soon as the host is up (the engine's Session does), before any edit.
        InterruptedEditsResult recovered = await Poll.WithTimeout(
            next.Host.Client.InvokeWithParameterObjectAsync<InterruptedEditsResult>(ProtocolMethods.InterruptedEdits, new EditHistoryParams { Workspace = fixture.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.InterruptedEdits);
        InterruptedEdit interrupted = Assert.Single(recovered.Interrupted);
        Assert.Null(interrupted.Unreadable);
        Assert.Equal("rename", interrupted.Operation);
        Assert.StartsWith("rename ", interrupted.Summary, StringComparison.Ordinal);
        Assert.Matches(@"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", interrupted.StartedAt);
        Assert.Equal(4, interrupted.Files.Count);
        Assert.Equal(2, interrupted.Files.Count(f => f.Written));
        Assert.All(interrupted.Files, f => Assert.False(Path.IsPathRooted(f.Path)));
        Assert.Equal(1, interrupted.RemovedTemporaryFiles);
        Assert.True(interrupted.Undoable);
        // Reported once: the next edit finds nothing left to recover.
        EditResult answer = await Edit(next, fixture.Root, new EditParams { Action = "rename", Name = "Formatter.Describe", NewName = "Explain" });
        Assert.Null(answer.Interrupted);
        Assert.False(File.Exists(temp));
        Assert.Empty(Directory.GetFiles(journal));

        EditResult undone = await Poll.WithTimeout(
            next.Host.Client.InvokeWithParameterObjectAsync<EditResult>(ProtocolMethods.UndoEdit, new EditHistoryParams { Workspace = fixture.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.UndoEdit);
        Assert.Equal(EditResultKind.Applied, undone.Kind);
        foreach (string source in sources)
        {
            Assert.Equal(originals[source], File.ReadAllBytes(fixture.Path(source)));
        }
    }

    /// <summary>
    /// The journal is the workspace's, not a target's: a workspace whose top level names no single target
    /// (fixtures/TwoSolutions: two solutions; fixtures/NestedOnly: a solution only in a subfolder) still has its
    /// interrupted apply recovered when a client asks at the host's start. It failed with TargetAmbiguous or
    /// NoTarget, so the edit went unreported.
    /// </summary>
    [Theory]
    [InlineData("TwoSolutions", "Lib/Thing.cs")]
    [InlineData("NestedOnly", "src/Lib/Thing.cs")]
    public async Task AWorkspaceWithoutOneTarget_StillHasItsInterruptedApplyRecovered(string fixtureName, string file)
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy(fixtureName);
        string root = fixture.Root;
        string source = fixture.Path(file);
        byte[] after = File.ReadAllBytes(source); // written before the host stopped
        byte[] before = [.. after, .. "// before the rename\n"u8.ToArray()];
        EditPlan plan = new("rename", "rename Old to New", root, [new PlannedFile(source, null, before, after, System.Text.Encoding.UTF8.GetString(before), System.Text.Encoding.UTF8.GetString(after), 1)]);
        _ = InterruptedEdits.Begin(plan, DateTimeOffset.UtcNow); // never disposed: the record a killed host leaves

        await using SemanticHost host = await SemanticHost.StartAsync();
        InterruptedEditsResult recovered = await Poll.WithTimeout(
            host.Host.Client.InvokeWithParameterObjectAsync<InterruptedEditsResult>(ProtocolMethods.InterruptedEdits, new EditHistoryParams { Workspace = root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.InterruptedEdits);

        InterruptedEdit interrupted = Assert.Single(recovered.Interrupted);
        Assert.Equal("rename Old to New", interrupted.Summary);
        Assert.True(Assert.Single(interrupted.Files).Written);
        Assert.Empty(Directory.GetFiles(Path.Combine(StateFolder.ForWorkspace(root), "journal")));

        // A folder without a journal (any folder a client opens, .NET or not) has nothing to recover, and asking leaves no state folder for it.
        using TempDirectory other = new();
        InterruptedEditsResult none = await Poll.WithTimeout(
            host.Host.Client.InvokeWithParameterObjectAsync<InterruptedEditsResult>(ProtocolMethods.InterruptedEdits, new EditHistoryParams { Workspace = other.Path, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.InterruptedEdits);
        Assert.Empty(none.Interrupted);
        Assert.False(Directory.Exists(StateFolder.WorkspacePath(PathUtil.Normalize(other.Path), StateFolder.RootPath())));
    }
}
