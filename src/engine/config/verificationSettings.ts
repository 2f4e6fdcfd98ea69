// The sharpclaw.verification.* settings: one zod schema is the source of their types, defaults,
// valid ranges, the package.json configuration schema and every validation message.
import { z } from 'zod';
import { ToolError } from '../errors';
import { testSelections } from '../verification/request';

export const verificationScopes = ['build', 'tests', 'all', 'affected'] as const;

export const verificationSettingSchemas = {
  enabled: z.boolean().default(false).describe('Run verification automatically after an agent changes code. Off by default.'),
  scope: z.enum(verificationScopes).default('affected').describe('What automatic verification checks: build, tests, all (build then tests) or affected (the projects owning the changed files and their dependents).'),
  runAfterMutatingTurn: z.boolean().default(true).describe('Verify after each agent turn that recorded a source, project or build-input change (when verification is enabled).'),
  maxRepairIterations: z.number().int().min(0).max(5).default(2).describe('How many times the agent may repair a failed verification (0–5). 2 means one initial check plus at most two repairs and their checks.'),
  allowRestore: z
    .boolean()
    .default(false)
    .describe("Allow `dotnet restore` during verification. Off by default: missing assets are reported as a prerequisite instead. Only your own settings (user settings, ~/.sharpclaw/settings.jsonc) can turn it on; a workspace's settings can only turn it off."),
  timeoutSeconds: z.number().int().min(1).max(3600).default(600).describe('Time limit in seconds for each automatic verification step and for acquiring the workspace lock (1–3600).'),
  testSelection: z
    .enum(testSelections)
    .default('all')
    .describe('Which tests verification runs in the selected test projects: all, or reached (only the tests whose calls reach a changed member; every test, with the reason in the report, when the change is not confined to member bodies).'),
  afterAgentEdits: z
    .boolean()
    .default(false)
    .describe("VS Code: verify the affected projects once edits to C# and project files by agents SharpClaw does not run (such as Copilot's agent mode) have settled. Edits you type yourself do not count. Off by default; the build still asks for your approval."),
  afterAgentEditsDelaySeconds: z.number().int().min(1).max(600).default(10).describe('How long agent edits must be quiet, in seconds, before the check of sharpclaw.verification.afterAgentEdits runs (1–600).'),
} as const;

export type VerificationSettingKey = keyof typeof verificationSettingSchemas;
export const verificationSettingKeys = Object.keys(verificationSettingSchemas) as VerificationSettingKey[];

export const VerificationSettingsSchema = z.object(verificationSettingSchemas);
export type VerificationSettings = z.infer<typeof VerificationSettingsSchema>;

export const defaultVerificationSettings: VerificationSettings = VerificationSettingsSchema.parse({});

/**
 * A setting value (or settings file) that is not valid: names the key, the value, where it came
 * from and what is valid. It is the caller's mistake, so every surface reports it as
 * invalid_request (never internal_error). `message` replaces the sentence for a file that could
 * not be read at all (a FIFO, too large: the bounded reader's words).
 */
export class SettingsValidationError extends ToolError {
  constructor(
    readonly key: string,
    readonly value: unknown,
    readonly source: string,
    readonly valid: string,
    message = `Invalid setting ${key} = ${JSON.stringify(value)} in ${source}: expected ${valid}.`,
  ) {
    super('invalid_request', message);
    this.name = 'SettingsValidationError';
  }
}

/** "an integer from 1 to 3600", "one of build, tests, all, affected", "true or false". */
export function describeValidValues(key: VerificationSettingKey): string {
  const schema = z.toJSONSchema(verificationSettingSchemas[key]) as { type?: string; enum?: string[]; minimum?: number; maximum?: number };
  if (schema.enum) return `one of ${schema.enum.join(', ')}`;
  if (schema.type === 'boolean') return 'true or false';
  if (schema.type === 'integer') return `a whole number from ${schema.minimum} to ${schema.maximum}`;
  return schema.type ?? 'a valid value';
}

/**
 * One layer of settings (user, workspace, a file) as found: only the keys it sets. `owner` says whose
 * it is: the person's own (~/.sharpclaw/settings.jsonc, VS Code user settings, request metadata) or
 * the workspace's (its .sharpclaw/settings.jsonc, VS Code workspace and folder settings), which a
 * repository controls. Without an owner a layer counts as the workspace's.
 */
export type SettingsLayer = { source: string; owner?: 'person' | 'workspace'; values: Partial<Record<string, unknown>> };

/**
 * Merges layers in increasing precedence (later layers win: user, then workspace) over the
 * defaults, validating every value that is set. Unknown keys are errors too: a typo must not
 * silently fall back to a default.
 */
export function resolveVerificationSettings(layers: SettingsLayer[]): VerificationSettings {
  const merged: Record<string, unknown> = { ...defaultVerificationSettings };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer.values)) {
      if (value === undefined) continue;
      if (!(key in verificationSettingSchemas)) {
        throw new SettingsValidationError(`verification.${key}`, value, layer.source, `one of the keys ${verificationSettingKeys.join(', ')}`);
      }
      const typedKey = key as VerificationSettingKey;
      const parsed = verificationSettingSchemas[typedKey].safeParse(value);
      if (!parsed.success) throw new SettingsValidationError(`sharpclaw.verification.${key}`, value, layer.source, describeValidValues(typedKey));
      merged[key] = parsed.data;
    }
  }
  return VerificationSettingsSchema.parse(merged);
}

/** The package.json `contributes.configuration.properties` entries, generated from the schemas. */
export function verificationConfigurationProperties(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    verificationSettingKeys.map((key) => {
      const schema = z.toJSONSchema(verificationSettingSchemas[key], { io: 'input' }) as Record<string, unknown>;
      delete schema.$schema;
      return [`sharpclaw.verification.${key}`, { ...schema, scope: 'resource' }];
    }),
  );
}
