// The one agent-facing error vocabulary: the bridge spec's snake_case codes. Every surface renders a
// ToolError the same way (`error CODE: message`), and JSON carries the code and its details so
// scripts and agents can act on them. The semantic host's own kinds (PascalCase for the workspace
// errors) are mapped to these once, at the host boundary (toToolError in host/hostRequester.ts).

import { hostSnakeCaseErrorKinds } from './protocol/semantic';

/** Error codes every surface reports (spec: roslyn-bridge-tools, semantic-service, verification). */
export const toolErrorCodes = [
  /** Several top-level solutions or projects; `candidates` lists them. Pass a target. */
  'target_ambiguous',
  /** No solution or project at the top of the workspace; `candidates` lists nested ones, if any. */
  'no_target',
  /** The person (or the permission mode) did not allow an evaluation, a write or a build. */
  'permission_denied',
  /** A .NET SDK or restore assets are missing; `command` names what to run, when there is one. */
  'missing_prerequisites',
  /** Nothing usable could be loaded; `projects` says why per project when known. */
  'load_failed',
  /** A request needs a project that failed to load. */
  'partial_load',
  /** The request itself is wrong: an unknown or missing argument, a bad value, a target outside the workspace. */
  'invalid_request',
  /** The host could not be started or is not running. */
  'host_unavailable',
  /** The caller cancelled the request. */
  'cancelled',
  /** The request ran out of time. */
  'timeout',
  /** The host process ended while a request was pending (exit code or signal, and its log, in the message). */
  'host_exited',
  /** The host's symbol and edit codes (ambiguous_symbol, stale_edit, new_errors, …). */
  ...hostSnakeCaseErrorKinds,
  'loading',
  /** Anything that is not one of the typed errors above: a bug, reported as such (never as load_failed). */
  'internal_error',
] as const;

export type ToolErrorCode = (typeof toolErrorCodes)[number];

export interface ToolErrorDetails {
  candidates?: string[];
  projects?: Array<{ path: string; reason: string }>;
  command?: string;
}

export class ToolError extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
    readonly details: ToolErrorDetails = {},
  ) {
    super(message);
    this.name = 'ToolError';
  }

  /** The compact text an agent receives. */
  render(): string {
    const lines = [`error ${this.code}: ${this.message}`];
    if (this.details.command) lines.push(`run: ${this.details.command}`);
    for (const candidate of this.details.candidates ?? []) lines.push(`  ${candidate}`);
    for (const project of this.details.projects ?? []) lines.push(`  ${project.path}: ${project.reason}`);
    return lines.join('\n');
  }

  toJSON(): { code: ToolErrorCode; message: string } & ToolErrorDetails {
    return { code: this.code, message: this.message, ...this.details };
  }
}

/** JSON-RPC's "request cancelled" (LSP RequestCancelled), sent back when a pending request is cancelled. */
export const requestCancelledCode = -32800;

/** True for the typed ways cancellation arrives: an aborted signal, a cancelled JSON-RPC request, a cancelled wait. */
export function isCancellation(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // AbortError: an aborted AbortSignal; Canceled: VS Code's CancellationError.
  if (error.name === 'AbortError' || error.name === 'Canceled') return true;
  if ((error as { code?: unknown }).code === requestCancelledCode) return true;
  return (error as { outcome?: unknown }).outcome === 'cancelled';
}

/** Wraps anything thrown into a ToolError without losing a typed one. */
export function asToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  if (error instanceof Error && error.name === 'HostUnavailableError') return new ToolError('host_unavailable', error.message);
  if (isCancellation(error)) return new ToolError('cancelled', (error as Error).message || 'Cancelled.');
  return new ToolError('internal_error', error instanceof Error ? error.message : String(error));
}
