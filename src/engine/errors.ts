// The one agent-facing error vocabulary: the bridge spec's snake_case codes. Every surface renders a
// ToolError the same way (`error CODE: message`), and JSON carries the code and its details so
// scripts and agents can act on them. The semantic host's kinds are these codes already (one
// snake_case set, protocol/semantic.ts), so a host error keeps its kind (toToolError in host/hostRequester.ts).

import { interruptedLines, type InterruptedEdit } from './protocol/interruptedEdits';
import { hostErrorKinds } from './protocol/semantic';

/** Error codes every surface reports (spec: roslyn-bridge-tools, semantic-service, verification). */
export const toolErrorCodes = [
  /** The host's kinds: target_ambiguous, no_target, permission_denied, load_failed, invalid_request, the symbol and edit codes, timeout, cancelled… */
  ...hostErrorKinds,
  /** The host could not be started or is not running. */
  'host_unavailable',
  /** The host process ended while a request was pending (exit code or signal, and its log, in the message). */
  'host_exited',
  /** A read tool's call was still loading or computing past the surface's wait (MCP); the same call asked again picks it up. */
  'loading',
  /** Anything that is not one of the typed errors above: a bug, reported as such (never as load_failed). */
  'internal_error',
] as const;

export type ToolErrorCode = (typeof toolErrorCodes)[number];

export interface ToolErrorDetails {
  candidates?: string[];
  projects?: Array<{ path: string; reason: string }>;
  command?: string;
  /** Applies an earlier host left unfinished, recovered by the failed request: reported even though it failed. */
  interrupted?: InterruptedEdit[];
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
    // After the error line (agents and the doors read `error CODE:` first): the report this request recovered.
    for (const edit of this.details.interrupted ?? []) lines.push(...interruptedLines(edit));
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
