// The host's writes in VS Code (an agent's csharp_rename_symbol / csharp_edit apply, undo, redo):
// once the person granted them, the planned texts go through WorkspaceEdit instead of the host
// writing files behind the editor's back. A file with unsaved changes that differ from the plan is
// left alone; the host then reports it (content_changed) and writes nothing over it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AuthorizeWriteParams } from '../protocol/edits';
import { applyPlannedChanges, FileChangedError } from './fileChanges';

export async function applyHostWrite(params: AuthorizeWriteParams): Promise<boolean> {
  const changes = params.changes ?? [];
  // File renames stay with the host, which re-attaches the moved document in Roslyn.
  if (changes.length === 0 || changes.some((change) => change.newPath !== null)) return false;
  try {
    await applyPlannedChanges(
      changes.map((change) => ({ uri: vscode.Uri.file(path.join(params.workspace, change.path)), before: change.before, after: change.after })),
      { label: params.summary, preview: false },
    );
  } catch (error) {
    // Nothing was applied; the host finds every file without its planned text and says so.
    if (!(error instanceof FileChangedError)) throw error;
  }
  return true;
}
