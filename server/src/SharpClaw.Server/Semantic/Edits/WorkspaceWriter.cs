using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>Called right before file <c>index</c> of a plan is written (tests inject faults and external edits here).</summary>
public delegate Task EditWriteHook(int index, PlannedFile file, CancellationToken cancellationToken);

/// <summary>What a finished write did.</summary>
/// <param name="Completed">The operations written, in order.</param>
public sealed record WriteOutcome(IReadOnlyList<PlannedFile> Completed);

/// <summary>
/// Writes a plan file by file: content preconditions for every file before the first write and again right
/// before each write (an external edit is detected and preserved); each replacement is atomic (a temp file in
/// the same folder, then a rename). On failure or cancellation the completed writes are rolled back under a
/// separate bounded token, never overwriting a file whose content is no longer the planned after-state; what
/// could not be restored is reported by path. There is no multi-file transaction: an editor can still race
/// between a check and a write. A cancellation that arrives after the last write still rolls back: a
/// receipt nobody may hear of must not stand for an edit.
/// </summary>
public sealed class WorkspaceWriter(EditWriteHook? hook = null)
{
    public static readonly TimeSpan RollbackTimeout = TimeSpan.FromSeconds(15);

    /// <summary>Residual changes of the last failed or cancelled write, kept for turn finalization.</summary>
    public IReadOnlyList<string> LastResidual { get; private set; } = [];

    /// <summary>
    /// Throws read_only_file when any file is read-only, and content_changed when any file differs from
    /// the plan's before-state; either way nothing was written.
    /// </summary>
    public static void CheckPreconditions(string workspace, IReadOnlyList<PlannedFile> files)
    {
        List<string> readOnly = [.. files.Where(f => FileOwnership.IsReadOnly(f.Path)).Select(f => PathUtil.ToWorkspaceRelative(workspace, f.Path))];
        if (readOnly.Count > 0)
        {
            throw SemanticException.Edit(
                SemanticErrorKind.ReadOnlyFile,
                $"{readOnly.Count} file(s) of the edit are read-only; nothing was written. Make them writable first if the edit should change them.",
                readOnly);
        }

        List<string> changed = [.. files.Where(f => !BeforeHolds(f)).Select(f => Describe(workspace, f))];
        if (changed.Count > 0)
        {
            throw SemanticException.Edit(
                SemanticErrorKind.ContentChanged,
                $"{changed.Count} file(s) changed since the edit was computed; nothing was written and the files were left as they are. Request a new preview.",
                changed);
        }
    }

    public async Task<WriteOutcome> WriteAsync(EditPlan plan, CancellationToken cancellationToken)
    {
        CheckPreconditions(plan.Workspace, plan.Files);
        List<PlannedFile> completed = [];
        int index = 0;
        try
        {
            for (; index < plan.Files.Count; index++)
            {
                PlannedFile file = plan.Files[index];
                cancellationToken.ThrowIfCancellationRequested();
                if (hook is not null)
                {
                    await hook(index, file, cancellationToken).ConfigureAwait(false);
                    cancellationToken.ThrowIfCancellationRequested();
                }

                if (!BeforeHolds(file))
                {
                    throw new ExternalEditException(Describe(plan.Workspace, file));
                }

                if (file.IsRename && IsOneEntry(file.Path, file.AfterPath))
                {
                    // A case-only rename on a case-insensitive file system: both names are this one file, so
                    // writing the new name then deleting the old would delete it. Write in place, then rename.
                    WriteAtomically(file.Path, file.After, mustNotExist: false, attributesFrom: file.Path);
                    File.Move(file.Path, file.AfterPath);
                }
                else
                {
                    WriteAtomically(file.AfterPath, file.After, mustNotExist: file.IsRename, attributesFrom: file.Path);
                    if (file.IsRename)
                    {
                        File.Delete(file.Path);
                    }
                }

                completed.Add(file);
            }

            // Cancelled while the last file was written: nobody may hear of the receipt, so it rolls back too.
            cancellationToken.ThrowIfCancellationRequested();
            this.LastResidual = [];
            return new WriteOutcome(completed);
        }
        catch (Exception ex)
        {
            (List<string> rolledBack, List<string> residual, List<string> rollbackErrors) = Rollback(plan.Workspace, completed);
            this.LastResidual = residual;
            if (ex is OperationCanceledException cancelled)
            {
                // Cancellation propagates after cleanup, with what is left (also in LastResidual).
                throw new WriteCancelledException(residual, cancelled);
            }

            string step = index < plan.Files.Count ? $"step {index + 1} of {plan.Files.Count}, {Describe(plan.Workspace, plan.Files[index])}" : "after the last step";
            string cause = ex is ExternalEditException external
                ? $"{external.Message} changed outside the edit right before it was written; it was left as it is"
                : ex.Message;
            List<string> details = [$"failed: {step}: {cause}"];
            details.AddRange(completed.Select(f => $"written then {(rolledBack.Contains(f.AfterPath) ? "rolled back" : "NOT rolled back")}: {Describe(plan.Workspace, f)}"));
            details.AddRange(residual.Select(r => $"residual: {r}"));
            details.AddRange(rollbackErrors.Select(r => $"rollback error: {r}"));
            string summary = residual.Count == 0
                ? $"The edit failed at {step}; {completed.Count} completed write(s) were rolled back and no change remains."
                : $"The edit failed at {step}; {residual.Count} residual change(s) remain (listed below). Inspect them before retrying.";
            throw SemanticException.Edit(ex is ExternalEditException ? SemanticErrorKind.ContentChanged : SemanticErrorKind.WriteFailed, summary, details, ex);
        }
    }

    private static (List<string> RolledBack, List<string> Residual, List<string> Errors) Rollback(string workspace, List<PlannedFile> completed)
    {
        List<string> rolledBack = [];
        List<string> residual = [];
        List<string> errors = [];
        using CancellationTokenSource bounded = new(RollbackTimeout);
        for (int i = completed.Count - 1; i >= 0; i--)
        {
            PlannedFile file = completed[i];
            string where = Describe(workspace, file);
            if (bounded.IsCancellationRequested)
            {
                residual.Add($"{where}: rollback ran out of time ({RollbackTimeout.TotalSeconds:0} s)");
                continue;
            }

            try
            {
                if (ContentHash.OfFile(file.AfterPath) != file.AfterHash)
                {
                    residual.Add($"{where}: changed after the write, so rollback left it as it is");
                    continue;
                }

                if (file.IsRename && IsOneEntry(file.AfterPath, file.Path))
                {
                    WriteAtomically(file.AfterPath, file.Before, mustNotExist: false, attributesFrom: file.AfterPath);
                    File.Move(file.AfterPath, file.Path);
                    rolledBack.Add(file.AfterPath);
                    continue;
                }

                if (file.IsRename && File.Exists(file.Path))
                {
                    residual.Add($"{where}: {PathUtil.ToWorkspaceRelative(workspace, file.Path)} exists again, so rollback left both files");
                    continue;
                }

                WriteAtomically(file.Path, file.Before, mustNotExist: false, attributesFrom: file.AfterPath);
                if (file.IsRename)
                {
                    File.Delete(file.AfterPath);
                }

                rolledBack.Add(file.AfterPath);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                errors.Add($"{where}: {ex.Message}");
                residual.Add($"{where}: still has the edit");
            }
        }

        return (rolledBack, residual, errors);
    }

    internal static bool BeforeHolds(PlannedFile file) =>
        ContentHash.OfFile(file.Path) == file.BeforeHash && (!file.IsRename || !File.Exists(file.NewPath) || IsOneEntry(file.Path, file.NewPath!));

    /// <summary>
    /// True when <paramref name="existing"/> and <paramref name="other"/> differ only in case and this file
    /// system resolves both to the one entry named <paramref name="existing"/> (Windows, macOS): the folder
    /// lists that name and not the other. On a case-sensitive file system two such names are two files.
    /// </summary>
    internal static bool IsOneEntry(string existing, string other)
    {
        if (string.Equals(existing, other, StringComparison.Ordinal) || !string.Equals(existing, other, StringComparison.OrdinalIgnoreCase)
            || !File.Exists(existing) || !File.Exists(other) || Path.GetDirectoryName(existing) is not { } folder)
        {
            return false;
        }

        HashSet<string> names = new(Directory.EnumerateFileSystemEntries(folder).Select(Path.GetFileName).OfType<string>(), StringComparer.Ordinal);
        return names.Contains(Path.GetFileName(existing)) && !names.Contains(Path.GetFileName(other));
    }

    internal static string Describe(string workspace, PlannedFile file) =>
        file.NewPath is null
            ? PathUtil.ToWorkspaceRelative(workspace, file.Path)
            : $"{PathUtil.ToWorkspaceRelative(workspace, file.Path)} -> {PathUtil.ToWorkspaceRelative(workspace, file.NewPath)}";

    /// <summary>
    /// Writes to a temp file in the same folder, then renames it over the target (atomic on one file
    /// system). The temp file first gets the mode and owner of <paramref name="attributesFrom"/> (the
    /// file being replaced, or a renamed file's source), so the replace keeps them.
    /// </summary>
    internal static void WriteAtomically(string path, byte[] bytes, bool mustNotExist, string? attributesFrom = null)
    {
        string folder = Path.GetDirectoryName(path)!;
        Directory.CreateDirectory(folder);
        string temp = Path.Combine(folder, $"{TempPrefix}{Path.GetFileName(path)}.sharpclaw-{Guid.NewGuid():N}{TempSuffix}");
        try
        {
            FileOwnership.Attributes? original = FileOwnership.Read(attributesFrom ?? path);
            using (FileStream stream = new(temp, FileMode.CreateNew, FileAccess.Write, FileShare.None))
            {
                stream.Write(bytes);
                stream.Flush(flushToDisk: true);
            }

            if (original is not null)
            {
                FileOwnership.Apply(temp, original);
            }

            if (mustNotExist && File.Exists(path))
            {
                throw new IOException($"{path} already exists.");
            }

            File.Move(temp, path, overwrite: !mustNotExist);
        }
        finally
        {
            if (File.Exists(temp))
            {
                File.Delete(temp);
            }
        }
    }

    /// <summary>Temp files are named <c>.NAME.sharpclaw-GUID.tmp</c> next to the file they replace.</summary>
    internal const string TempPrefix = ".";

    internal const string TempSuffix = ".tmp";

    private sealed class ExternalEditException(string path) : Exception(path);
}

/// <summary>A write that was cancelled: its completed writes were rolled back, except <see cref="Residual"/>.</summary>
public sealed class WriteCancelledException(IReadOnlyList<string> residual, OperationCanceledException inner)
    : OperationCanceledException("The edit was cancelled; its completed writes were rolled back.", inner, inner.CancellationToken)
{
    /// <summary>What rollback could not restore (empty: no change remains).</summary>
    public IReadOnlyList<string> Residual { get; } = residual;
}
