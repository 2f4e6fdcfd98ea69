// The verification and repair lifecycle of agent turns, as events appended to one JSON-lines
// file per workspace (VS Code: in the extension's workspace storage). Append-only: nothing is
// rewritten, so a crash leaves every event written before it, and a turn that resumes after a
// restart reads back the budget it already consumed. Each line is validated when read; a torn
// last line (a crash mid-write) is skipped, never fatal.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { VerificationScopeSchema, VerificationStatusSchema } from '../verification/report';
import { MutationKindSchema } from './mutations';
import { TurnModeSchema, TurnVerdictSchema, UsageSchema } from './turnSchemas';

export { TurnModeSchema, TurnVerdictSchema, UsageSchema, turnModes, type TurnMode, type TurnVerdict, type Usage } from './turnSchemas';

const base = { turnId: z.string().min(1), at: z.string() };

export const TurnEventSchema = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('turnStarted'), mode: TurnModeSchema, prompt: z.string(), maxRepairIterations: z.number().int().min(0).max(5) }),
  z.object({ ...base, type: z.literal('mutationRecorded'), mutationId: z.string(), file: z.string(), tool: z.string(), kind: MutationKindSchema }),
  z.object({ ...base, type: z.literal('passFinished'), pass: z.number().int().min(0), usage: UsageSchema.nullable(), error: z.string().nullable() }),
  z.object({ ...base, type: z.literal('verificationStarted'), check: z.number().int().min(0), scope: VerificationScopeSchema }),
  z.object({ ...base, type: z.literal('verificationFinished'), check: z.number().int().min(0), status: VerificationStatusSchema, summary: z.string() }),
  /** Written before the repair pass runs: it consumes one attempt of the budget even if the pass never finishes. */
  z.object({ ...base, type: z.literal('repairStarted'), attempt: z.number().int().min(1), of: z.number().int().min(0) }),
  z.object({
    ...base,
    type: z.literal('turnFinished'),
    verdict: TurnVerdictSchema,
    succeeded: z.boolean(),
    summary: z.string(),
    checkpointId: z.string(),
    mutations: z.number().int().min(0),
    repairs: z.number().int().min(0),
    usage: UsageSchema.nullable(),
    passesWithoutUsage: z.number().int().min(0),
  }),
]);
export type TurnEvent = z.infer<typeof TurnEventSchema>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type TurnEventInput = DistributiveOmit<TurnEvent, 'at'> & { at?: string };

export interface TurnEventSink {
  append(event: TurnEventInput): TurnEvent;
}

export class TurnEventLog implements TurnEventSink {
  readonly file: string;
  private readonly listeners = new Set<(event: TurnEvent) => void>();

  /** @param folder the per-workspace storage folder (created when missing). */
  constructor(folder: string) {
    this.file = path.join(folder, 'turn-events.jsonl');
  }

  append(input: TurnEventInput): TurnEvent {
    const event = TurnEventSchema.parse({ ...input, at: input.at ?? new Date().toISOString() });
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    fs.appendFileSync(this.file, `${JSON.stringify(event)}\n`, { mode: 0o600 });
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own.
      }
    }
    return event;
  }

  /** Live events, as they are appended. */
  onDidAppend(listener: (event: TurnEvent) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  read(): TurnEvent[] {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const events: TurnEvent[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const parsed = TurnEventSchema.safeParse(JSON.parse(line));
        if (parsed.success) events.push(parsed.data);
      } catch {
        // A torn line from a crash mid-append.
      }
    }
    return events;
  }

  /** One turn's events, in order. */
  turn(turnId: string): TurnEvent[] {
    return this.read().filter((event) => event.turnId === turnId);
  }

  /** The turn ids in the order they started, newest last. */
  turnIds(): string[] {
    return [...new Set(this.read().filter((event) => event.type === 'turnStarted').map((event) => event.turnId))];
  }
}

/**
 * The budget of a turn as its events say: the ceiling it started with and the repairs already
 * started. Recovery of the same turn keeps consumed attempts and can only lower the ceiling.
 */
export function budgetFromEvents(events: readonly TurnEvent[], configuredCeiling: number): { ceiling: number; consumed: number } {
  const started = events.find((event) => event.type === 'turnStarted');
  const ceiling = started?.type === 'turnStarted' ? Math.min(started.maxRepairIterations, configuredCeiling) : configuredCeiling;
  const consumed = events.filter((event) => event.type === 'repairStarted').length;
  return { ceiling, consumed };
}
