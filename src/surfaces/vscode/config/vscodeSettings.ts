// Reads sharpclaw.verification.* from VS Code's configuration, layer by layer (user, then
// workspace, then folder), so that an invalid value is reported with its key, value and source
// instead of being silently replaced by a default.
import * as vscode from 'vscode';
import { resolveVerificationSettings, verificationSettingKeys, type SettingsLayer, type VerificationSettings } from '../../../engine/config/verificationSettings';

export function readVerificationSettings(scope?: vscode.Uri): VerificationSettings {
  const configuration = vscode.workspace.getConfiguration('sharpclaw.verification', scope);
  const layers: SettingsLayer[] = [
    { source: 'user settings', values: {} },
    { source: 'workspace settings', values: {} },
    { source: 'folder settings', values: {} },
  ];
  for (const key of verificationSettingKeys) {
    const inspected = configuration.inspect(key);
    layers[0]!.values[key] = inspected?.globalValue;
    layers[1]!.values[key] = inspected?.workspaceValue;
    layers[2]!.values[key] = inspected?.workspaceFolderValue;
  }
  return resolveVerificationSettings(layers);
}
