// Applies planned whole-file changes through VS Code's WorkspaceEdit, so open editors, dirty
// buffers and VS Code's own undo stay coherent. Each file's current text (the buffer when open,
// else the disk) must still be the planned before-text: an edit made since the plan is detected
// and preserved, never overwritten.
import * as vscode from 'vscode';
import { textReplacements } from './textChanges';

/** One file's planned change: the text it must have now and the text it gets. */
export interface PlannedFileChange {
  uri: vscode.Uri;
  before: string;
  after: string;
  /** Shown in the refactor preview, e.g. "3 occurrences". */
  description?: string;
}

/** A file whose text is no longer the planned before-text. */
export class FileChangedError extends Error {
  constructor(readonly uri: vscode.Uri) {
    super(`${vscode.workspace.asRelativePath(uri)} changed since the edit was planned; nothing was written. Its current text is kept.`);
    this.name = 'FileChangedError';
  }
}

/** The files whose current text differs from their planned before-text. */
export async function changedSincePlanned(changes: readonly PlannedFileChange[]): Promise<vscode.Uri[]> {
  const changed: vscode.Uri[] = [];
  for (const change of changes) {
    const document = await vscode.workspace.openTextDocument(change.uri);
    if (document.getText() !== change.before) changed.push(change.uri);
  }
  return changed;
}

/**
 * Applies the changes as one WorkspaceEdit. With `preview`, VS Code shows them in its refactor
 * preview first (entries start unticked: the person ticks what they accept) and applies only that.
 * Saves the changed documents, so the disk (and the Roslyn host) see the result, and returns the
 * changes that were applied: none when the person discarded the preview.
 */
export async function applyPlannedChanges(changes: readonly PlannedFileChange[], options: { label: string; preview: boolean }): Promise<PlannedFileChange[]> {
  const [firstChanged] = await changedSincePlanned(changes);
  if (firstChanged) throw new FileChangedError(firstChanged);

  const edit = new vscode.WorkspaceEdit();
  for (const change of changes) {
    const document = await vscode.workspace.openTextDocument(change.uri);
    const metadata: vscode.WorkspaceEditEntryMetadata = { label: options.label, description: change.description, needsConfirmation: options.preview };
    for (const replacement of textReplacements(change.before, change.after)) {
      edit.replace(change.uri, new vscode.Range(document.positionAt(replacement.start), document.positionAt(replacement.end)), replacement.newText, metadata);
    }
  }
  if (!(await vscode.workspace.applyEdit(edit, { isRefactoring: true }))) return [];

  const applied: PlannedFileChange[] = [];
  for (const change of changes) {
    const document = await vscode.workspace.openTextDocument(change.uri);
    if (document.getText() !== change.after) continue; // unticked in the preview
    if (document.isDirty) await document.save();
    applied.push(change);
  }
  return applied;
}
