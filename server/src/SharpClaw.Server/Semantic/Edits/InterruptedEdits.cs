using System.Globalization;
using System.Text.Json;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// The durable record of an apply in progress, so that a host killed mid-apply (SIGKILL, power loss)
/// loses no edit. Before the first write, the plan (every file's path, before and after bytes) is
/// written and flushed to <c>journal/apply-*.json</c> in the workspace's private state folder; a
/// finished apply (written, or rolled back) deletes it. At the next start, the first edit request for
/// the workspace finds a left-over record: it removes the apply's leftover <c>.NAME.sharpclaw-*.tmp</c>
/// files, puts the files that were written on the undo stack, and reports the interrupted edit.
/// </summary>
public static class InterruptedEdits
{
    private const string Prefix = "apply-";

    /// <summary>Writes the record durably; disposing the result (a finished apply) deletes it.</summary>
    public static IDisposable Begin(EditPlan plan, DateTimeOffset startedAt)
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
        return new Record(path);
    }

    /// <summary>
    /// Recovers the interrupted applies of <paramref name="workspace"/> (oldest first) into
    /// <paramref name="journal"/>; returns what it found, or null when there was nothing.
    /// </summary>
    public static IReadOnlyList<InterruptedEdit>? Recover(string workspace, EditJournal journal, HostLog? log = null)
    {
        string folder;
        try
        {
            folder = JournalFolder(workspace);
        }
        catch (IOException)
        {
            return null;
        }

        List<InterruptedEdit> found = [];
        foreach (string path in Directory.EnumerateFiles(folder, Prefix + "*.json").Order(StringComparer.Ordinal))
        {
            try
            {
                found.Add(RecoverOne(workspace, path, folder, journal));
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or JsonException or FormatException or InvalidOperationException or KeyNotFoundException)
            {
                found.Add(new InterruptedEdit(Path.GetFileName(path), folder, null, null, null, [], 0, false) { Unreadable = ex.Message });
                log?.Warn($"Interrupted edit record {path} could not be read ({ex.Message}); it was left in place.");
                continue;
            }

            File.Delete(path);
        }

        foreach (InterruptedEdit edit in found.Where(e => e.Unreadable is null))
        {
            log?.Warn($"Recovered an interrupted edit: '{edit.Summary}' ({edit.Operation}, started {edit.StartedAt}), {edit.Files.Count(f => f.Written)} of {edit.Files.Count} file(s) written.");
        }

        return found.Count > 0 ? found : null;
    }

    private static InterruptedEdit RecoverOne(string workspace, string path, string recordFolder, EditJournal journal)
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
        if (written.Count > 0)
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

    private sealed class Record(string path) : IDisposable
    {
        public void Dispose()
        {
            try
            {
                File.Delete(path);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Left behind, it is reported at the next start: better than losing an interrupted edit.
            }
        }
    }
}
