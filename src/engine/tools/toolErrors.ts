// Typed tool errors. Every surface renders them the same way: `error CODE: message`, and JSON
// carries the code and its details so scripts and agents can act on them.

/** Error kinds of the semantic host (spec: semantic-service) and of the bridge tools (spec: roslyn-bridge-tools). */
export type ToolErrorCode =
  | 'TargetAmbiguous'
  | 'NoTarget'
  | 'PermissionDenied'
  | 'MissingPrerequisites'
  | 'LoadFailed'
  | 'PartialLoad'
  | 'InvalidRequest'
  | 'HostUnavailable'
  | 'Cancelled'
  | 'Timeout'
  | 'invalid_request'
  | 'ambiguous_symbol'
  | 'symbol_not_found'
  | 'ambiguous_file'
  | 'stale_edit'
  | 'unverified'
  | 'invalid_identifier'
  | 'rename_conflict'
  | 'new_errors'
  | 'outside_workspace'
  | 'generated_document'
  | 'linked_document_conflict'
  | 'edit_too_large'
  | 'write_failed'
  | 'content_changed'
  | 'nothing_to_undo'
  | 'read_only_file'
  | 'timeout'
  | 'loading';

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

/** Wraps anything thrown into a ToolError without losing a typed one. */
export function asToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  if (error instanceof Error && error.name === 'HostUnavailableError') return new ToolError('HostUnavailable', error.message);
  if (error instanceof Error && /cancel/i.test(error.name + error.message)) return new ToolError('Cancelled', error.message);
  return new ToolError('LoadFailed', error instanceof Error ? error.message : String(error));
}
