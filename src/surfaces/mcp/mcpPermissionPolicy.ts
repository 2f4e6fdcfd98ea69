// The MCP server's permission policy: what the person granted when configuring the server (the
// flags, or their ~/.sharpclaw/settings.jsonc) decides first; where nothing was granted and the
// client supports elicitation, the person is asked through the client ("Allow once" / "Deny",
// the 2025 era's server-initiated elicitation/create); otherwise the refusal names the flag to set.
// Nothing an agent sends can grant: tool arguments never reach this policy, and the answer comes
// from the client's own prompt to the person. --permission-mode read-only refuses without asking.
import type { McpServer } from '@modelcontextprotocol/server';
import type { PermissionDecision, PermissionKind, PermissionPolicy, PermissionRequest } from '../../engine/permissions/permissionPolicy';
import type { CliPermissionPolicy } from '../cli/cliPermissionPolicy';

/** The connection the last tool call came on (stdio serves one client). */
export class McpClientLink {
  current: McpServer | undefined;

  /** True when the client declared elicitation (form mode) when it connected. */
  canElicit(): boolean {
    const elicitation = this.current?.server.getClientCapabilities()?.elicitation;
    return elicitation !== undefined && (elicitation.form !== undefined || Object.keys(elicitation).length === 0);
  }
}

const decisionField = 'decision';

export class McpPermissionPolicy implements PermissionPolicy {
  constructor(
    /** The grants of the flags and the user settings file; it never prompts. */
    private readonly granted: CliPermissionPolicy,
    private readonly link: McpClientLink,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  refusal(kind: PermissionKind): PermissionDecision | undefined {
    const refused = this.granted.refusal(kind);
    // Read-only mode refuses whoever could be asked; a missing grant can still be asked for.
    if (refused && refused.source === 'cli-flag' && this.link.canElicit()) return undefined;
    return refused;
  }

  async request(request: PermissionRequest, signal?: AbortSignal): Promise<PermissionDecision> {
    const decision = await this.granted.request(request);
    if (decision.granted || decision.source !== 'cli-flag' || !this.link.canElicit()) return decision;
    const what = `${request.action}${request.target ? ` (${request.target})` : ''}`;
    try {
      const answer = await this.link.current!.server.elicitInput(
        {
          mode: 'form',
          message: `SharpClaw wants to ${what}.\nWhy: ${request.reason}\nAsked by: ${request.requestedBy}`,
          requestedSchema: {
            type: 'object',
            properties: {
              [decisionField]: { type: 'string', title: 'Allow SharpClaw?', oneOf: [{ const: 'allow_once', title: 'Allow once' }, { const: 'deny', title: 'Deny' }] },
            },
            required: [decisionField],
          },
        },
        { ...(signal ? { signal } : {}), timeout: 600_000 },
      );
      if (answer.action === 'accept' && answer.content?.[decisionField] === 'allow_once') return { granted: true, source: 'mcp-elicitation' };
      return { granted: false, source: 'mcp-elicitation', message: `The person declined to let SharpClaw ${what}.` };
    } catch (error) {
      // A 2026-07-28 connection has no server→client requests; a client may also fail to answer.
      this.log(`sharpclaw mcp: could not ask through the client (${error instanceof Error ? error.message : String(error)})`);
      return decision;
    }
  }
}
