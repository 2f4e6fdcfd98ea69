// The host's server-to-client traffic: evaluation and write authorization requests (answered through
// the PermissionGate of whoever started the host: a one-shot grant of the call the host names, else the
// surface's policy) and load progress notifications.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { PermissionGate } from '../permissions/permissionGate';
import type { PermissionPolicy } from '../permissions/permissionPolicy';
import { AuthorizeEvaluationParamsSchema, LoadProgressSchema, type AuthorizeEvaluationParams, type AuthorizeEvaluationResult, type LoadProgress } from '../protocol/callbacks';
import { AuthorizeWriteParamsSchema, type AuthorizeWriteParams } from '../protocol/edits';
import { Callbacks } from '../protocol/methods';

// The schemas live in the protocol table (protocol/callbacks.ts); re-exported for existing importers.
export { AuthorizeEvaluationParamsSchema, AuthorizeEvaluationResultSchema, LoadProgressSchema } from '../protocol/callbacks';
export type { AuthorizeEvaluationParams, AuthorizeEvaluationResult, LoadProgress } from '../protocol/callbacks';

export const HostCallbackMethods = {
  authorizeEvaluation: Callbacks.authorizeEvaluation.method,
  authorizeWrite: Callbacks.authorizeWrite.method,
  loadProgress: Callbacks.loadProgress.method,
} as const;

/** The part of a JSON-RPC connection (vscode-jsonrpc or vscode-languageclient) we need. */
export interface CallbackConnection {
  onRequest(method: string, handler: (params: unknown) => Promise<unknown>): unknown;
  onNotification(method: string, handler: (params: unknown) => void): unknown;
}

export interface HostCallbackOptions {
  /** Only authorization for this folder (or below it) is answered; anything else is denied. */
  workspaceFolder: string | (() => string | undefined);
  permissions: PermissionPolicy;
  requestedBy: () => string;
  onProgress: (progress: LoadProgress) => void;
  /**
   * VS Code only: applies a granted write itself (WorkspaceEdit), so open editors, unsaved buffers
   * and VS Code's undo stay coherent. Returns false when it cannot (the host then writes); the host
   * checks afterwards that every file got its planned text.
   */
  applyWrite?: (params: AuthorizeWriteParams) => Promise<boolean>;
}

const reasonText: Record<AuthorizeEvaluationParams['reason'], string> = {
  coldLoad: 'the solution is not loaded yet (cold load)',
  structuralChange: 'project, build or restore files changed since the last load',
  dynamicImports: 'the project imports build files through properties or wildcards, which are re-evaluated on every call',
};

function isInside(folder: string, candidate: string): boolean {
  const relative = path.relative(path.resolve(folder), path.resolve(candidate));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

export function registerHostCallbacks(connection: CallbackConnection, options: HostCallbackOptions): void {
  const permissions = PermissionGate.of(options.permissions);
  connection.onRequest(HostCallbackMethods.authorizeEvaluation, async (raw): Promise<AuthorizeEvaluationResult> => {
    const parsed = AuthorizeEvaluationParamsSchema.safeParse(raw);
    if (!parsed.success) return { granted: false, message: `Malformed authorization request: ${parsed.error.message}` };
    const params = parsed.data;
    const folder = typeof options.workspaceFolder === 'function' ? options.workspaceFolder() : options.workspaceFolder;
    if (!folder || !isInside(folder, params.workspace)) {
      return { granted: false, message: `SharpClaw only evaluates projects inside the open workspace; ${params.workspace} is outside it.` };
    }
    // A verification the person approved covers evaluating its own target, for its own call (permissionGate.ts).
    const decision = await permissions.request({
      kind: 'evaluation',
      workspaceFolder: params.workspace,
      target: params.target,
      configuration: params.configuration,
      ...(params.targetFramework ? { targetFramework: params.targetFramework } : {}),
      ...(params.call ? { call: params.call } : {}),
      requestedBy: params.tool ?? options.requestedBy(),
      action: `evaluate ${params.target} with MSBuild (${params.configuration}${params.targetFramework ? `, ${params.targetFramework}` : ''}), which runs code from its project and build files`,
      reason: reasonText[params.reason],
      files: params.changedFiles,
    });
    return { granted: decision.granted, message: decision.granted ? null : (decision.message ?? null) };
  });
  // Every semantic write (apply, undo, redo) goes through the policy's `write` kind; no tool argument can grant it.
  connection.onRequest(HostCallbackMethods.authorizeWrite, async (raw): Promise<AuthorizeEvaluationResult> => {
    const parsed = AuthorizeWriteParamsSchema.safeParse(raw);
    if (!parsed.success) return { granted: false, message: `Malformed write authorization request: ${parsed.error.message}` };
    const params = parsed.data;
    const folder = typeof options.workspaceFolder === 'function' ? options.workspaceFolder() : options.workspaceFolder;
    if (!folder || !isInside(folder, params.workspace)) {
      return { granted: false, message: `SharpClaw only writes inside the open workspace; ${params.workspace} is outside it.` };
    }
    const decision = await permissions.request({
      kind: 'write',
      workspaceFolder: params.workspace,
      ...(params.call ? { call: params.call } : {}),
      contentDigest: plannedTextsDigest(params),
      requestedBy: params.tool ?? options.requestedBy(),
      action: `write ${params.files.length} file${params.files.length === 1 ? '' : 's'} (${params.summary})`,
      reason: `${params.operation} changes C# files checked by the compiler`,
      files: writeFileLines(params),
    });
    if (!decision.granted) return { granted: false, message: decision.message ?? null };
    const appliedByClient = options.applyWrite ? await options.applyWrite(params) : false;
    return { granted: true, message: null, appliedByClient };
  });
  connection.onNotification(HostCallbackMethods.loadProgress, (raw) => {
    const parsed = LoadProgressSchema.safeParse(raw);
    if (parsed.success) options.onProgress(parsed.data);
  });
}

/** The planned change's texts, digested: an approval applies to exactly this change (permissions/fingerprints.ts). */
function plannedTextsDigest(params: AuthorizeWriteParams): string {
  const hash = createHash('sha256');
  hash.update(`${params.operation}\0${params.summary}\n`);
  for (const change of params.changes ?? []) hash.update(`${JSON.stringify(change)}\n`);
  return hash.digest('hex');
}

/** One line per file a write touches, with occurrence counts, for the permission prompt. */
export function writeFileLines(params: AuthorizeWriteParams): string[] {
  return params.files.map((file) =>
    file.newPath ? `${file.path} -> ${file.newPath}` : `${file.path} (${file.occurrences} ${file.occurrences === 1 ? 'occurrence' : 'occurrences'})`,
  );
}
