// The edit sets SharpClaw applied in this window, in order, for SharpClaw: Undo Last Edit and
// Redo Last Edit. Replaying checks content again: a file edited since is never overwritten.
import { applyPlannedChanges, type PlannedFileChange } from './fileChanges';

export interface JournalEntry {
  /** What the edit was, e.g. "Rename Add to Sum". */
  label: string;
  changes: PlannedFileChange[];
}

export class EditJournal {
  private readonly done: JournalEntry[] = [];
  private readonly undone: JournalEntry[] = [];

  record(entry: JournalEntry): void {
    this.done.push(entry);
    this.undone.length = 0;
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** Restores the before-texts of the last edit; undefined when there is nothing to undo. Throws FileChangedError untouched. */
  async undo(): Promise<JournalEntry | undefined> {
    const entry = this.done.at(-1);
    if (!entry) return undefined;
    const reverse = entry.changes.map((change) => ({ ...change, before: change.after, after: change.before }));
    await applyPlannedChanges(reverse, { label: `Undo ${entry.label}`, preview: false });
    this.undone.push(this.done.pop()!);
    return entry;
  }

  /** Applies the last undone edit again; undefined when there is nothing to redo. */
  async redo(): Promise<JournalEntry | undefined> {
    const entry = this.undone.at(-1);
    if (!entry) return undefined;
    await applyPlannedChanges(entry.changes, { label: entry.label, preview: false });
    this.done.push(this.undone.pop()!);
    return entry;
  }
}
