// The host formats previews, listings and receipts (one place: EditRenderer.cs); agents read that
// text as is. This only guards against an empty answer.
import type { EditResult } from '../../protocol/edits';

export function renderEdit(result: EditResult): string {
  const text = result.text.trimEnd();
  if (text) return text;
  return result.kind === 'applied' ? 'writes finished' : `proposal ${result.proposalId ?? '?'}: nothing to show`;
}

/** One line naming an applied edit (the first line of its text). */
export function editSummary(result: EditResult): string {
  return renderEdit(result).split('\n', 1)[0] ?? result.kind;
}
