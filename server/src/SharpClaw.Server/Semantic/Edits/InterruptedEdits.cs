using System.Globalization;
using System.Text.Json;
using SharpClaw.Server.Hosting;

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
    /// <paramref name="journal"/>; returns the lines that report them, or null when there were none.
    /// </summary>
    public static IReadOnlyList<string>? Recover(string workspace, EditJournal journal, HostLog? log = null)
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

        List<string> lines = [];
        foreach (string path in Directory.EnumerateFiles(folder, Prefix + "*.json").Order(StringComparer.Ordinal))
        {
            try
            {
                lines.AddRange(RecoverOne(workspace, path, journal));
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or JsonException or FormatException or InvalidOperationException or KeyNotFoundException)
            {
                lines.Add($"interrupted edit record {Path.GetFileName(path)} could not be read ({ex.Message}); it was left in {folder}.");
                continue;
            }

            File.Delete(path);
        }

        if (lines.Count > 0)
        {
            log?.Warn(string.Join(" | ", lines));
        }

        return lines.Count > 0 ? lines : null;
    }

    private static List<string> RecoverOne(string workspace, string path, EditJournal journal)
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
        List<string> lines =
        [
            $"interrupted edit: '{summary}' ({operation}, started {startedAt.UtcDateTime:u}) stopped after {written.Count} of {files.Count} file(s); {removedTemps} leftover temporary file(s) removed.",
        ];
        lines.AddRange(files.Select(f => $"  {(written.Contains(f) ? "written" : "not written")}: {WorkspaceWriter.Describe(workspace, f)}"));
        if (written.Count > 0)
        {
            journal.Record(new JournalEntry(operation, $"{summary} (interrupted: {written.Count} of {files.Count} files)", workspace, written, startedAt));
            lines.Add("  Undo it with SharpClaw: Undo Last Edit (sharpclaw/undoEdit), or finish it by running the edit again.");
        }

        return lines;
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
