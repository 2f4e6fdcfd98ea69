// The MCP server's permission policy: what the person granted when configuring the server (the
// flags, or their ~/.sharpclaw/settings.jsonc) decides first; where nothing was granted and the
// client supports elicitation, the person is asked through the client ("Allow once" / "Deny",
// the 2025 era's server-initiated elicitation/create, or an input_required result in the 2026-07-28
// era, mcpInputRequired.ts); otherwise the refusal names the flag to set.
// Nothing an agent sends can grant: tool arguments never reach this policy, and the answer comes
// from the client's own prompt to the person. --permission-mode read-only refuses without asking.
import type { McpServer } from '@modelcontextprotocol/server';
import type { PermissionDecision, PermissionKind, PermissionPolicy, PermissionRequest } from '../../engine/permissions/permissionPolicy';
import type { CliPermissionPolicy } from '../cli/cliPermissionPolicy';

/** The connection the last tool call came on (stdio serves one client), and what it can ask. */
export class McpClientLink {
  current: McpServer | undefined;
  /** The 2026-07-28 call being handled declared elicitation in its _meta: ask with an input_required result (mcpInputRequired.ts). */
  modernElicitation = false;

  /** True when the 2025-era client declared elicitation (form mode) when it connected. */
  canPushElicit(): boolean {
    if (this.modernElicitation) return false;
    const elicitation = this.current?.server.getClientCapabilities()?.elicitation;
    return elicitation !== undefined && (elicitation.form !== undefined || Object.keys(elicitation).length === 0);
  }
}

/** The elicitation field that carries the person's answer. */
export const decisionField = 'decision';

/** What the person is asked, in both eras: the request in their words, Allow once or Deny. */
export function permissionQuestion(request: PermissionRequest) {
  const what = `${request.action}${request.target ? ` (${request.target})` : ''}`;
  return {
    message: `SharpClaw wants to ${what}.\nWhy: ${request.reason}\nAsked by: ${request.requestedBy}`,
    requestedSchema: {
      type: 'object' as const,
      properties: {
        [decisionField]: { type: 'string' as const, title: 'Allow SharpClaw?', oneOf: [{ const: 'allow_once', title: 'Allow once' }, { const: 'deny', title: 'Deny' }] },
      },
      required: [decisionField],
    },
  };
}

export function declinedMessage(request: Pick<PermissionRequest, 'action' | 'target'>): string {
  return `The person declined to let SharpClaw ${request.action}${request.target ? ` (${request.target})` : ''}.`;
}

export class McpPermissionPolicy implements PermissionPolicy {
  /** Grants the person gave for the one call being retried (2026-07-28 input_required), by kind. */
  private readonly grantedOnce = new Set<PermissionKind>();
  /** The request refused during this call that a 2026-07-28 client can be asked about. */
  private unasked: PermissionRequest | undefined;

  constructor(
    /** The grants of the flags and the user settings file; it never prompts. */
    private readonly granted: CliPermissionPolicy,
    private readonly link: McpClientLink,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** The person allowed `kind` once, for the call being retried. */
  grantOnce(kind: PermissionKind): void {
    this.grantedOnce.add(kind);
  }

  /** The refused request the current call can ask about, once. */
  takeUnasked(): PermissionRequest | undefined {
    const unasked = this.unasked;
    this.unasked = undefined;
    return unasked;
  }

  /** Ends a call: a grant it did not use does not carry over. */
  endCall(): void {
    this.grantedOnce.clear();
    this.unasked = undefined;
  }

  refusal(kind: PermissionKind): PermissionDecision | undefined {
    const refused = this.granted.refusal(kind);
    // Read-only mode refuses whoever could be asked; a missing grant can still be asked for.
    if (refused && refused.source === 'cli-flag' && (this.grantedOnce.has(kind) || this.link.modernElicitation || this.link.canPushElicit())) return undefined;
    return refused;
  }

  async request(request: PermissionRequest, signal?: AbortSignal): Promise<PermissionDecision> {
    const decision = await this.granted.request(request);
    if (decision.granted || decision.source !== 'cli-flag') return decision;
    if (this.grantedOnce.delete(request.kind)) return { granted: true, source: 'mcp-elicitation' };
    if (this.link.modernElicitation) {
      // Answered by an input_required result once this call returns (mcpInputRequired.ts).
      this.unasked ??= request;
      return decision;
    }
    if (!this.link.canPushElicit()) return decision;
    try {
      const answer = await this.link.current!.server.elicitInput({ mode: 'form', ...permissionQuestion(request) }, { ...(signal ? { signal } : {}), timeout: 600_000 });
      if (answer.action === 'accept' && answer.content?.[decisionField] === 'allow_once') return { granted: true, source: 'mcp-elicitation' };
      return { granted: false, source: 'mcp-elicitation', message: declinedMessage(request) };
    } catch (error) {
      this.log(`sharpclaw mcp: could not ask through the client (${error instanceof Error ? error.message : String(error)})`);
      return decision;
    }
  }
}
