// Words for people, made from the words SharpClaw gives agents. Agents get compact codes
// ("error new_errors: …", candidates, hints such as "List its members with the members action");
// a person gets one sentence in a toast, and the full text behind "Show Details". No vscode import,
// so the unit tests and the sidebar can use it.
import type { ToolError, ToolErrorCode } from '../../../engine/errors';

/** Hints addressed to an agent's next call; they mean nothing to a person. */
const agentHints = [
  /\s*List its members with the members action\.?/g,
  /\s*Raise limit or narrow the query\.?/g,
  /\s*— give its file too/g,
  /\s*Retry with [^.]*\./g,
];

/** The first sentence of a message, without agent hints or bracketed paths. */
export function firstSentence(message: string): string {
  let text = message.split('\n')[0] ?? '';
  for (const hint of agentHints) text = text.replace(hint, '');
  text = text.trim();
  // A sentence ends at ". " followed by a capital letter or quote (not inside "Calculator.Add").
  const end = /[.!?](?=\s+["'A-Z(])/.exec(text);
  const sentence = end ? text.slice(0, end.index + 1) : text;
  return sentence.length > 240 ? `${sentence.slice(0, 237).trimEnd()}…` : sentence;
}

/** What a toast says for a typed error: what did not happen, then one sentence of why. */
export function personErrorMessage(failure: string, error: Pick<ToolError, 'code' | 'message'>): string {
  return `SharpClaw ${failure}: ${firstSentence(error.message) || 'it failed without saying why.'}`;
}

/** Codes of expected outcomes a person can act on. */
const expectedRejections: readonly ToolErrorCode[] = [
  'permission_denied',
  'cancelled',
  'no_target',
  'target_ambiguous',
  'missing_prerequisites',
  'symbol_not_found',
  'ambiguous_symbol',
  'invalid_identifier',
  'rename_conflict',
  'new_errors',
  'stale_edit',
  'content_changed',
  'nothing_to_undo',
  'generated_document',
  'outside_workspace',
  'invalid_request',
];

/** Expected outcomes a person can act on (a warning toast); anything else is an error toast. */
export function isExpectedRejection(code: string): boolean {
  return (expectedRejections as readonly string[]).includes(code);
}

/** A count with its noun: "1 error", "3 errors". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
