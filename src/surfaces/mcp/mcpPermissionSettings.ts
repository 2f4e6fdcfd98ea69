// The MCP server's permissions from the person's own settings: the "mcp" section of the USER file
// ~/.sharpclaw/settings.jsonc, the same grants as the flags ({"mcp": {"allowEvaluation": true,
// "allowWrite": false, "allowShell": false}}). This is the one place a settings file may grant,
// and only the user's: the workspace file (.sharpclaw/settings.jsonc in the project) is never read
// here, since whoever wrote the project must not decide what runs on the person's machine.
import { ToolError } from '../../engine/errors';
import { readSettingsSection, userSettingsFile } from '../../engine/config/settingsFiles';
import { SettingsValidationError } from '../../engine/config/verificationSettings';

export interface McpPermissionSettings {
  allowEvaluation: boolean;
  allowWrite: boolean;
  allowShell: boolean;
}

const keys = ['allowEvaluation', 'allowWrite', 'allowShell'] as const;

/** Reads the user's grants; a broken file or value is invalid_request naming the key and the file. */
export function readMcpPermissionSettings(home?: string): McpPermissionSettings & { source: string } {
  const file = userSettingsFile(home);
  // A broken file is a SettingsValidationError: invalid_request naming the file.
  const values: Record<string, unknown> = readSettingsSection(file, 'mcp').values;
  const unknown = Object.keys(values).filter((key) => !(keys as readonly string[]).includes(key));
  if (unknown.length > 0) throw new ToolError('invalid_request', `Unknown setting mcp.${unknown[0]} in ${file}: the mcp section takes ${keys.join(', ')}.`);
  const settings = { allowEvaluation: false, allowWrite: false, allowShell: false, source: file };
  for (const key of keys) {
    const value = values[key];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw new SettingsValidationError(`mcp.${key}`, value, file, 'true or false');
    settings[key] = value;
  }
  return settings;
}
