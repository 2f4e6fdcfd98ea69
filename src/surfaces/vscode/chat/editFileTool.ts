// edit_file, the participant's own text edit: replaces one exact piece of a file's current text
// (or creates a file). It always edits what the file holds now, unsaved buffer included, so a
// change the person made meanwhile is kept: when the expected text is no longer there the edit
// fails and says so. Writing asks the person through the extension's permission policy.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PermissionPolicy } from '../../../engine/permissions/permissionPolicy';
import { permissionDeniedMessage } from '../../../engine/permissions/permissionPolicy';
import { asToolError } from '../../../engine/errors';
import { readBoundedText, workspaceTextMaxBytes } from '../../../engine/files/boundedRead';
import { confinedPath } from '../../../engine/files/confinedFile';

export const editFileToolName = 'sharpclaw_edit_file';

export const editFileTool: vscode.LanguageModelChatTool = {
  name: editFileToolName,
  description:
    'Edit a text file of the workspace: replace oldText (an exact, unique piece of the current text) with newText; with oldText empty, create the file with newText. Fails, writing nothing, when oldText is not found exactly once.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Workspace-relative file path.' },
      oldText: { type: 'string', description: 'The exact text to replace; empty to create a new file.' },
      newText: { type: 'string', description: 'The replacement text.' },
    },
    required: ['path', 'oldText', 'newText'],
    additionalProperties: false,
  },
};

export interface EditFileWrite {
  file: string;
  before: string | null;
  after: string;
}

/** The open buffer, else the file through the bounded reader (a FIFO or device is a FileReadError, never a blocked read); null: no such file. */
function currentText(uri: vscode.Uri): string | null {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (open) return open.getText();
  return readBoundedText(uri.fsPath, { maxBytes: workspaceTextMaxBytes, what: 'workspace files' }) ?? null;
}

/** Runs one edit_file call; returns the text the model reads and the write, when one happened. */
export async function runEditFile(input: unknown, options: { workspaceFolder: string; permissions: PermissionPolicy; signal: AbortSignal }): Promise<{ text: string; write?: EditFileWrite }> {
  const args = input as { path?: unknown; oldText?: unknown; newText?: unknown };
  if (typeof args.path !== 'string' || typeof args.oldText !== 'string' || typeof args.newText !== 'string') return { text: 'error invalid_request: give path, oldText and newText as strings.' };
  const file = path.resolve(options.workspaceFolder, args.path);
  let uri: vscode.Uri;
  let before: string | null;
  try {
    // The one rule for a file SharpClaw writes inside a folder: inside it, and no link (to a file or a
    // folder) on the way, since VS Code's edit would follow it out of the workspace.
    confinedPath(options.workspaceFolder, file, 'agent edits');
    uri = vscode.Uri.file(file);
    before = currentText(uri);
  } catch (error) {
    return { text: asToolError(error).render() };
  }
  let after: string;
  if (args.oldText === '') {
    if (before !== null) return { text: `error invalid_request: ${args.path} exists; give the oldText to replace.` };
    after = args.newText;
  } else {
    if (before === null) return { text: `error not_found: ${args.path} does not exist.` };
    const first = before.indexOf(args.oldText);
    if (first < 0) return { text: `error content_changed: the oldText is not in ${args.path} as it is now (it may have been changed since you read it); read it again.` };
    if (before.indexOf(args.oldText, first + 1) >= 0) return { text: `error ambiguous: the oldText occurs more than once in ${args.path}; give more context.` };
    after = before.slice(0, first) + args.newText + before.slice(first + args.oldText.length);
  }
  const permission = { kind: 'write' as const, workspaceFolder: options.workspaceFolder, requestedBy: editFileToolName, action: `edit ${args.path}`, reason: 'The @sharpclaw agent edits this file.', files: [args.path] };
  const decision = await options.permissions.request(permission, options.signal);
  if (!decision.granted) return { text: `error permission_denied: ${permissionDeniedMessage(permission, decision)}` };
  const edit = new vscode.WorkspaceEdit();
  if (before === null) {
    edit.createFile(uri, { overwrite: false, contents: new TextEncoder().encode(after) });
  } else {
    const document = await vscode.workspace.openTextDocument(uri);
    edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), after);
  }
  if (!(await vscode.workspace.applyEdit(edit))) return { text: `error write_failed: VS Code did not apply the edit to ${args.path}.` };
  if (before !== null) await (await vscode.workspace.openTextDocument(uri)).save();
  return { text: `Edited ${args.path}.`, write: { file, before, after } };
}
