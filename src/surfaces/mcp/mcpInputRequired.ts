// Asking the person in the 2026-07-28 era, which has no server→client requests: a call refused for
// a permission nobody granted answers `input_required` with an elicitation (Allow once / Deny) and
// a signed requestState naming the call; the client asks the person and retries the same call with
// the answer, which grants that one permission for that one retry. The state is HMAC-signed with a
// key that lives only in this process (the SDK's codec), bound to tools/call, valid five minutes,
// and names the tool and a digest of its arguments: a client cannot forge an approval, replay it
// for another call, or turn a tool argument into one.
import { createHash, randomBytes } from 'node:crypto';
import { acceptedContent, CLIENT_CAPABILITIES_META_KEY, createRequestStateCodec, inputRequired, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { ToolError } from '../../engine/errors';
import type { PermissionKind } from '../../engine/permissions/permissionPolicy';
import type { ToolOutcome } from '../../engine/tools/runTool';
import { declinedMessage, decisionField, permissionQuestion, type McpClientLink, type McpPermissionPolicy } from './mcpPermissionPolicy';

interface PendingApproval {
  tool: string;
  /** sha256 of the call's arguments. */
  args: string;
  kind: PermissionKind;
  action: string;
  target?: string;
}

const inputKey = 'permission';

function digest(args: unknown): string {
  return createHash('sha256').update(JSON.stringify(args ?? {})).digest('hex');
}

/** True when this request is a 2026-07-28 one whose client declared elicitation in its _meta. */
export function declaresModernElicitation(ctx: ServerContext): boolean {
  // The SDK types the lifted envelope as {}; its keys are the reserved _meta names.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: object } | undefined;
  return capabilities?.elicitation !== undefined;
}

export class McpApprovalRounds {
  private readonly codec = createRequestStateCodec<PendingApproval>({ key: randomBytes(32), ttlSeconds: 300, bind: (ctx) => ctx.mcpReq.method });

  constructor(
    private readonly policy: McpPermissionPolicy,
    private readonly link: McpClientLink,
  ) {}

  /** The McpServer option that checks every echoed requestState before a handler runs. */
  readonly verify = (state: string, ctx: ServerContext): Promise<PendingApproval> => this.codec.verify(state, ctx);

  /** Runs one tools/call: applies an approval the retry carries, and turns an askable refusal into input_required. */
  async run(tool: string, args: unknown, ctx: ServerContext, call: () => Promise<ToolOutcome>, toResult: (outcome: ToolOutcome) => CallToolResult): Promise<CallToolResult | InputRequiredResult> {
    const modern = declaresModernElicitation(ctx);
    this.link.modernElicitation = modern;
    try {
      const approval = ctx.mcpReq.requestState<PendingApproval>();
      if (approval !== undefined) {
        if (typeof approval !== 'object' || approval === null || approval.tool !== tool || approval.args !== digest(args)) {
          return toResult(failure(new ToolError('invalid_request', 'The approval does not belong to this call: send the same tool and arguments again.')));
        }
        const answer = acceptedContent<Record<string, unknown>>(ctx.mcpReq.inputResponses, inputKey);
        if (answer?.[decisionField] !== 'allow_once') return toResult(failure(new ToolError('permission_denied', declinedMessage(approval))));
        this.policy.grantOnce(approval.kind);
      }
      const outcome = await call();
      const unasked = this.policy.takeUnasked();
      if (modern && unasked && !outcome.ok && outcome.error.code === 'permission_denied') {
        const pending: PendingApproval = { tool, args: digest(args), kind: unasked.kind, action: unasked.action, ...(unasked.target ? { target: unasked.target } : {}) };
        return inputRequired({ inputRequests: { [inputKey]: inputRequired.elicit(permissionQuestion(unasked)) }, requestState: await this.codec.mint(pending, ctx) });
      }
      return toResult(outcome);
    } finally {
      this.policy.endCall();
      this.link.modernElicitation = false;
    }
  }
}

function failure(error: ToolError): ToolOutcome {
  return { ok: false, error, text: error.render() };
}
