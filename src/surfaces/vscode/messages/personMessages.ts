// Shows a failure to a person: one sentence in a toast with a "Show Details" action; the full
// text an agent would get (codes, candidates, new errors) goes to the SharpClaw log, where Show
// Details opens it. Expected rejections are logged as one info line, not as errors.
import * as vscode from 'vscode';
import { asToolError } from '../../../engine/errors';
import type { ExtensionLog } from '../logging/extensionLog';
import { isExpectedRejection, personErrorMessage } from './personText';

const showDetails = 'Show Details';

/** `action` names what the person ran ("Load Workspace"); `failure` says what did not happen ("could not load the workspace"). */
export function showPersonError(log: ExtensionLog, action: string, failure: string, error: unknown): void {
  const typed = asToolError(error);
  const expected = isExpectedRejection(typed.code);
  const details = typed.render();
  if (expected) log.info(`${action}: ${details.replace(/\n/g, ' | ')}`);
  else log.error(`${action}: ${details}`);
  const message = personErrorMessage(failure, typed);
  const show = expected ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  void show(message, showDetails).then((choice) => choice === showDetails && log.show());
}
