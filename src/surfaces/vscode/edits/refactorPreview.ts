// Shows a host-planned, compiler-checked edit in VS Code's Refactor Preview and applies what the person
// ticks: the one preview path of a person's edits (Rename Symbol…, Fix All…). The host's preview texts
// become whole-file changes; the verdict stays beside the preview in a progress notification that
// closes with it, so no toast is left behind; a failure is said the same way for each.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EditResult } from '../../../engine/protocol/edits';
import type { ExtensionLog } from '../logging/extensionLog';
import { showPersonError } from '../messages/personMessages';
import { applyPlannedChanges, FileChangedError, type PlannedFileChange } from './fileChanges';

/** The whole-file changes of a host preview asked for with includeTexts. */
export function plannedChanges(workspaceFolder: string, preview: EditResult): PlannedFileChange[] {
  return (preview.files ?? []).map((file) => ({
    uri: vscode.Uri.file(path.join(workspaceFolder, file.path)),
    before: file.before,
    after: file.after,
    description: `${file.occurrences} occurrence${file.occurrences === 1 ? '' : 's'}`,
  }));
}

/**
 * Opens the Refactor Preview (VS Code starts an extension's preview entries unticked:
 * WorkspaceEditEntryMetadata.needsConfirmation) with `verdict` shown beside it, and returns the
 * changes the person applied: none when they discarded it or applied nothing ticked.
 */
export function applyInRefactorPreview(changes: readonly PlannedFileChange[], options: { label: string; verdict: string }): Promise<PlannedFileChange[]> {
  return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: options.verdict }, () => applyPlannedChanges(changes, { label: options.label, preview: true })));
}

/** The workspace-relative files of `changes` the person left unticked (only the whole edit was compiler-checked). */
export function unticked(changes: readonly PlannedFileChange[], applied: readonly PlannedFileChange[]): string[] {
  return changes.filter((change) => !applied.includes(change)).map((change) => vscode.workspace.asRelativePath(change.uri));
}

/**
 * Says why a person's edit wrote nothing: a file changed since the plan (a warning in its own words: their
 * text is kept), or the host's error in one sentence with Show Details.
 */
export function reportEditFailure(log: ExtensionLog, action: string, failure: string, error: unknown): void {
  if (error instanceof FileChangedError) {
    log.info(`${action}: ${error.message}`);
    void vscode.window.showWarningMessage(`SharpClaw: ${error.message}`);
  } else {
    showPersonError(log, action, failure, error);
  }
}
