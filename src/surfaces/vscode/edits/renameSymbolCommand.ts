// SharpClaw: Rename Symbol… — a person renames the symbol under the cursor (or one they name):
// the host plans and validates the complete solution edit, VS Code's refactor preview shows it as
// a diff with the validation verdict, and only what the person applies is written (through
// WorkspaceEdit, so open editors and VS Code's undo stay coherent), then recorded for
// SharpClaw: Undo Last Edit.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostRequester } from '../../../engine/host/hostRequester';
import { callHost } from '../../../engine/protocol/callHost';
import { Methods } from '../../../engine/protocol/methods';
import type { ExtensionLog } from '../logging/extensionLog';
import { count } from '../messages/personText';
import { withQuietProgress } from '../messages/quietProgress';
import type { EditJournal } from './editJournal';
import { applyInRefactorPreview, plannedChanges, reportEditFailure, unticked } from './refactorPreview';

export interface RenameCommandDependencies {
  host: HostRequester;
  workspaceFolder(): string | undefined;
  journal: EditJournal;
  log: ExtensionLog;
}

/** C# identifiers (a leading @ allows keywords); the host checks exactly, this only catches typos early. */
const identifier = /^@?[\p{L}_][\p{L}\p{Mn}\p{Mc}\p{Nd}\p{Pc}\p{Cf}]*$/u;

/** The selector for the symbol under the cursor, or one the person types. */
async function pickSymbol(workspaceFolder: string): Promise<{ path: string; line: number; character: number } | { name: string } | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document.languageId === 'csharp' && editor.document.uri.scheme === 'file') {
    const relative = path.relative(workspaceFolder, editor.document.uri.fsPath);
    if (!relative.startsWith('..') && !path.isAbsolute(relative)) {
      const position = editor.selection.active;
      // The host counts characters in UTF-16 code units like VS Code does, but one-based.
      return { path: relative.split(path.sep).join('/'), line: position.line + 1, character: position.character + 1 };
    }
  }
  const name = await vscode.window.showInputBox({
    title: 'SharpClaw: Rename Symbol',
    prompt: 'Symbol to rename, e.g. Calculator.Add or Calculator.Add(double, double)',
    ignoreFocusOut: true,
  });
  return name ? { name } : undefined;
}

export async function renameSymbol(dependencies: RenameCommandDependencies): Promise<boolean> {
  const { host, journal, log } = dependencies;
  const workspaceFolder = dependencies.workspaceFolder();
  if (!workspaceFolder) {
    void vscode.window.showErrorMessage('SharpClaw: open a folder that contains a .NET solution or project first.');
    return false;
  }
  const selector = await pickSymbol(workspaceFolder);
  if (!selector) return false;

  try {
    const base = { workspace: workspaceFolder, tool: 'SharpClaw: Rename Symbol', ...selector };
    const resolved = await withQuietProgress('SharpClaw: finding the symbol', (signal) => callHost(host, Methods.symbolResolve, base, signal));
    const symbol = resolved.symbol;
    const shortName = symbol.name.replace(/\(.*$/, '').split('.').at(-1)!.replace(/<.*$/, '');
    const newName = await vscode.window.showInputBox({
      title: `Rename ${symbol.kind} ${symbol.name}`,
      value: shortName,
      valueSelection: [0, shortName.length],
      prompt: 'New name. The rename is checked by the compiler before anything is written.',
      ignoreFocusOut: true,
      validateInput: (value) => (identifier.test(value) ? undefined : `${value || 'An empty name'} is not a C# identifier.`),
    });
    if (!newName || newName === shortName) return false;

    const preview = await withQuietProgress(`SharpClaw: planning the rename to ${newName}`, (signal) =>
      callHost(host, Methods.edit, { ...base, action: 'rename', newName, includeTexts: true }, signal),
    );
    const changes = plannedChanges(workspaceFolder, preview);
    // The host returns a preview only when validation passed: no new compiler errors, no conflicts.
    const label = `Rename ${shortName} to ${newName} (compiler-checked: no new errors)`;
    // VS Code's refactor preview starts every file unticked when an extension asks for a preview: say so.
    const verdict = `SharpClaw: renaming ${shortName} to ${newName} changes ${count(changes.length, 'file')}; compiler-checked: no new errors, no conflicts. In the Refactor Preview, tick the files to change and choose Apply.`;
    const applied = await applyInRefactorPreview(changes, { label, verdict });
    if (applied.length === 0) {
      // VS Code reports a discarded preview and an Apply with no file ticked the same way.
      void vscode.window.showInformationMessage(
        'SharpClaw: nothing was written: no files were selected in the Refactor Preview (or it was discarded). To rename, run it again, tick the files to change in the Refactor Preview and choose Apply.',
      );
      return false;
    }
    journal.record({ kind: 'editor', label: `Rename ${shortName} to ${newName}`, changes: applied });
    log.info(`Renamed ${symbol.name} to ${newName} in ${applied.length} of ${changes.length} files.`);
    if (applied.length < changes.length) {
      // Only the whole edit was checked by the compiler; a part of it may not build.
      const skipped = unticked(changes, applied);
      void vscode.window.showWarningMessage(
        `SharpClaw renamed ${shortName} to ${newName} in ${applied.length} of ${changes.length} files; ${skipped.join(', ')} still use${skipped.length === 1 ? 's' : ''} the old name, so the code may not compile. SharpClaw: Undo Last Edit reverts it.`,
      );
      return true;
    }
    void vscode.window.showInformationMessage(`SharpClaw renamed ${shortName} to ${newName} in ${count(applied.length, 'file')}.`);
    return true;
  } catch (error) {
    reportEditFailure(log, 'Rename Symbol', 'did not rename', error);
    return false;
  }
}
