// Reads sharpclaw.verification.* from VS Code's configuration, layer by layer (user, then
// workspace, then folder), for the one resolver (engine/config/settings.ts), so that an invalid
// value is reported with its key, value and source instead of being silently replaced by a default.
import * as vscode from 'vscode';
import { resolveVerification, type ResolvedVerificationSettings } from '../../../engine/config/settings';
import { verificationSettingKeys, type SettingsLayer } from '../../../engine/config/verificationSettings';

/** VS Code's layers of sharpclaw.verification.*, lowest first (only the keys each one sets). */
export function vscodeVerificationLayers(scope?: vscode.Uri): SettingsLayer[] {
  const configuration = vscode.workspace.getConfiguration('sharpclaw.verification', scope);
  const layers: SettingsLayer[] = [
    { source: 'user settings', owner: 'person', values: {} },
    { source: 'workspace settings', owner: 'workspace', values: {} },
    { source: 'folder settings', owner: 'workspace', values: {} },
  ];
  for (const key of verificationSettingKeys) {
    const inspected = configuration.inspect(key);
    layers[0]!.values[key] = inspected?.globalValue;
    layers[1]!.values[key] = inspected?.workspaceValue;
    layers[2]!.values[key] = inspected?.workspaceFolderValue;
  }
  return layers;
}

/** Every layer a verification in this window sees: the JSONC files, then VS Code's settings. */
export function readVerificationSettings(workspaceFolder: string, scope?: vscode.Uri): ResolvedVerificationSettings {
  return resolveVerification({ workspaceFolder, editorLayers: vscodeVerificationLayers(scope) });
}
