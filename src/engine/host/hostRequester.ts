// How tools talk to the Roslyn host, whichever surface started it (vscode-languageclient in
// VS Code, vscode-jsonrpc in the CLI and the MCP server).
import { z } from 'zod';
import { SemanticErrorDataSchema } from '../protocol/semantic';
import { ToolError, type ToolErrorCode } from '../errors';

export type { HostRequester } from '../protocol/callHost';

/** The JSON-RPC error code the host uses for its typed errors; `data` follows HostErrorDataSchema. */
export const hostErrorCode = -32001;

export const HostErrorDataSchema = z.object({
  kind: z.string(),
  message: z.string(),
  candidates: z.array(z.string()).nullable().optional(),
  projects: z.array(z.object({ path: z.string(), reason: z.string() })).nullable().optional(),
  command: z.string().nullable().optional(),
  /** ambiguous_symbol / symbol_not_found: candidates an agent can send back unchanged. */
  symbols: z
    .array(z.object({ name: z.string(), kind: z.string(), path: z.string().nullable(), line: z.number().int().nullable(), character: z.number().int().nullable(), needsPath: z.boolean(), text: z.string() }))
    .nullable()
    .optional(),
  /** Edit errors: one line per new error, conflict, residual change or rollback error. */
  details: z.array(z.string()).nullable().optional(),
});

type HostErrorKind = z.infer<typeof SemanticErrorDataSchema>['kind'];

/**
 * The one mapping from the semantic host's error kinds (the protocol's list, drift-checked against the
 * host; its workspace errors are PascalCase) to the agent-facing codes. A kind added to the protocol
 * without a code here fails to compile.
 */
const hostKindCodes: Record<HostErrorKind, ToolErrorCode> = {
  TargetAmbiguous: 'target_ambiguous',
  NoTarget: 'no_target',
  PermissionDenied: 'permission_denied',
  MissingPrerequisites: 'missing_prerequisites',
  LoadFailed: 'load_failed',
  PartialLoad: 'partial_load',
  InvalidRequest: 'invalid_request',
  ambiguous_symbol: 'ambiguous_symbol',
  symbol_not_found: 'symbol_not_found',
  ambiguous_file: 'ambiguous_file',
  stale_edit: 'stale_edit',
  unverified: 'unverified',
  invalid_identifier: 'invalid_identifier',
  rename_conflict: 'rename_conflict',
  new_errors: 'new_errors',
  outside_workspace: 'outside_workspace',
  generated_document: 'generated_document',
  linked_document_conflict: 'linked_document_conflict',
  edit_too_large: 'edit_too_large',
  write_failed: 'write_failed',
  content_changed: 'content_changed',
  nothing_to_undo: 'nothing_to_undo',
  read_only_file: 'read_only_file',
};

/** The agent-facing code of a host error kind; an unknown kind is a bug (internal_error). */
export function codeOfHostKind(kind: string): ToolErrorCode {
  return Object.hasOwn(hostKindCodes, kind) ? hostKindCodes[kind as HostErrorKind] : 'internal_error';
}

/** Turns a JSON-RPC error from the host into a typed ToolError; other errors pass through. */
export function toToolError(error: unknown): unknown {
  const candidate = error as { code?: unknown; data?: unknown; message?: unknown } | undefined;
  if (candidate?.code !== hostErrorCode) return error;
  const data = HostErrorDataSchema.safeParse(candidate.data);
  if (!data.success) return new ToolError('internal_error', String(candidate.message ?? 'The host failed without details.'));
  const kind = codeOfHostKind(data.data.kind);
  // Symbol candidates come as names and as described symbols: each once, in the host's line (names alone would repeat them).
  const symbols = data.data.symbols ?? [];
  const candidates = [...(symbols.length ? symbols.map((candidate) => candidate.text) : (data.data.candidates ?? [])), ...(data.data.details ?? [])];
  return new ToolError(kind, data.data.message, {
    ...(candidates.length ? { candidates } : {}),
    ...(data.data.projects ? { projects: data.data.projects } : {}),
    ...(data.data.command ? { command: data.data.command } : {}),
  });
}
