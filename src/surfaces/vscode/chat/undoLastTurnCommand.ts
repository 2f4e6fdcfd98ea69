// SharpClaw: Undo Last Turn: reverts every write of the newest @sharpclaw turn not undone yet,
// newest write first, with content checks (unsaved buffers included): a file changed since the
// turn wrote it is named and left alone.
import * as vscode from 'vscode';
import { readWorkspaceText } from '../../../engine/files/boundedRead';
import { undoCheckpoint, type UndoFiles, type UndoResult } from '../../../engine/turns/undoTurn';
import type { ExtensionLog } from '../logging/extensionLog';
import type { TurnStorage } from './turnStorage';
import * as path from 'node:path';

const editorFiles: UndoFiles = {
  async read(file) {
    const open = vscode.workspace.textDocuments.find((document) => document.uri.fsPath === file);
    if (open) return open.getText();
    return readWorkspaceText(file);
  },
  async write(file, content) {
    const uri = vscode.Uri.file(file);
    const edit = new vscode.WorkspaceEdit();
    if (content === null) {
      edit.deleteFile(uri, { ignoreIfNotExists: true });
      await vscode.workspace.applyEdit(edit);
      return;
    }
    const exists = (await editorFiles.read(file)) !== null;
    if (!exists) {
      edit.createFile(uri, { overwrite: false, contents: new TextEncoder().encode(content) });
      await vscode.workspace.applyEdit(edit);
      return;
    }
    const document = await vscode.workspace.openTextDocument(uri);
    edit.replace(uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`VS Code did not apply the undo to ${file}.`);
    await document.save();
  },
};

export async function undoLastTurn(storage: TurnStorage, log: ExtensionLog): Promise<UndoResult | undefined> {
  const turnId = storage.lastUndoableTurn();
  const stored = turnId ? storage.checkpoints.load(turnId) : undefined;
  if (!turnId || !stored) {
    void vscode.window.showInformationMessage('SharpClaw: no @sharpclaw turn with edits to undo.');
    return undefined;
  }
  const result = await undoCheckpoint(stored, editorFiles);
  storage.checkpoints.markUndone(turnId);
  const name = (file: string) => path.relative(stored.workspaceFolder, file);
  const reverted = `Undid the last @sharpclaw turn: ${result.reverted.length} file${result.reverted.length === 1 ? '' : 's'} reverted.`;
  const left = result.changedSince.length > 0 ? ` Changed since, left as they are: ${result.changedSince.map(name).join(', ')}.` : '';
  log.info(`${reverted}${left}`);
  void (left ? vscode.window.showWarningMessage : vscode.window.showInformationMessage)(`SharpClaw: ${reverted}${left}`);
  return result;
}
