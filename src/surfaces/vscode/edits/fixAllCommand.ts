// SharpClaw: Fix All in Project or Solution (compiler-checked)… — a person's way to the fix-all that
// agents reach through csharp_edit code_actions. The host lists the code actions of one diagnostic
// (Roslyn's fixers; one "Fix All: <fix> (<scope>)" entry per scope), plans the chosen fix-all and
// checks it with the compiler; the plan opens in VS Code's Refactor Preview like a rename, and only
// what the person applies is written (WorkspaceEdit), then recorded for SharpClaw: Undo Last Edit.
// No rule lives here: which fixes exist, the checks and the refusals are the host's.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostRequester } from '../../../engine/host/hostRequester';
import { callHost } from '../../../engine/protocol/callHost';
import { Methods } from '../../../engine/protocol/methods';
import type { ExtensionLog } from '../logging/extensionLog';
import { count } from '../messages/personText';
import { withQuietProgress } from '../messages/quietProgress';
import type { EditJournal } from './editJournal';
import { diagnosticCode, type FixAllRequest, type FixAllScope } from './fixAllCodeActions';
import { applyInRefactorPreview, plannedChanges, reportEditFailure, unticked } from './refactorPreview';

export interface FixAllCommandDependencies {
  host: HostRequester;
  workspaceFolder(): string | undefined;
  journal: EditJournal;
  log: ExtensionLog;
}

const tool = 'SharpClaw: Fix All';

/** The host's name of a scope in its fix-all titles ("Fix All: Remove unused variable (Project)"). */
const hostScope: Record<FixAllScope, string> = { project: 'Project', solution: 'Solution' };

/** From the command palette: the diagnostic under the cursor and a scope the person picks. */
async function askForRequest(): Promise<FixAllRequest | undefined> {
  const editor = vscode.window.activeTextEditor;
  const diagnostics = editor && editor.document.languageId === 'csharp'
    ? vscode.languages.getDiagnostics(editor.document.uri).filter((d) => diagnosticCode(d) && d.range.contains(editor.selection.active))
    : [];
  const diagnostic = diagnostics[0];
  if (!editor || !diagnostic) {
    void vscode.window.showInformationMessage('SharpClaw: put the cursor on a C# compiler or analyzer diagnostic (CS…, IDE…) first, or choose Fix all … from its quick fixes in the Problems panel.');
    return undefined;
  }
  const code = diagnosticCode(diagnostic)!;
  const picked = await vscode.window.showQuickPick(
    [
      { label: `Fix all ${code} in this project`, scope: 'project' as const },
      { label: `Fix all ${code} in the solution`, scope: 'solution' as const },
    ],
    { title: `SharpClaw: Fix All ${code} (compiler-checked)`, placeHolder: diagnostic.message },
  );
  return picked ? { uri: editor.document.uri.toString(), code, line: diagnostic.range.start.line + 1, scope: picked.scope } : undefined;
}

function isRequest(value: unknown): value is FixAllRequest {
  const request = value as Partial<FixAllRequest> | undefined;
  return typeof request?.uri === 'string' && typeof request.code === 'string' && typeof request.line === 'number' && (request.scope === 'project' || request.scope === 'solution');
}

export async function fixAll(dependencies: FixAllCommandDependencies, argument?: unknown): Promise<boolean> {
  const { host, journal, log } = dependencies;
  const workspaceFolder = dependencies.workspaceFolder();
  if (!workspaceFolder) {
    void vscode.window.showErrorMessage('SharpClaw: open a folder that contains a .NET solution or project first.');
    return false;
  }
  const request = isRequest(argument) ? argument : await askForRequest();
  if (!request) return false;
  const file = vscode.Uri.parse(request.uri).fsPath;
  const relative = path.relative(workspaceFolder, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    void vscode.window.showWarningMessage(`SharpClaw: ${vscode.workspace.asRelativePath(file)} is outside the workspace folder; SharpClaw fixes only the workspace's files.`);
    return false;
  }
  const where = request.scope === 'project' ? 'the project' : 'the solution';

  try {
    const base = { workspace: workspaceFolder, tool, path: relative.split(path.sep).join('/') };
    const listing = await withQuietProgress(`SharpClaw: finding the fixes for ${request.code}`, (signal) =>
      callHost(host, Methods.edit, { ...base, action: 'code_actions', diagnostic: request.code, line: request.line }, signal),
    );
    const suffix = ` (${hostScope[request.scope]})`;
    const fixes = (listing.actions ?? []).filter((action) => !action.hidden && action.title.startsWith('Fix All: ') && action.title.endsWith(suffix));
    if (fixes.length === 0 || !listing.proposalId) {
      void vscode.window.showInformationMessage(`SharpClaw: Roslyn has no fix that applies to every ${request.code} in ${where}; nothing was changed.`);
      return false;
    }
    const fixTitle = (title: string) => title.slice('Fix All: '.length, -suffix.length);
    const chosen = fixes.length === 1
      ? fixes[0]!
      : (await vscode.window.showQuickPick(fixes.map((action) => ({ label: fixTitle(action.title), action })), { title: `SharpClaw: Fix all ${request.code} in ${where} — which fix?` }))?.action;
    if (!chosen) return false;
    const fix = fixTitle(chosen.title);

    const preview = await withQuietProgress(`SharpClaw: planning "${fix}" for every ${request.code} in ${where}`, (signal) =>
      callHost(host, Methods.edit, { ...base, action: 'code_actions', proposalId: listing.proposalId, actionIndex: chosen.index, includeTexts: true }, signal),
    );
    if (preview.cannotApply) {
      log.warn(`Fix All ${request.code}: ${preview.cannotApply}${preview.cannotApplyDetails?.length ? `\n${preview.cannotApplyDetails.join('\n')}` : ''}`);
      void vscode.window.showWarningMessage(`SharpClaw did not fix ${request.code}: ${preview.cannotApply}`);
      return false;
    }
    const changes = plannedChanges(workspaceFolder, preview);
    if (changes.length === 0) {
      void vscode.window.showInformationMessage(`SharpClaw: "${fix}" changes nothing in ${where}.`);
      return false;
    }
    // The host returns a preview only when the compiler found no new errors in the result.
    const label = `${fix}: every ${request.code} in ${where} (compiler-checked: no new errors)`;
    const verdict = `SharpClaw: "${fix}" for every ${request.code} in ${where} changes ${count(changes.length, 'file')}; compiler-checked: no new errors. In the Refactor Preview, tick the files to change and choose Apply.`;
    const applied = await applyInRefactorPreview(changes, { label, verdict });
    if (applied.length === 0) {
      void vscode.window.showInformationMessage(`SharpClaw: nothing was written: no files were selected in the Refactor Preview (or it was discarded). To fix ${request.code}, run it again, tick the files and choose Apply.`);
      return false;
    }
    journal.record({ kind: 'editor', label: `${fix} (${request.code}, ${where})`, changes: applied });
    log.info(`Fix All ${request.code} in ${where}: "${fix}" applied to ${applied.length} of ${changes.length} files.`);
    if (applied.length < changes.length) {
      const skipped = unticked(changes, applied);
      void vscode.window.showWarningMessage(`SharpClaw applied "${fix}" to ${applied.length} of ${changes.length} files; ${skipped.join(', ')} keep${skipped.length === 1 ? 's' : ''} ${request.code}. Only the whole fix was compiler-checked. SharpClaw: Undo Last Edit reverts it.`);
      return true;
    }
    void vscode.window.showInformationMessage(`SharpClaw applied "${fix}" to every ${request.code} in ${where}: ${count(applied.length, 'file')} changed.`);
    return true;
  } catch (error) {
    reportEditFailure(log, 'Fix All', `did not fix ${request.code}`, error);
    return false;
  }
}
