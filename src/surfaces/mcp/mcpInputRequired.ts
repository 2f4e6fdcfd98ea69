// Asking the person in the 2026-07-28 era, which has no server→client requests: a call refused for
// a permission nobody granted answers `input_required` with an elicitation (Allow once / Deny) and
// a signed requestState; the client asks the person and retries the same call with the answer.
// The engine keeps the question (permissions/grants.ts: what was asked, the fingerprint of what it was
// asked about, a nonce, an expiry); the requestState carries the nonce, HMAC-signed with a key that lives
// only in this process (the SDK's codec), bound to tools/call, valid as long as the question, and names
// the tool and a digest of its arguments. The retry's answer spends the nonce (allow or deny) and, if
// allowed, grants the retry — that one call — one use of exactly what was asked: a resent requestState
// is refused, and the grant answers no other call, target, configuration, framework or changed project.
import { createHash, randomBytes } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, createRequestStateCodec, inputRequired, inputResponse, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { ToolError } from '../../engine/errors';
import { grantBook, newCallId, questionLifetimeMs } from '../../engine/permissions/grants';
import type { ToolOutcome } from '../../engine/tools/runTool';
import { declinedMessage, decisionField, permissionQuestion, unansweredMessage, type McpClientLink } from './mcpPermissionPolicy';

interface PendingApproval {
  /** The engine's question (grants.ts). */
  nonce: string;
  tool: string;
  /** sha256 of the call's arguments. */
  args: string;
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

/** The person's answer carried by a retry: allowed, denied, or a reason it cannot be read as either. */
function answerOf(ctx: ServerContext): 'allow' | 'deny' | { problem: string } {
  const view = inputResponse(ctx.mcpReq.inputResponses, inputKey) as { kind: string; action?: string; content?: Record<string, unknown> };
  if (view.kind === 'missing') return { problem: `the retry carries no answer under inputResponses.${inputKey}` };
  if (view.kind !== 'elicit') return { problem: `inputResponses.${inputKey} is not an elicitation answer` };
  if (view.action !== 'accept') return 'deny';
  const chosen = view.content?.[decisionField];
  if (chosen === 'allow_once') return 'allow';
  if (chosen === 'deny') return 'deny';
  return { problem: `the answer did not fit the question (${decisionField} must be allow_once or deny, got ${JSON.stringify(chosen ?? null).slice(0, 80)})` };
}

export class McpApprovalRounds {
  private readonly codec = createRequestStateCodec<PendingApproval>({ key: randomBytes(32), ttlSeconds: questionLifetimeMs / 1000, bind: (ctx) => ctx.mcpReq.method });

  constructor(private readonly link: McpClientLink) {}

  /** The McpServer option that checks every echoed requestState before a handler runs. */
  readonly verify = (state: string, ctx: ServerContext): Promise<PendingApproval> => this.codec.verify(state, ctx);

  /**
   * Runs one tools/call as call `callId` (the id `call` must pass to Session.runTool): applies the answer a
   * retry carries, and turns an askable refusal into input_required.
   */
  async run(tool: string, args: unknown, ctx: ServerContext, call: (callId: string) => Promise<ToolOutcome>, toResult: (outcome: ToolOutcome) => CallToolResult): Promise<CallToolResult | InputRequiredResult> {
    const callId = newCallId('mcp');
    const modern = declaresModernElicitation(ctx);
    if (modern) this.link.modernCalls.add(callId);
    try {
      const approval = ctx.mcpReq.requestState<PendingApproval>();
      if (approval !== undefined) {
        const refused = this.redeem(approval, tool, args, ctx, callId);
        if (refused) return toResult(failure(refused));
      }
      const outcome = await call(callId);
      const question = modern && !outcome.ok && outcome.error.code === 'permission_denied' ? grantBook.takeQuestion(callId) : undefined;
      if (question) {
        const pending: PendingApproval = { nonce: question.nonce, tool, args: digest(args), action: question.request.action, ...(question.target ? { target: question.target } : {}) };
        return inputRequired({ inputRequests: { [inputKey]: inputRequired.elicit(permissionQuestion(question.request)) }, requestState: await this.codec.mint(pending, ctx) });
      }
      return toResult(outcome);
    } finally {
      this.link.modernCalls.delete(callId);
    }
  }

  /** Spends the question's nonce with the person's answer; the error to answer with, or undefined when the retry may run with its grant. */
  private redeem(approval: PendingApproval, tool: string, args: unknown, ctx: ServerContext, callId: string): ToolError | undefined {
    if (typeof approval !== 'object' || approval === null || typeof approval.nonce !== 'string' || approval.tool !== tool || approval.args !== digest(args)) {
      return new ToolError('invalid_request', 'The approval does not belong to this call: send the same tool and arguments again.');
    }
    const answer = answerOf(ctx);
    const redeemed = grantBook.redeem(approval.nonce, callId, answer === 'allow');
    if (!redeemed.ok) {
      return new ToolError(
        'invalid_request',
        redeemed.reason === 'spent'
          ? 'This approval was already used: "Allow once" covers one call. Send the call again without requestState to be asked again.'
          : 'This approval is not known to this server (it expired, or the server restarted). Send the call again without requestState to be asked again.',
      );
    }
    if (answer === 'allow') return undefined;
    if (answer === 'deny') return new ToolError('permission_denied', declinedMessage(approval));
    return new ToolError('permission_denied', unansweredMessage(approval, answer.problem));
  }
}

function failure(error: ToolError): ToolOutcome {
  return { ok: false, error, text: error.render() };
}
