// The edits SharpClaw applied in this window, in order, for SharpClaw: Undo Last Edit and Redo
// Last Edit. Edits a person applied from the refactor preview are replayed here through
// WorkspaceEdit; edits the host wrote for an agent's tool call are replayed by the host's own
// journal. Either way content is checked again: a file edited since is never overwritten.
import { applyPlannedChanges, type PlannedFileChange } from './fileChanges';

export type JournalEntry =
  /** Applied in VS Code through WorkspaceEdit (Rename Symbol…). */
  | { kind: 'editor'; label: string; changes: PlannedFileChange[] }
  /** Written by the host (csharp_rename_symbol / csharp_edit with apply). */
  | { kind: 'host'; label: string };

/** Replays the host's own journal (sharpclaw/undoEdit, sharpclaw/redoEdit); throws its typed errors. */
export interface HostEditHistory {
  undo(): Promise<void>;
  redo(): Promise<void>;
}

/** Applies every change or throws: a replay that lands partly would leave the journal wrong. */
async function applyAll(changes: PlannedFileChange[], label: string): Promise<void> {
  const applied = await applyPlannedChanges(changes, { label, preview: false });
  if (applied.length !== changes.length) throw new Error(`${label}: VS Code applied ${applied.length} of ${changes.length} file changes.`);
}

export class EditJournal {
  private readonly done: JournalEntry[] = [];
  private readonly undone: JournalEntry[] = [];

  constructor(private readonly host: HostEditHistory) {}

  record(entry: JournalEntry): void {
    this.done.push(entry);
    this.undone.length = 0;
  }

  /** Restores the state before the last edit; undefined when there is nothing to undo. Throws FileChangedError untouched. */
  async undo(): Promise<JournalEntry | undefined> {
    const entry = this.done.at(-1);
    if (!entry) return undefined;
    if (entry.kind === 'host') await this.host.undo();
    else await applyAll(entry.changes.map((change) => ({ ...change, before: change.after, after: change.before })), `Undo ${entry.label}`);
    this.undone.push(this.done.pop()!);
    return entry;
  }

  /** Applies the last undone edit again; undefined when there is nothing to redo. */
  async redo(): Promise<JournalEntry | undefined> {
    const entry = this.undone.at(-1);
    if (!entry) return undefined;
    if (entry.kind === 'host') await this.host.redo();
    else await applyAll(entry.changes, entry.label);
    this.done.push(this.undone.pop()!);
    return entry;
  }
}
