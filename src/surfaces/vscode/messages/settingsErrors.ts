// Reports an invalid sharpclaw.verification.* value with its key, value and valid range: in the
// log, and in a toast that opens the setting.
import * as vscode from 'vscode';
import { SettingsValidationError } from '../../../engine/config/verificationSettings';
import { readVerificationSettings } from '../config/vscodeSettings';
import type { ExtensionLog } from '../logging/extensionLog';

export function reportInvalidSettings(log: ExtensionLog): void {
  try {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder) readVerificationSettings(folder.uri.fsPath, folder.uri);
  } catch (error) {
    if (!(error instanceof SettingsValidationError)) throw error;
    log.error(error.message);
    void vscode.window.showErrorMessage(`SharpClaw: ${error.message}`, 'Open Settings').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', error.key);
    });
  }
}
