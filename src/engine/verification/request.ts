// The verification request, and the one parser of scope/target/restore/configuration/framework/
// timeout that every surface (CLI, REPL, verify_workspace, the VS Code commands) shares. What a
// caller sends are VerifyArguments (every field optional); config/settings.ts turns them into the
// VerifyRequest the runner runs: the call's own values, else a setting someone set, else the
// explicit-call defaults below.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ToolError } from '../errors';
import { VerificationScopeSchema, scopes } from './report';

export const defaultTimeoutSeconds = 120;
export const maxTimeoutSeconds = 3600;
/** Which tests of the selected test projects run: every one, or those that reach the change (testSelection.ts). */
export const testSelections = ['all', 'reached'] as const;

export const VerifyRequestSchema = z.strictObject({
  scope: VerificationScopeSchema.default('all').describe(
    'build: build the target. tests: run existing test outputs only (never builds). all: build, then test. affected: build and test only the projects that own the changed files and every project that depends on them.',
  ),
  target: z.string().min(1).optional().describe('Workspace-relative .sln, .slnx or project file. Default: the top-level one.'),
  configuration: z.string().regex(/^[A-Za-z0-9_.-]+$/).default('Debug').describe('MSBuild configuration, e.g. Debug or Release.'),
  framework: z.string().regex(/^[A-Za-z0-9_.-]+$/).optional().describe('Target framework to build and test, e.g. net10.0. Default: all of each project.'),
  restore: z.boolean().default(false).describe('Allow NuGet restore. Off by default: missing packages are reported as a prerequisite instead.'),
  timeoutSeconds: z.number().int().min(1).max(maxTimeoutSeconds).default(defaultTimeoutSeconds).describe('Timeout for the lock wait, the evaluation and each build or test process, in seconds.'),
  changedFiles: z.array(z.string().min(1)).optional().describe('affected: the changed files (workspace-relative). Default: Git\'s changes.'),
  testSelection: z.enum(testSelections).default('all').describe('all: every test of the selected test projects. reached: only the tests whose calls reach a changed member (every test when the change is not confined to member bodies).'),
});

export type VerifyRequest = z.infer<typeof VerifyRequestSchema>;

/** What a caller sends (verify_workspace's input, the CLI's flags): unset fields come from the settings, then the defaults. */
export const VerifyArgumentsSchema = z.strictObject({
  scope: VerificationScopeSchema.optional().describe(
    'build; tests (existing test outputs, never builds); all (build, then test); affected (the projects owning the changed files and their dependents). Default: the scope setting, else all.',
  ),
  target: VerifyRequestSchema.shape.target,
  configuration: z.string().regex(/^[A-Za-z0-9_.-]+$/).optional().describe('MSBuild configuration, e.g. Debug or Release. Default: Debug.'),
  framework: VerifyRequestSchema.shape.framework,
  restore: z.boolean().optional().describe("Allow NuGet restore. Default: the person's allowRestore setting, else off (missing packages are reported)."),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(maxTimeoutSeconds)
    .optional()
    .describe(`Seconds for the lock wait, the evaluation and each process. Default: the timeoutSeconds setting, else ${defaultTimeoutSeconds}.`),
  changedFiles: VerifyRequestSchema.shape.changedFiles,
  testSelection: z
    .enum(testSelections)
    .optional()
    .describe('reached: only tests reaching the changed members (else all, saying why). Default: the setting, else all.'),
});

export type VerifyArguments = z.infer<typeof VerifyArgumentsSchema>;
export type VerifyRequestInput = z.input<typeof VerifyRequestSchema>;

/** Raw option values as a command line or a REPL line produces them. */
export interface RawVerifyOptions {
  scope?: unknown;
  target?: unknown;
  configuration?: unknown;
  framework?: unknown;
  restore?: unknown;
  timeout?: unknown;
  changed?: unknown;
  tests?: unknown;
}

export function parseVerifyOptions(raw: RawVerifyOptions): VerifyArguments {
  if (raw.scope !== undefined && !scopes.includes(raw.scope as never)) {
    throw new ToolError('invalid_request', `--scope must be one of ${scopes.join(', ')}, not "${String(raw.scope)}".`);
  }
  let timeoutSeconds: number | undefined;
  if (raw.timeout !== undefined) {
    timeoutSeconds = Number(raw.timeout);
    if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > maxTimeoutSeconds) {
      throw new ToolError('invalid_request', `--timeout must be a whole number of seconds from 1 to ${maxTimeoutSeconds}, not "${String(raw.timeout)}".`);
    }
  }
  if (raw.tests !== undefined && !testSelections.includes(raw.tests as never)) {
    throw new ToolError('invalid_request', `--tests must be one of ${testSelections.join(', ')}, not "${String(raw.tests)}".`);
  }
  const changed = raw.changed === undefined ? undefined : (Array.isArray(raw.changed) ? raw.changed : [raw.changed]).map(String);
  const parsed = VerifyArgumentsSchema.safeParse({
    ...(raw.scope !== undefined ? { scope: raw.scope } : {}),
    ...(raw.target !== undefined ? { target: raw.target } : {}),
    ...(raw.configuration !== undefined ? { configuration: raw.configuration } : {}),
    ...(raw.framework !== undefined ? { framework: raw.framework } : {}),
    ...(raw.restore !== undefined ? { restore: raw.restore === true } : {}),
    ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
    ...(changed ? { changedFiles: changed } : {}),
    ...(raw.tests !== undefined ? { testSelection: raw.tests } : {}),
  });
  if (!parsed.success) {
    throw new ToolError('invalid_request', parsed.error.issues.map((issue) => `${issue.path.join('.') || 'request'}: ${issue.message}`).join('; '));
  }
  return parsed.data;
}

/** The verify options in node:util parseArgs form: the CLI's `verify` and the chat's `/verify` both parse with these. */
export const verifyOptionSpecs = {
  scope: { type: 'string' },
  target: { type: 'string' },
  configuration: { type: 'string' },
  framework: { type: 'string' },
  restore: { type: 'boolean' },
  timeout: { type: 'string' },
  changed: { type: 'string', multiple: true },
  tests: { type: 'string' },
} as const;

/** Splits a typed line into words, honouring "double" and 'single' quotes (for paths with spaces). */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

/** `/verify --scope affected --timeout 60` (the words after the command): the same parsing as `sharpclaw verify`. */
export function parseVerifyCommandLine(args: readonly string[]): VerifyArguments {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args: [...args], options: verifyOptionSpecs, allowPositionals: false, strict: true }));
  } catch (error) {
    throw new ToolError('invalid_request', error instanceof Error ? error.message : String(error));
  }
  return parseVerifyOptions(values);
}
