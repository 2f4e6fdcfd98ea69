// The MCP server's permission policy: what the person granted when configuring the server (the
// flags, or their ~/.sharpclaw/settings.jsonc) decides first; where nothing was granted and the
// client supports elicitation, the person is asked through the client ("Allow once" / "Deny",
// the 2025 era's server-initiated elicitation/create, or an input_required result in the 2026-07-28
// era, mcpInputRequired.ts); otherwise the refusal names the flag to set.
// Nothing an agent sends can grant: tool arguments never reach this policy, and the answer comes
// from the client's own prompt to the person. --permission-mode read-only refuses without asking.
import type { McpServer } from '@modelcontextprotocol/server';
import type { PermissionDecision, PermissionKind, PermissionPolicy, PermissionRequest } from '../../engine/permissions/permissionPolicy';
import { permissionFilesLine } from '../../engine/permissions/permissionPolicy';
import type { CliPermissionPolicy } from '../cli/cliPermissionPolicy';

/** The connection the last tool call came on (stdio serves one client), and what it can ask. */
export class McpClientLink {
  current: McpServer | undefined;
  /** The 2026-07-28 calls running now whose requests declared elicitation in their _meta: asked with an input_required result (mcpInputRequired.ts). */
  readonly modernCalls = new Set<string>();

  /** True when `call` is a 2026-07-28 one that can ask the person after it returns. */
  asksLater(call: string | undefined): boolean {
    return call !== undefined && this.modernCalls.has(call);
  }

  /** True when the 2025-era client declared elicitation (form mode) when it connected. */
  canPushElicit(call: string | undefined): boolean {
    if (this.asksLater(call)) return false;
    const elicitation = this.current?.server.getClientCapabilities()?.elicitation;
    return elicitation !== undefined && (elicitation.form !== undefined || Object.keys(elicitation).length === 0);
  }
}

/** The elicitation field that carries the person's answer. */
export const decisionField = 'decision';

/** What the person is asked, in both eras: the request in their words (the files behind it, as VS Code's dialog lists them), Allow once or Deny. */
export function permissionQuestion(request: PermissionRequest) {
  const what = `${request.action}${request.target ? ` (${request.target})` : ''}`;
  const files = permissionFilesLine(request);
  return {
    message: `SharpClaw wants to ${what}.\nWhy: ${request.reason}\nAsked by: ${request.requestedBy}${files ? `\n${files}` : ''}`,
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

/** Why asking through a 2025-era client failed, in the person's words: the question went out, the answer did not come back usable. */
export function unansweredMessage(request: Pick<PermissionRequest, 'action' | 'target'>, problem: string): string {
  return `SharpClaw asked through the MCP client whether it may ${request.action}${request.target ? ` (${request.target})` : ''}, and got no usable answer: ${problem}. Nothing ran. Call again to be asked again.`;
}

export class McpPermissionPolicy implements PermissionPolicy {
  constructor(
    /** The grants of the flags and the user settings file; it never prompts. */
    private readonly granted: CliPermissionPolicy,
    private readonly link: McpClientLink,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  refusal(kind: PermissionKind, call?: string): PermissionDecision | undefined {
    const refused = this.granted.refusal(kind);
    // Read-only mode refuses whoever could be asked; a missing grant can still be asked for.
    if (refused && refused.source === 'cli-flag' && (this.link.asksLater(call) || this.link.canPushElicit(call))) return undefined;
    return refused;
  }

  async request(request: PermissionRequest, signal?: AbortSignal): Promise<PermissionDecision> {
    const decision = await this.granted.request(request);
    if (decision.granted || decision.source !== 'cli-flag') return decision;
    // Asked with an input_required result once this call returns; its retry carries the answer (mcpInputRequired.ts).
    if (this.link.asksLater(request.call)) return { ...decision, askLater: true };
    if (!this.link.canPushElicit(request.call)) return decision;
    let answer;
    try {
      answer = await this.link.current!.server.elicitInput({ mode: 'form', ...permissionQuestion(request) }, { ...(signal ? { signal } : {}), timeout: 600_000 });
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      this.log(`sharpclaw mcp: asking through the client failed (${problem})`);
      // The SDK checks the answer against the question's schema and throws when it does not fit.
      const what = /requested schema/i.test(problem) ? 'the answer did not fit the question' : 'the client answered with an error';
      return { granted: false, source: 'mcp-elicitation', message: unansweredMessage(request, `${what} (${problem})`) };
    }
    if (answer.action !== 'accept') return { granted: false, source: 'mcp-elicitation', message: declinedMessage(request) };
    const chosen = answer.content?.[decisionField];
    if (chosen === 'allow_once') return { granted: true, source: 'mcp-elicitation' };
    if (chosen === 'deny') return { granted: false, source: 'mcp-elicitation', message: declinedMessage(request) };
    return { granted: false, source: 'mcp-elicitation', message: unansweredMessage(request, `the answer did not fit the question (${decisionField} must be allow_once or deny, got ${JSON.stringify(chosen ?? null).slice(0, 80)})`) };
  }
}
