// Where @sharpclaw keeps its turns: the extension's per-workspace storage (context.storageUri),
// falling back to the global storage when no folder is open. One event log and one checkpoint
// folder per workspace.
import * as vscode from 'vscode';
import { CheckpointStore } from '../../../engine/turns/checkpointStore';
import { TurnEventLog, type TurnEvent } from '../../../engine/turns/turnEvents';

export class TurnStorage {
  readonly events: TurnEventLog;
  readonly checkpoints: CheckpointStore;

  constructor(context: vscode.ExtensionContext) {
    const folder = (context.storageUri ?? context.globalStorageUri).fsPath;
    this.events = new TurnEventLog(folder);
    this.checkpoints = new CheckpointStore(folder);
  }

  /**
   * The newest finished turn not undone yet, with a checkpoint that has writes. `events`: the log
   * when the caller has just read it. Turns that finished with no writes are skipped unread.
   */
  lastUndoableTurn(events: readonly TurnEvent[] = this.events.read()): string | undefined {
    const finished = events.filter((event) => event.type === 'turnFinished' && event.mutations > 0);
    for (const event of [...finished].reverse()) {
      const stored = this.checkpoints.load(event.turnId);
      if (stored && stored.undoneAt === null && stored.mutations.length > 0) return event.turnId;
    }
    return undefined;
  }
}
