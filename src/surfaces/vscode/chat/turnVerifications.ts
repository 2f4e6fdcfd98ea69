// How an @sharpclaw turn gets back the report of ITS OWN verify_workspace call. The turn runs the
// tool through vscode.lm.invokeTool with its request's toolInvocationToken, so the chat's
// confirmation and our permission dialog apply as for any tool call; VS Code then calls our tool
// with that same chat session's token (VS Code 1.100: {sessionId}; later versions:
// {sessionResource}). The token never passes through a model, and another chat, another agent's
// turn or the check after agent edits carries another one (or none), so it is the key: the turn
// says it waits on its token, and the tool adapter hands the report of the call that carries it to
// that turn and to no one else. Nothing here imports vscode (unit-tested in test/unit).
import type { VerificationReport } from '../../../engine/verification/report';

/** The chat session a tool invocation token belongs to; undefined for no token or one of a shape this code does not know. */
export function chatSessionKey(token: unknown): string | undefined {
  if (typeof token !== 'object' || token === null) return undefined;
  const { sessionId, sessionResource } = token as { sessionId?: unknown; sessionResource?: unknown };
  // A resource is a vscode.Uri on one side and a revived copy (or its plain components) on the other: compare its parts.
  if (typeof sessionResource === 'object' && sessionResource !== null) {
    const { scheme, authority, path, query, fragment } = sessionResource as Record<string, unknown>;
    if (typeof scheme === 'string' && typeof path === 'string') return `resource:${JSON.stringify([scheme, authority ?? '', path, query ?? '', fragment ?? ''])}`;
  }
  if (typeof sessionId === 'string' && sessionId.length > 0) return `session:${sessionId}`;
  return undefined;
}

/** One turn's wait for the report of its own call. */
export interface TurnVerificationWait {
  /** The report the call carrying the turn's token produced, once it did. */
  readonly report: VerificationReport | undefined;
  /** Stops waiting (after invokeTool returned or failed). */
  dispose(): void;
}

export class TurnVerifications {
  private readonly waiting = new Map<string, { report: VerificationReport | undefined; claimed: boolean }>();

  /** The turn, before it invokes verify_workspace with `token`. */
  expect(token: unknown): TurnVerificationWait {
    const key = chatSessionKey(token);
    if (!key) throw new Error('This chat request has no tool invocation token that SharpClaw can recognise, so it cannot tell its own verification apart.');
    if (this.waiting.has(key)) throw new Error('A verification of this chat session is already running.');
    const entry: { report: VerificationReport | undefined; claimed: boolean } = { report: undefined, claimed: false };
    this.waiting.set(key, entry);
    return {
      get report() {
        return entry.report;
      },
      dispose: () => {
        if (this.waiting.get(key) === entry) this.waiting.delete(key);
      },
    };
  }

  /**
   * The tool adapter, when verify_workspace is invoked with `token`: the receiver of this call's
   * report when a turn waits on that token (the first such call only), else undefined.
   */
  claim(token: unknown): ((report: VerificationReport) => void) | undefined {
    const key = chatSessionKey(token);
    const entry = key ? this.waiting.get(key) : undefined;
    if (!entry || entry.claimed) return undefined;
    entry.claimed = true;
    return (report) => {
      entry.report = report;
    };
  }
}
