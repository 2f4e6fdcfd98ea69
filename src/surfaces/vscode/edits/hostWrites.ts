// The host's writes in VS Code (an agent's csharp_rename_symbol / csharp_edit apply, undo, redo):
// once the person granted them, the planned texts and file moves go through WorkspaceEdit instead
// of the host writing files behind the editor's back. A file whose current text (unsaved buffer
// included) is not what the plan started from is left alone; the host then finds it without its
// planned text and reports it (content_changed), writing nothing over it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AuthorizeWriteParams } from '../../../engine/protocol/edits';
import { applyPlannedChanges, changedSincePlanned, FileChangedError } from './fileChanges';

export async function applyHostWrite(params: AuthorizeWriteParams): Promise<boolean> {
  const changes = params.changes ?? [];
  const uri = (relative: string) => vscode.Uri.file(path.join(params.workspace, relative));
  const moves = changes.filter((change) => change.newPath !== null);
  const edits = changes.filter((change) => change.newPath === null);
  // A move that also changes the text stays with the host (none of our edits plans one today).
  if (changes.length === 0 || moves.some((move) => move.before !== move.after)) return false;
  try {
    if (edits.length > 0) {
      await applyPlannedChanges(
        edits.map((change) => ({ uri: uri(change.path), before: change.before, after: change.after })),
        { label: params.summary, preview: false },
      );
    }
    if (moves.length > 0) {
      const planned = moves.map((move) => ({ uri: uri(move.path), before: move.before, after: move.after }));
      const [changed] = await changedSincePlanned(planned);
      if (changed) throw new FileChangedError(changed);
      const edit = new vscode.WorkspaceEdit();
      for (const move of moves) edit.renameFile(uri(move.path), uri(move.newPath!), { overwrite: false });
      await vscode.workspace.applyEdit(edit, { isRefactoring: true });
    }
  } catch (error) {
    // What was not applied is found and named by the host.
    if (!(error instanceof FileChangedError)) throw error;
  }
  return true;
}
