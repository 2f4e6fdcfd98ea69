// The settings files every surface reads (through config/settings.ts, the one resolver): ~/.sharpclaw/settings.jsonc (user) and
// <workspace>/.sharpclaw/settings.jsonc (workspace, which wins). JSON with comments, shaped
// like {"verification": {"enabled": true, "timeoutSeconds": 600}}. Settings configure behaviour;
// they can never grant a permission.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { SettingsValidationError, type SettingsLayer } from './verificationSettings';

export function userSettingsFile(home = os.homedir()): string {
  return path.join(home, '.sharpclaw', 'settings.jsonc');
}

export function workspaceSettingsFile(workspaceFolder: string): string {
  return path.join(workspaceFolder, '.sharpclaw', 'settings.jsonc');
}

/** Reads one settings file's verification section; a missing file is an empty layer. */
export function readSettingsLayer(file: string): SettingsLayer {
  return readSettingsSection(file, 'verification');
}

/** Reads one section ("verification", "diagnostics") of a settings file; a missing file or section is an empty layer. */
export function readSettingsSection(file: string, section: string): SettingsLayer {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { source: file, values: {} };
    throw error;
  }
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const line = text.slice(0, first.offset).split('\n').length;
    throw new SettingsValidationError('(file)', undefined, file, `valid JSON with comments (${printParseErrorCode(first.error)} at line ${line})`);
  }
  if (root === undefined) return { source: file, values: {} };
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new SettingsValidationError('(file)', root, file, `an object such as {"${section}": {...}}`);
  }
  const values = (root as Record<string, unknown>)[section];
  if (values === undefined) return { source: file, values: {} };
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new SettingsValidationError(section, values, file, `an object of sharpclaw.${section} settings`);
  }
  return { source: file, values: values as Record<string, unknown> };
}
