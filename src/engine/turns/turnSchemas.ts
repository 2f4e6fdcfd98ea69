// The vocabulary of agent turns as plain zod schemas — modes, verdicts, usage and the sidebar's
// timeline — with no Node.js imports, so the sidebar's webview can validate messages with them.
import { z } from 'zod';

export const turnModes = ['build', 'plan', 'spec', 'research'] as const;
export const TurnModeSchema = z.enum(turnModes);
export type TurnMode = z.infer<typeof TurnModeSchema>;

export const UsageSchema = z.object({ inputTokens: z.number().int().min(0), outputTokens: z.number().int().min(0) });
export type Usage = z.infer<typeof UsageSchema>;

export const TurnVerdictSchema = z.enum([
  /** No check ran: a plan/spec/research turn, verification off, or no recorded change to check. */
  'notVerified',
  /** The last check passed. */
  'passed',
  /** The last check was explicitly skipped (no .NET target, nothing affected). */
  'skipped',
  /** Build or tests still fail after the repairs the budget allowed. */
  'failed',
  /** The check could not say: denied, missing prerequisites or timed out. No repair was tried for it. */
  'unverified',
  /** The person cancelled (or the turn was interrupted); its edits are finalized for undo. */
  'cancelled',
  /** The model or a tool failed the pass. */
  'error',
]);
export type TurnVerdict = z.infer<typeof TurnVerdictSchema>;

export const ToneSchema = z.enum(['ok', 'bad', 'neutral']);
export type Tone = z.infer<typeof ToneSchema>;

export const TimelineEntrySchema = z.object({
  kind: z.enum(['edit', 'pass', 'check', 'checkResult', 'repair']),
  text: z.string(),
  /** Whether the entry is good news, bad news or neither (the sidebar colours it). */
  tone: ToneSchema,
  /** The file an edit wrote (absolute), so the sidebar can open it. */
  file: z.string().optional(),
});
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

export const TurnTimelineSchema = z.object({
  turnId: z.string(),
  mode: TurnModeSchema,
  prompt: z.string(),
  startedAt: z.string(),
  entries: z.array(TimelineEntrySchema),
  /** Undefined while the turn runs (or when it was interrupted before it finished). */
  verdict: z.object({ verdict: TurnVerdictSchema, succeeded: z.boolean(), summary: z.string(), text: z.string(), tone: ToneSchema }).optional(),
});
export type TurnTimeline = z.infer<typeof TurnTimelineSchema>;

/** The verdict's heading, as the chat response and the sidebar both say it. */
export function verdictHeading(verdict: TurnVerdict, repairs: number): string {
  const headings: Record<TurnVerdict, string> = {
    notVerified: 'Not verified',
    // The summary says what ran (skipped tests are not evidence that tests pass): the heading claims no more.
    passed: 'Verified',
    skipped: 'Verification skipped',
    failed: 'Verification failed',
    unverified: 'Not verified',
    cancelled: 'Cancelled',
    error: 'Stopped',
  };
  const after = verdict === 'passed' && repairs > 0 ? ` after ${repairs} repair${repairs === 1 ? '' : 's'}` : '';
  return `${headings[verdict]}${after}`;
}


/**
 * How the sidebar colours a verdict: green only for a check that passed. A turn that ended well
 * without a check that passed (not verified, verification skipped) is neutral: "Not verified"
 * must never look like "Verified".
 */
export function verdictTone(verdict: TurnVerdict): Tone {
  const tones: Record<TurnVerdict, Tone> = {
    passed: 'ok',
    notVerified: 'neutral',
    skipped: 'neutral',
    unverified: 'bad',
    cancelled: 'bad',
    failed: 'bad',
    error: 'bad',
  };
  return tones[verdict];
}
