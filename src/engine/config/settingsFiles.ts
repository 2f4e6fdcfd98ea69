// The settings files every surface reads (through config/settings.ts, the one resolver): ~/.sharpclaw/settings.jsonc (user) and
// <workspace>/.sharpclaw/settings.jsonc (workspace, which wins). JSON with comments, shaped
// like {"verification": {"enabled": true, "timeoutSeconds": 600}}. Settings configure behaviour;
// they can never grant a permission. Read through the bounded reader: a FIFO, a device or a file
// over 1 MiB is a SettingsValidationError naming the file (invalid_request), never a hang.
import * as os from 'node:os';
import * as path from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { FileReadError, configFileMaxBytes, readBoundedText } from '../files/boundedRead';
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
  let text: string | undefined;
  try {
    text = readBoundedText(file, { maxBytes: configFileMaxBytes, what: 'settings' });
  } catch (error) {
    if (error instanceof FileReadError) throw new SettingsValidationError('(file)', undefined, file, 'a regular file of at most 1 MiB', error.message);
    throw error;
  }
  if (text === undefined) return { source: file, values: {} };
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
