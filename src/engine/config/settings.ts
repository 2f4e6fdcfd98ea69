// The one layered resolver of SharpClaw's settings, read by every surface. Layers, lowest first:
// the defaults; the user's JSONC (~/.sharpclaw/settings.jsonc); the workspace's JSONC
// (<workspace>/.sharpclaw/settings.jsonc; workspace fields override user fields); the editor's
// layers (VS Code: sharpclaw.verification.* in user, workspace, folder settings); and last the
// request metadata (`sharpclaw.verification.<key>` entries of one request). Every value is
// validated where it is found. Settings configure behaviour; they never grant a permission. Restore
// (NuGet fetching packages, whose build files then run) is the person's to allow: allowRestore
// counts only from the person's own layers; a workspace's layer may turn it off, never on.
import * as os from 'node:os';
import { VerifyRequestSchema, defaultTimeoutSeconds, type VerifyArguments, type VerifyRequest } from '../verification/request';
import { readSettingsLayer, userSettingsFile, workspaceSettingsFile } from './settingsFiles';
import { resolveVerificationSettings, verificationSettingKeys, type SettingsLayer, type VerificationSettingKey, type VerificationSettings } from './verificationSettings';

export interface SettingsSources {
  workspaceFolder: string;
  /** The home folder that holds ~/.sharpclaw/settings.jsonc (default: os.homedir()). */
  home?: string;
  /** The editor's layers in increasing precedence (VS Code: user, workspace, folder); they win over the JSONC files. */
  editorLayers?: SettingsLayer[];
  /** One request's metadata; its `sharpclaw.verification.<key>` entries win over every other layer. */
  metadata?: Record<string, unknown>;
}

export interface ResolvedVerificationSettings {
  /** Every setting, defaults filled in: what automatic verification uses. */
  values: VerificationSettings;
  /** The keys some layer set (not just defaulted): only these change an explicit verify call. */
  explicit: ReadonlySet<VerificationSettingKey>;
  /** What was set but not taken (a workspace's allowRestore: true), in words for the report. */
  notes: string[];
}

const metadataPrefix = 'sharpclaw.verification.';

/** The metadata entries `sharpclaw.verification.<key>` as a layer (other metadata is not ours). */
export function metadataLayer(metadata: Record<string, unknown> | undefined): SettingsLayer {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata ?? {})) if (key.startsWith(metadataPrefix)) values[key.slice(metadataPrefix.length)] = value;
  return { source: 'request metadata', owner: 'person', values };
}

/** The layers in precedence order, lowest first (without the defaults). */
export function verificationLayers(sources: SettingsSources): SettingsLayer[] {
  const home = sources.home ?? os.homedir();
  return [
    { ...readSettingsLayer(userSettingsFile(home)), owner: 'person' },
    { ...readSettingsLayer(workspaceSettingsFile(sources.workspaceFolder)), owner: 'workspace' },
    ...(sources.editorLayers ?? []),
    metadataLayer(sources.metadata),
  ];
}

/** The layers with a workspace's allowRestore: true taken out (after its value was validated), and what was taken. */
function withoutWorkspaceRestore(layers: SettingsLayer[]): { layers: SettingsLayer[]; notes: string[] } {
  const notes: string[] = [];
  const kept = layers.map((layer) => {
    if (layer.owner === 'person' || layer.values.allowRestore !== true) return layer;
    notes.push(`${layer.source} sets verification.allowRestore, which only your own settings (~/.sharpclaw/settings.jsonc, VS Code user settings) or --restore can: restore stays off.`);
    return { ...layer, values: { ...layer.values, allowRestore: undefined } };
  });
  return { layers: kept, notes };
}

export function resolveVerification(sources: SettingsSources): ResolvedVerificationSettings {
  const { layers, notes } = withoutWorkspaceRestore(verificationLayers(sources));
  const explicit = new Set<VerificationSettingKey>();
  for (const layer of layers) for (const [key, value] of Object.entries(layer.values)) if (value !== undefined && (verificationSettingKeys as string[]).includes(key)) explicit.add(key as VerificationSettingKey);
  return { values: resolveVerificationSettings(layers), explicit, notes };
}

/**
 * The request an explicit verify call (the CLI's verify, verify_workspace, the VS Code commands)
 * runs: the call's own arguments; else a setting some layer set (scope, allowRestore,
 * timeoutSeconds); else the explicit-call defaults: scope all, restore off and the 120-second
 * timeout ("explicit verify calls retain their 120-second default unless overridden" — the 600 s
 * default of the timeoutSeconds setting is for automatic checks).
 */
export function resolveVerifyRequest(args: VerifyArguments, settings?: ResolvedVerificationSettings): VerifyRequest {
  const set = <K extends VerificationSettingKey>(key: K): VerificationSettings[K] | undefined => (settings?.explicit.has(key) ? settings.values[key] : undefined);
  return VerifyRequestSchema.parse({
    ...args,
    scope: args.scope ?? set('scope') ?? 'all',
    restore: args.restore ?? set('allowRestore') ?? false,
    timeoutSeconds: args.timeoutSeconds ?? set('timeoutSeconds') ?? defaultTimeoutSeconds,
    testSelection: args.testSelection ?? set('testSelection') ?? 'all',
  });
}

/**
 * The request an automatic check runs (after an agent turn, after another agent's edits): the
 * call's own arguments, else the settings with their defaults filled in — the configured scope,
 * allowRestore and the automatic timeout (600 s by default) per step and for the lock.
 */
export function resolveAutomaticVerifyRequest(args: VerifyArguments, settings: VerificationSettings): VerifyRequest {
  return VerifyRequestSchema.parse({
    ...args,
    scope: args.scope ?? settings.scope,
    restore: args.restore ?? settings.allowRestore,
    timeoutSeconds: args.timeoutSeconds ?? settings.timeoutSeconds,
    testSelection: args.testSelection ?? settings.testSelection,
  });
}
