// SharpClaw: Undo Last Edit / Redo Last Edit: replays SharpClaw's last edit (or undone edit) of
// this window with content checks; the host's own edits go back through its journal
// (sharpclaw/undoEdit, sharpclaw/redoEdit), asking for write permission like any write.
import * as vscode from 'vscode';
import type { HostRequester } from '../../../engine/host/hostRequester';
import { callHost } from '../../../engine/protocol/callHost';
import { Methods } from '../../../engine/protocol/methods';
import type { ExtensionLog } from '../logging/extensionLog';
import { showPersonError } from '../messages/personMessages';
import { EditJournal } from './editJournal';
import { FileChangedError } from './fileChanges';

/** The window's journal, replaying host edits through `host` in `workspace()`. */
export function createEditJournal(host: HostRequester, workspace: () => string): EditJournal {
  const replayHostEdit = async (method: typeof Methods.undoEdit | typeof Methods.redoEdit) => {
    await callHost(host, method, { workspace: workspace(), tool: method === Methods.undoEdit ? 'SharpClaw: Undo Last Edit' : 'SharpClaw: Redo Last Edit' });
  };
  return new EditJournal({ undo: () => replayHostEdit(Methods.undoEdit), redo: () => replayHostEdit(Methods.redoEdit) });
}

export async function replayEdit(journal: EditJournal, direction: 'undo' | 'redo', log: ExtensionLog): Promise<boolean> {
  try {
    const entry = direction === 'undo' ? await journal.undo() : await journal.redo();
    if (!entry) {
      void vscode.window.showInformationMessage(`SharpClaw has no edit to ${direction} in this window.`);
      return false;
    }
    log.info(`${direction === 'undo' ? 'Undid' : 'Redid'}: ${entry.label}`);
    void vscode.window.showInformationMessage(`SharpClaw ${direction === 'undo' ? 'undid' : 'redid'}: ${entry.label}`);
    return true;
  } catch (error) {
    if (error instanceof FileChangedError) {
      log.info(`${direction}: ${error.message}`);
      void vscode.window.showWarningMessage(`SharpClaw: ${error.message}`);
    } else {
      showPersonError(log, direction === 'undo' ? 'Undo Last Edit' : 'Redo Last Edit', direction === 'undo' ? 'did not undo' : 'did not redo', error);
    }
    return false;
  }
}
