using System.Diagnostics;
using System.Text.Json.Nodes;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Edits;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Issue 36, edits that outlive their client. Once an apply wrote its first file it finishes or rolls back,
/// whatever the client does: a real host whose client closes stdin, or that gets SIGTERM, in the middle of
/// a 251-file rename does not exit until the rename is rolled back (before: it exited at once, leaving part
/// of the rename on disk). The record of an interrupted apply is reported by the next request even when that
/// request fails (before: the failing request deleted it unreported), is written before a client that
/// applies the edit itself is asked, and is never taken for interrupted while another process's apply holds
/// the workspace lock.
/// </summary>
public sealed class ApplyOutlivesClientTests
{
    private const int UseFiles = 250;

    private static Task<EditResult> Edit(SemanticHost host, string workspace, EditParams parameters) => Poll.WithTimeout(
        host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(ProtocolMethods.Edit, parameters with { Workspace = workspace, Tool = "test-tool" }),
        SemanticHost.Timeout,
        ProtocolMethods.Edit);

    private static Task<InterruptedEditsResult> Interrupted(SemanticHost host, string workspace) => Poll.WithTimeout(
        host.Host.Client.InvokeWithParameterObjectAsync<InterruptedEditsResult>(ProtocolMethods.InterruptedEdits, new EditHistoryParams { Workspace = workspace, Tool = "test-tool" }),
        SemanticHost.Timeout,
        ProtocolMethods.InterruptedEdits);

    [Theory]
    [InlineData("stdin closed")]
    [InlineData("SIGTERM")]
    [InlineData("client process gone")]
    public async Task HostEndingMidApply_RollsTheApplyBackBeforeItExits(string how)
    {
        if (OperatingSystem.IsWindows())
        {
            return; // No signals, no `sleep`/`kill`: the Unix hosts' guarantee (Windows has the exit paths of the other tests).
        }

        // Restored first: the added sources change no restore input.
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("WideRename", "WideRename.csproj");
        Directory.CreateDirectory(fixture.Path("Uses"));
        for (int i = 1; i <= UseFiles; i++)
        {
            fixture.Write($"Uses/Use{i:D3}.cs", $"namespace WideRename.Uses;\n\npublic static class Use{i:D3}\n{{\n    public static int Run(Widget widget) => widget.Spin({i});\n}}\n");
        }

        string[] sources = ["Widget.cs", .. Enumerable.Range(1, UseFiles).Select(i => $"Uses/Use{i:D3}.cs")];
        Dictionary<string, string> originals = sources.ToDictionary(s => s, fixture.Read);
        using TempDirectory state = new();

        // The client process the host follows (--clientProcessId), killed for "client process gone".
        using HelperProcess client = HelperProcess.Start(seconds: 600);
        await using HostProcess host = HostProcess.StartWithEnvironment(
            new Dictionary<string, string> { ["SHARPCLAW_STATE_DIR"] = state.Path },
            "--clientProcessId", client.Id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        await host.RequestAsync(ProtocolMethods.Initialize, new JsonObject());
        await host.NotifyAsync(ProtocolMethods.Initialized, new JsonObject());

        // Ends the client's side as soon as the first renamed file is on disk. The sources are read when the file
        // system says something below the workspace changed, and every 250 ms should a notice be lost: reading 251
        // files every 20 ms cost CPU for the whole load before the apply (without notices, it polls so again).
        using SemaphoreSlim changed = new(0);
        void Changed() => changed.Release();
        using FileSystemWatcher notices = new(fixture.Root) { IncludeSubdirectories = true, NotifyFilter = NotifyFilters.FileName | NotifyFilters.LastWrite | NotifyFilters.Size };
        notices.Created += (_, _) => Changed();
        notices.Changed += (_, _) => Changed();
        notices.Renamed += (_, _) => Changed();
        notices.Error += (_, _) => Changed();
        TimeSpan poll = TimeSpan.FromMilliseconds(250);
        try
        {
            notices.EnableRaisingEvents = true;
        }
        catch (IOException)
        {
            poll = TimeSpan.FromMilliseconds(20); // No inotify instance left for this user: poll as often as before.
        }

        bool interrupted = false;
        Task watcher = Task.Run(async () =>
        {
            while (!host.HasExited)
            {
                while (changed.CurrentCount > 0 && changed.Wait(0))
                {
                    // One read of the sources answers every notice so far.
                }

                if (sources.Any(s => File.Exists(fixture.Path(s)) && fixture.Read(s).Contains("Twirl", StringComparison.Ordinal)))
                {
                    interrupted = true;
                    switch (how)
                    {
                        case "stdin closed":
                            host.CloseStdin();
                            break;
                        case "SIGTERM":
                            Process.Start("kill", ["-TERM", host.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)])!.WaitForExit();
                            break;
                        default:
                            client.Kill();
                            break;
                    }

                    return;
                }

                await changed.WaitAsync(poll);
            }
        });

        JsonObject parameters = new()
        {
            ["workspace"] = fixture.Root,
            ["action"] = "rename",
            ["name"] = "Widget.Spin",
            ["newName"] = "Twirl",
            ["apply"] = true,
            ["tool"] = "test-tool",
        };
        try
        {
            await host.RequestServingAsync(ProtocolMethods.Edit, parameters, _ => new JsonObject { ["granted"] = true }, [], TimeSpan.FromMinutes(5));
        }
        catch (Exception ex) when (ex is System.Threading.Channels.ChannelClosedException or OperationCanceledException or IOException)
        {
            // The connection ended before the answer: expected once the client's side is gone.
        }

        await watcher;
        Assert.True(interrupted, $"The apply never wrote a file before it ended.\n{host.Stderr}");
        Assert.True(await host.WaitForExitAsync(TimeSpan.FromSeconds(60)), "The host did not exit after its client's side ended.");

        string[] renamed = [.. sources.Where(s => fixture.Read(s).Contains("Twirl", StringComparison.Ordinal))];
        string journal = Path.Combine(state.Path, "workspaces");
        if (renamed.Length == sources.Length && !host.Stderr.Contains("waiting for its rollback", StringComparison.Ordinal))
        {
            // On an idle machine the apply can write its last file before the host acts on the ending (the
            // client-process poll runs every few seconds; a SIGTERM's exit request is served after the apply
            // returns; seen in CI: "SIGTERM during an apply", then all 251 renamed). Finishing is the other
            // outcome the guarantee allows, and it is whole: every file renamed, no temporary file, no open record.
            Assert.Empty(Directory.GetFiles(fixture.Root, "*.tmp", SearchOption.AllDirectories));
            Assert.Empty(Directory.Exists(journal) ? Directory.GetFiles(journal, "apply-*.json", SearchOption.AllDirectories) : []);
            return;
        }

        Assert.True(renamed.Length == 0, $"{renamed.Length} of {sources.Length} files kept the rename after the host ended ({how}); the apply must roll back first.\n{host.Stderr}");
        Assert.All(sources, s => Assert.Equal(originals[s], fixture.Read(s)));
        Assert.Empty(Directory.GetFiles(fixture.Root, "*.tmp", SearchOption.AllDirectories));
        Assert.Empty(Directory.Exists(journal) ? Directory.GetFiles(journal, "apply-*.json", SearchOption.AllDirectories) : []);
        if (how != "stdin closed")
        {
            Assert.Contains("waiting for its rollback before exiting", host.Stderr, StringComparison.Ordinal);
        }

        // Closing stdin also ends the connection, and JsonRpc cancels the edit's request with it: the apply may have
        // rolled back on that cancellation before the exit path looked, which then finds nothing running and says
        // nothing (seen in CI once in three runs of the same code). The files restored above, read after the host
        // exited, show the rollback finished before the exit either way.
    }

    /// <summary>
    /// One kill mid-apply and one next host for three guarantees (each cold load of EditTools is paid once): the record
    /// is left alone while another process's apply holds the workspace lock; once the lock is gone a failing request
    /// still reports it (and its undo restores the files); a client that applies an edit itself is asked only once
    /// the edit's record is durable.
    /// </summary>
    [Fact]
    public async Task InterruptedRecord_IsLeftWhileItsApplyHoldsTheLock_ThenAFailingRequestReportsIt_AndItsUndoRestores_AndAClientThatAppliesIsAskedOnceTheRecordIsDurable()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("EditTools", "EditTools.slnx");
        string[] sources = ["App/Program.cs", "Lib/Calculator.cs", "Lib/Formatter.cs", "Tests/CalculatorTests.cs"];
        Dictionary<string, byte[]> originals = sources.ToDictionary(s => s, s => File.ReadAllBytes(fixture.Path(s)));
        string temp = await KillMidApplyAsync(fixture, sources, new EditParams { Action = "rename", Name = "Calculator.Add", NewName = "Sum" });

        await using SemanticHost next = await SemanticHost.StartAsync();

        // Another process's apply is running: it holds the workspace lock, its record and temp file are live.
        using (WorkspaceLock running = await WorkspaceLock.AcquireAsync(fixture.Root, TimeSpan.FromSeconds(10), CancellationToken.None))
        {
            Assert.Empty((await Interrupted(next, fixture.Root)).Interrupted);
            Assert.True(File.Exists(temp), "Recovery removed a temp file of an apply that is still running.");
            Assert.Single(Directory.GetFiles(JournalOf(fixture)));
        }

        // Once it is gone, the record is an interrupted apply. The attack: renaming the old name again fails (its
        // declaration already says Sum)...
        SemanticErrorData failed = await SemanticErrors.ExpectAsync(
            SemanticErrorKind.SymbolNotFound, () => Edit(next, fixture.Root, new EditParams { Action = "rename", Name = "Calculator.Add", NewName = "Total", Apply = true }));

        // ...and its error still reports the interrupted edit, so the report is not lost with the request.
        InterruptedEdit interrupted = Assert.Single(failed.Interrupted ?? []);
        Assert.Equal(2, interrupted.Files.Count(f => f.Written));
        Assert.True(interrupted.Undoable);
        Assert.Equal(1, interrupted.RemovedTemporaryFiles);
        Assert.False(File.Exists(temp));
        Assert.Empty(Directory.GetFiles(JournalOf(fixture)));

        // Reported once: the next request finds nothing left.
        SemanticErrorData again = await SemanticErrors.ExpectAsync(
            SemanticErrorKind.SymbolNotFound, () => Edit(next, fixture.Root, new EditParams { Action = "rename", Name = "Calculator.Add", NewName = "Total", Apply = true }));
        Assert.Null(again.Interrupted);
        Assert.Empty((await Interrupted(next, fixture.Root)).Interrupted);

        // What was written is on the undo stack.
        EditResult undone = await Poll.WithTimeout(
            next.Host.Client.InvokeWithParameterObjectAsync<EditResult>(ProtocolMethods.UndoEdit, new EditHistoryParams { Workspace = fixture.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.UndoEdit);
        Assert.Equal(EditResultKind.Applied, undone.Kind);
        Assert.All(sources, s => Assert.Equal(originals[s], File.ReadAllBytes(fixture.Path(s))));

        // A client that applies the edit itself (it is asked to write) is asked only once the record is durable.
        int recordsWhenAsked = -1;
        next.Client.WriteAnswer = _ =>
        {
            recordsWhenAsked = Directory.Exists(JournalOf(fixture)) ? Directory.GetFiles(JournalOf(fixture), "apply-*.json").Length : 0;
            return Task.FromResult(new AuthorizeEvaluationResult { Granted = false, Message = "the person said no" });
        };

        await SemanticErrors.ExpectAsync(
            SemanticErrorKind.PermissionDenied, () => Edit(next, fixture.Root, new EditParams { Action = "rename", Name = "Calculator.Add", NewName = "Sum", Apply = true }));
        Assert.Equal(1, recordsWhenAsked);
        Assert.Empty(Directory.GetFiles(JournalOf(fixture)));
    }

    [Fact]
    public async Task StoppingTheHostMidApply_CancelsIt_AndWaitsForItsRollback()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("EditTools", "EditTools.slnx");
        string[] sources = ["App/Program.cs", "Lib/Calculator.cs", "Lib/Formatter.cs", "Tests/CalculatorTests.cs"];
        Dictionary<string, string> originals = sources.ToDictionary(s => s, fixture.Read);
        SemanticHost? host = null;
        Task? stopped = null;
        bool restoredWhenStopped = false;
        host = await SemanticHost.StartAsync(new HostServerOptions
        {
            WriteHook = async (index, _, _) =>
            {
                if (index == 2)
                {
                    // The host is ending (exit, stdin closed, a signal) after two files were written.
                    stopped = host!.Host.Server.State.Edits.Applies.StopBeforeExitAsync(new HostLog(TextWriter.Null))
                        .ContinueWith(_ => restoredWhenStopped = sources.All(s => fixture.Read(s) == originals[s]), TaskScheduler.Default);
                    await Task.Delay(100);
                }
            },
        });
        await using (host)
        {
            await Assert.ThrowsAnyAsync<Exception>(() => Edit(host, fixture.Root, new EditParams { Action = "rename", Name = "Calculator.Add", NewName = "Sum", Apply = true }));
            await stopped!.WaitAsync(TimeSpan.FromSeconds(60));
            Assert.True(restoredWhenStopped, "The host was told it may end before the apply had rolled back.");
            Assert.All(sources, s => Assert.Equal(originals[s], fixture.Read(s)));
            Assert.Empty(Directory.GetFiles(JournalOf(fixture)));
        }
    }

    [Fact]
    public async Task TheHostEndingRightAfterAnApplysLastWrite_WaitsUntilItsRecordIsSettled()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("EditTools", "EditTools.slnx");
        SemanticHost? host = null;
        Task? stopped = null;
        bool endedBeforeSettled = false;
        int recordsWhenStopped = -1;
        host = await SemanticHost.StartAsync(new HostServerOptions
        {
            ApplySettlingHook = async () =>
            {
                // Every file is written; the host is told to end (stdin closed, a signal) before the apply's
                // record is deleted. It may end only once the record is settled.
                stopped = host!.Host.Server.State.Edits.Applies.StopBeforeExitAsync(new HostLog(TextWriter.Null))
                    .ContinueWith(_ => recordsWhenStopped = Directory.GetFiles(JournalOf(fixture), "apply-*").Length, TaskScheduler.Default);
                await Task.WhenAny(stopped, Task.Delay(TimeSpan.FromSeconds(2)));
                endedBeforeSettled = stopped.IsCompleted;
            },
        });
        await using (host)
        {
            EditResult result = await Edit(host, fixture.Root, new EditParams { Action = "rename", Name = "Calculator.Add", NewName = "Sum", Apply = true });
            Assert.Equal(EditResultKind.Applied, result.Kind);
            await stopped!.WaitAsync(TimeSpan.FromSeconds(60));
            Assert.False(endedBeforeSettled, "The host was told it may end before the apply's record was settled.");
            Assert.Equal(0, recordsWhenStopped);
        }
    }

    private static string JournalOf(FixtureWorkspace fixture) => Path.Combine(StateFolder.ForWorkspace(fixture.Root), "journal");

    /// <summary>
    /// What a SIGKILL of the host right before the third write of <paramref name="edit"/> leaves on disk — two
    /// files written, the apply's record, a truncated temp file next to the third — captured inside a real
    /// apply and put back. Returns the temp file.
    /// </summary>
    private static async Task<string> KillMidApplyAsync(FixtureWorkspace fixture, string[] sources, EditParams edit)
    {
        string journal = JournalOf(fixture);
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

                    foreach (string record in Directory.GetFiles(journal))
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
            await SemanticErrors.ExpectAsync(SemanticErrorKind.WriteFailed, () => Edit(first, fixture.Root, edit with { Apply = true }));
        }

        KeyValuePair<string, byte[]> durable = Assert.Single(records);
        foreach ((string source, byte[] bytes) in atKill)
        {
            File.WriteAllBytes(fixture.Path(source), bytes);
        }

        File.WriteAllBytes(durable.Key, durable.Value);
        File.WriteAllText(temp!, "public int Su"); // Truncated.
        return temp!;
    }
}
