// Tells the person, when a host starts, about applies an earlier host left unfinished (it was
// killed mid-write): which edit, how many of its files were written, and Undo / Show Details.
// The host has journaled the written files, so Undo Last Edit reverts them like any edit.
import * as vscode from 'vscode';
import type { InterruptedEdit } from '../../../engine/protocol/edits';
import { interruptedLines } from '../../../engine/tools/edits/renderEdits';
import type { ExtensionLog } from '../logging/extensionLog';
import type { EditJournal } from './editJournal';
import { replayEdit } from './replayEditCommands';

export function showInterruptedEdits(edits: InterruptedEdit[], journal: EditJournal, log: ExtensionLog): void {
  log.warn(edits.flatMap(interruptedLines).join('\n'));
  for (const edit of edits) {
    const written = edit.files.filter((file) => file.written).length;
    if (edit.undoable) journal.record({ kind: 'host', label: `${edit.summary} (interrupted: ${written} of ${edit.files.length} files)` });
  }
  const undoable = edits.filter((edit) => edit.undoable);
  const first = edits[0]!;
  const message =
    first.unreadable != null
      ? 'SharpClaw found a record of an interrupted edit it could not read; see the log.'
      : `SharpClaw's last edit '${first.summary}' was interrupted when its host stopped: ${first.files.filter((file) => file.written).length} of ${first.files.length} files were written.${edits.length > 1 ? ` (${edits.length - 1} more in the log.)` : ''}`;
  const actions = [...(undoable.length > 0 ? ['Undo'] : []), 'Show Details'];
  void vscode.window.showWarningMessage(message, ...actions).then((choice) => {
    if (choice === 'Undo') void replayEdit(journal, 'undo', log);
    if (choice === 'Show Details') log.show();
  });
}
