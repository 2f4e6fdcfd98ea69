// The project's default severity for csharp_diagnostics, from the settings files every surface
// shares (~/.sharpclaw/settings.jsonc, then <workspace>/.sharpclaw/settings.jsonc, which wins):
// {"diagnostics": {"defaultSeverity": "error"}}. A call's own `severity` argument still wins.
import * as os from 'node:os';
import { z } from 'zod';
import { readSettingsSection, userSettingsFile, workspaceSettingsFile } from './settingsFiles';
import { SettingsValidationError } from './verificationSettings';

export const diagnosticSeverities = ['error', 'warning', 'information', 'hint'] as const;
export type DiagnosticSeverity = (typeof diagnosticSeverities)[number];

const DefaultSeveritySchema = z.enum(diagnosticSeverities);

/** The default severity for the workspace: its settings file, else the user's, else warning. */
export function loadDiagnosticsDefaultSeverity(workspaceFolder: string, home = os.homedir()): DiagnosticSeverity {
  let severity: DiagnosticSeverity = 'warning';
  for (const layer of [readSettingsSection(userSettingsFile(home), 'diagnostics'), readSettingsSection(workspaceSettingsFile(workspaceFolder), 'diagnostics')]) {
    for (const [key, value] of Object.entries(layer.values)) {
      if (key !== 'defaultSeverity') throw new SettingsValidationError(`diagnostics.${key}`, value, layer.source, 'one of the keys defaultSeverity');
      const parsed = DefaultSeveritySchema.safeParse(value);
      if (!parsed.success) throw new SettingsValidationError('diagnostics.defaultSeverity', value, layer.source, `one of ${diagnosticSeverities.join(', ')}`);
      severity = parsed.data;
    }
  }
  return severity;
}
