// How tools talk to the Roslyn host, whichever surface started it (vscode-languageclient in
// VS Code, vscode-jsonrpc in the CLI and the MCP server).
import { SemanticErrorDataSchema } from '../protocol/semantic';
import { ToolError } from '../errors';

export type { HostRequester } from '../protocol/callHost';

/** The JSON-RPC error code the host uses for its typed errors; `data` follows the protocol's SemanticErrorDataSchema. */
export const hostErrorCode = -32001;

/**
 * Turns a JSON-RPC error from the host into a typed ToolError; other errors pass through. The data is read
 * with the protocol's own schema (drift-checked against the host): its kind is already the agent-facing code,
 * and data that does not fit (an unknown kind, a missing field) is a bug, reported as internal_error.
 */
export function toToolError(error: unknown): unknown {
  const candidate = error as { code?: unknown; data?: unknown; message?: unknown } | undefined;
  if (candidate?.code !== hostErrorCode) return error;
  const data = SemanticErrorDataSchema.safeParse(candidate.data);
  if (!data.success) return new ToolError('internal_error', String(candidate.message ?? 'The host failed without details.'));
  // Symbol candidates come as names and as described symbols: each once, in the host's line (names alone would repeat them).
  const symbols = data.data.symbols ?? [];
  const candidates = [...(symbols.length ? symbols.map((symbol) => symbol.text) : (data.data.candidates ?? [])), ...(data.data.details ?? [])];
  return new ToolError(data.data.kind, data.data.message, {
    ...(candidates.length ? { candidates } : {}),
    ...(data.data.projects ? { projects: data.data.projects } : {}),
    ...(data.data.command ? { command: data.data.command } : {}),
    ...(data.data.interrupted?.length ? { interrupted: data.data.interrupted } : {}),
  });
}
