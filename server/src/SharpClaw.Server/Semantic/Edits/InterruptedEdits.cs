using System.Globalization;
using System.Text.Json;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// The durable record of an apply, so that a host killed mid-apply (SIGKILL, power loss) loses no edit.
/// Before the write is authorized (a client that applies the edit itself writes while it answers), the plan
/// (every file's path, before and after bytes) is written and flushed to <c>journal/apply-*.json</c> in the
/// workspace's private state folder, under the workspace lock. An apply that ends with a result the client
/// hears (written, rolled back, refused) deletes it; a cancelled apply that could not restore everything keeps
/// it. The next request that recovers (an edit, undo or redo, or <c>sharpclaw/interruptedEdits</c>, on any
/// host) takes the workspace lock — so it never mistakes a running apply of another process for an
/// interrupted one — removes the apply's leftover <c>.NAME.sharpclaw-*.tmp</c> files, puts the files that
/// were written on the undo stack (once per record) and reports the edit. The record is deleted only once
/// that report went out in an answer (<see cref="InterruptedReport.Acknowledge"/>): a request that fails
/// with a typed error carries the report in its error; a cancelled one leaves it for the next request.
/// A record of an apply that wrote nothing (killed while the person was asked) is deleted without a report.
/// </summary>
public static class InterruptedEdits
{
    private const string Prefix = "apply-";

    /// <summary>How long recovery waits for the workspace lock; held longer (a verification), it recovers next time.</summary>
    private static readonly TimeSpan LockWait = TimeSpan.FromSeconds(2);

    /// <summary>Writes the record durably; <see cref="ApplyRecord.Dispose"/> deletes it unless it was kept.</summary>
    public static ApplyRecord Begin(EditPlan plan, DateTimeOffset startedAt)
    {
        string folder = JournalFolder(plan.Workspace);
        string path = Path.Combine(folder, $"{Prefix}{startedAt.UtcTicks:D20}-{Guid.NewGuid():N}.json");
        string temp = path + ".partial";
        FileStreamOptions options = new() { Mode = FileMode.CreateNew, Access = FileAccess.Write };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        }

        using (FileStream stream = new(temp, options))
        {
            using (Utf8JsonWriter json = new(stream))
            {
                json.WriteStartObject();
                json.WriteString("operation", plan.Operation);
                json.WriteString("summary", plan.Summary);
                json.WriteString("workspace", plan.Workspace);
                json.WriteString("startedAt", startedAt.ToString("O", CultureInfo.InvariantCulture));
                json.WriteStartArray("files");
                foreach (PlannedFile file in plan.Files)
                {
                    json.WriteStartObject();
                    json.WriteString("path", file.Path);
                    json.WriteString("newPath", file.NewPath);
                    json.WriteBase64String("before", file.Before);
                    json.WriteBase64String("after", file.After);
                    json.WriteNumber("occurrences", file.Occurrences);
                    json.WriteEndObject();
                }

                json.WriteEndArray();
                json.WriteEndObject();
            }

            stream.Flush(flushToDisk: true);
        }

        File.Move(temp, path);
        return new ApplyRecord(path);
    }

    /// <summary>
    /// Recovers the interrupted applies of <paramref name="workspace"/> (oldest first) into
    /// <paramref name="journal"/>, each record once (<paramref name="firstRecovery"/> says whether a record is new to it); returns
    /// what it found, or null when there was nothing (or the workspace lock stayed busy). Nothing is deleted
    /// until the caller acknowledges the report.
    /// </summary>
    public static async Task<InterruptedReport?> RecoverAsync(string workspace, EditJournal journal, Func<string, bool> firstRecovery, HostLog? log, CancellationToken cancellationToken)
    {
        // No journal, nothing to recover: looked for without creating the workspace's state folder (any folder a
        // client opens is asked about, .NET or not).
        if (!Directory.Exists(Path.Combine(StateFolder.WorkspacePath(workspace, StateFolder.RootPath()), "journal")))
        {
            return null;
        }

        string folder;
        try
        {
            folder = JournalFolder(workspace);
        }
        catch (IOException)
        {
            return null;
        }

        if (!Directory.EnumerateFiles(folder, Prefix + "*.json").Any())
        {
            return null;
        }

        WorkspaceLock held;
        try
        {
            held = await WorkspaceLock.AcquireAsync(workspace, LockWait, cancellationToken).ConfigureAwait(false);
        }
        catch (SemanticException ex)
        {
            log?.Info($"Interrupted edits of {workspace} are recovered later: {ex.Message}");
            return null;
        }

        using (held)
        {
            List<InterruptedEdit> found = [];
            List<string> records = [];
            foreach (string path in Directory.EnumerateFiles(folder, Prefix + "*.json").Order(StringComparer.Ordinal))
            {
                InterruptedEdit edit;
                try
                {
                    edit = RecoverOne(workspace, path, folder, journal, firstRecovery(path));
                }
                catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or JsonException or FormatException or InvalidOperationException or KeyNotFoundException)
                {
                    found.Add(new InterruptedEdit(Path.GetFileName(path), folder, null, null, null, [], 0, false) { Unreadable = ex.Message });
                    log?.Warn($"Interrupted edit record {path} could not be read ({ex.Message}); it was left in place.");
                    continue;
                }

                if (edit.RemovedTemporaryFiles == 0 && !edit.Files.Any(f => f.Written))
                {
                    // Stopped before its first write (while the person was asked): nothing to report.
                    log?.Info($"Apply record {path} wrote nothing before its host stopped; removed.");
                    TryDelete(path);
                    continue;
                }

                found.Add(edit);
                records.Add(path);
            }

            foreach (InterruptedEdit edit in found.Where(e => e.Unreadable is null))
            {
                log?.Warn($"Recovered an interrupted edit: '{edit.Summary}' ({edit.Operation}, started {edit.StartedAt}), {edit.Files.Count(f => f.Written)} of {edit.Files.Count} file(s) written.");
            }

            return found.Count > 0 ? new InterruptedReport(found, records) : null;
        }
    }

    private static InterruptedEdit RecoverOne(string workspace, string path, string recordFolder, EditJournal journal, bool firstTime)
    {
        using JsonDocument document = JsonDocument.Parse(File.ReadAllBytes(path));
        JsonElement root = document.RootElement;
        string operation = root.GetProperty("operation").GetString()!;
        string summary = root.GetProperty("summary").GetString()!;
        DateTimeOffset startedAt = DateTimeOffset.Parse(root.GetProperty("startedAt").GetString()!, CultureInfo.InvariantCulture);
        List<PlannedFile> files = [];
        foreach (JsonElement item in root.GetProperty("files").EnumerateArray())
        {
            byte[] before = item.GetProperty("before").GetBytesFromBase64();
            byte[] after = item.GetProperty("after").GetBytesFromBase64();
            files.Add(new PlannedFile(
                item.GetProperty("path").GetString()!, item.GetProperty("newPath").GetString(), before, after, FileText.Decode(before), FileText.Decode(after), item.GetProperty("occurrences").GetInt32()));
        }

        int removedTemps = 0;
        foreach (string folder in files.SelectMany(f => new[] { f.Path, f.AfterPath }).Select(p => Path.GetDirectoryName(p)!).Distinct(PathUtil.Comparer))
        {
            if (!Directory.Exists(folder))
            {
                continue;
            }

            foreach (string temp in Directory.EnumerateFiles(folder, $"{WorkspaceWriter.TempPrefix}*.sharpclaw-*{WorkspaceWriter.TempSuffix}"))
            {
                File.Delete(temp);
                removedTemps++;
            }
        }

        // Written: the after-state is on disk (and, for a move, the source is gone or untouched).
        List<PlannedFile> written = [.. files.Where(f => ContentHash.OfFile(f.AfterPath) == f.AfterHash && (!f.IsRename || !File.Exists(f.Path)))];
        if (written.Count > 0 && firstTime)
        {
            journal.Record(new JournalEntry(operation, $"{summary} (interrupted: {written.Count} of {files.Count} files)", workspace, written, startedAt));
        }

        return new InterruptedEdit(
            Path.GetFileName(path),
            recordFolder,
            summary,
            operation,
            startedAt.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", CultureInfo.InvariantCulture),
            [.. files.Select(f => new InterruptedEditFile(
                PathUtil.ToWorkspaceRelative(workspace, f.Path),
                f.NewPath is null ? null : PathUtil.ToWorkspaceRelative(workspace, f.NewPath),
                written.Contains(f)))],
            removedTemps,
            Undoable: written.Count > 0);
    }

    private static string JournalFolder(string workspace) => StateFolder.Subfolder(StateFolder.ForWorkspace(workspace), "journal");

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Left behind, it is reported again: better than losing an interrupted edit.
        }
    }

    /// <summary>The record of one running apply: deleted when disposed, unless <see cref="Keep"/> was called.</summary>
    public sealed class ApplyRecord(string path) : IDisposable
    {
        private bool keep;

        public string Path { get; } = path;

        /// <summary>The apply ended without a result anyone hears and left changes: the next request reports it.</summary>
        public void Keep() => this.keep = true;

        public void Dispose()
        {
            if (!this.keep)
            {
                TryDelete(this.Path);
            }
        }
    }

    /// <summary>What a recovery found; <see cref="Acknowledge"/> once an answer carries it.</summary>
    public sealed class InterruptedReport(IReadOnlyList<InterruptedEdit> edits, IReadOnlyList<string> records)
    {
        public IReadOnlyList<InterruptedEdit> Edits { get; } = edits;

        /// <summary>Deletes the records reported (an unreadable one stays where it is, and is reported again).</summary>
        public void Acknowledge()
        {
            foreach (string record in records)
            {
                TryDelete(record);
            }
        }
    }
}
