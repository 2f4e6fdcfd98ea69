// One host-side permission policy serves every tool and command. What a caller may do is
// decided here, by the person running SharpClaw (a dialog, Workspace Trust, CLI flags typed by
// hand, MCP startup flags) — never by a tool argument, a workspace setting or a workspace file.
// Every request reaches a surface's policy through PermissionGate (permissionGate.ts), which answers
// from a one-shot grant where the person already answered for exactly this call.

export type PermissionKind =
  /** MSBuild evaluation / design-time build: a cold load or a structural reload of the semantic host. */
  | 'evaluation'
  /** Builds and tests: `dotnet build`, `dotnet test`. */
  | 'shell'
  /** Writing files in the workspace. */
  | 'write';

export interface PermissionRequest {
  kind: PermissionKind;
  /** Absolute workspace folder the request is about. */
  workspaceFolder: string;
  /** The solution or project, workspace-relative, when there is one. */
  target?: string;
  /** The tool or command asking, e.g. dotnet_solution_inspect or SharpClaw: Verify Affected. */
  requestedBy: string;
  /** What will run, in a person's words. */
  action: string;
  /** Why it must run now (cold load, a changed project file, ...). */
  reason: string;
  /** Files involved (changed build inputs, files to write). */
  files?: string[];
  /**
   * The tool call the request serves (newCallId: `<surface>-<random>`), echoed by the host in its
   * authorization requests: one-shot grants (grants.ts) answer only requests of the call they name.
   */
  call?: string;
  /** MSBuild configuration and target framework the request runs with, when it names them. */
  configuration?: string;
  targetFramework?: string;
  /** A write: a digest of the planned texts, so an answer applies to exactly this change (fingerprints.ts). */
  contentDigest?: string;
}

export interface PermissionDecision {
  granted: boolean;
  /** Shown to the caller when denied: what to do to allow it. */
  message?: string;
  /** How the decision was reached, for the approval log. */
  source: 'dialog' | 'remembered' | 'restricted-mode' | 'cli-flag' | 'cli-prompt' | 'cli-mode' | 'mcp-flag' | 'mcp-elicitation' | 'grant' | 'policy';
  /**
   * Refused for now, but the surface asks the person once the call has returned (MCP 2026-07-28's
   * input_required): PermissionGate keeps the question, with a nonce, for the call's retry to answer.
   */
  askLater?: boolean;
}

export interface PermissionPolicy {
  request(request: PermissionRequest, signal?: AbortSignal): Promise<PermissionDecision>;
  /**
   * The denial this policy gives for `kind` without asking anyone and whatever the details
   * (read-only mode, Restricted Mode, a terminal that cannot prompt): lets a caller refuse before
   * any process work, even before it knows the target. Undefined: ask with request().
   */
  refusal?(kind: PermissionKind, call?: string): PermissionDecision | undefined;
}

/** The files behind a request, as every surface's question lists them: the first 10, then how many more; undefined when none. */
export function permissionFilesLine(request: PermissionRequest): string | undefined {
  if (!request.files?.length) return undefined;
  return `Files: ${request.files.slice(0, 10).join(', ')}${request.files.length > 10 ? ` and ${request.files.length - 10} more` : ''}`;
}

export function permissionDeniedMessage(request: PermissionRequest, decision: PermissionDecision): string {
  return decision.message ?? `${request.requestedBy} needs permission to ${request.action}${request.target ? ` for ${request.target}` : ''}, and it was denied.`;
}
