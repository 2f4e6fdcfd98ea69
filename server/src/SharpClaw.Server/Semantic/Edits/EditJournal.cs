using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>One applied edit: its complete successful operation set, in write order.</summary>
public sealed record JournalEntry(string Operation, string Summary, string Workspace, IReadOnlyList<PlannedFile> Files, DateTimeOffset AppliedAt);

/// <summary>
/// The chronological record of successful semantic writes per workspace, with undo and redo stacks.
/// Undo replays an entry's inverse, redo replays it again; both check content first (see <see cref="EditService"/>).
/// </summary>
public sealed class EditJournal
{
    private readonly Lock gate = new();
    private readonly Dictionary<string, (List<JournalEntry> Done, List<JournalEntry> Undone)> byWorkspace = new(PathUtil.Comparer);

    /// <summary>Every applied edit of <paramref name="workspace"/>, oldest first (undone ones excluded).</summary>
    public IReadOnlyList<JournalEntry> Applied(string workspace)
    {
        lock (this.gate)
        {
            return this.byWorkspace.TryGetValue(workspace, out var stacks) ? [.. stacks.Done] : [];
        }
    }

    public void Record(JournalEntry entry)
    {
        lock (this.gate)
        {
            var stacks = this.Stacks(entry.Workspace);
            stacks.Done.Add(entry);
            stacks.Undone.Clear(); // A new edit ends the redo history.
        }
    }

    public JournalEntry PeekUndo(string workspace) => this.Peek(workspace, undo: true);

    public JournalEntry PeekRedo(string workspace) => this.Peek(workspace, undo: false);

    /// <summary>Moves the newest done entry to the redo stack (after a successful undo).</summary>
    public void CompleteUndo(JournalEntry entry)
    {
        lock (this.gate)
        {
            var stacks = this.Stacks(entry.Workspace);
            stacks.Done.Remove(entry);
            stacks.Undone.Add(entry);
        }
    }

    /// <summary>Moves the newest undone entry back to the done stack (after a successful redo).</summary>
    public void CompleteRedo(JournalEntry entry)
    {
        lock (this.gate)
        {
            var stacks = this.Stacks(entry.Workspace);
            stacks.Undone.Remove(entry);
            stacks.Done.Add(entry);
        }
    }

    private JournalEntry Peek(string workspace, bool undo)
    {
        lock (this.gate)
        {
            var stacks = this.Stacks(workspace);
            List<JournalEntry> list = undo ? stacks.Done : stacks.Undone;
            return list.Count > 0
                ? list[^1]
                : throw SemanticException.Edit(SemanticErrorKind.NothingToUndo, undo ? "There is no applied edit to undo in this workspace." : "There is no undone edit to redo in this workspace.");
        }
    }

    private (List<JournalEntry> Done, List<JournalEntry> Undone) Stacks(string workspace)
    {
        if (!this.byWorkspace.TryGetValue(workspace, out var stacks))
        {
            stacks = ([], []);
            this.byWorkspace[workspace] = stacks;
        }

        return stacks;
    }
}
