// The sidebar's turn timeline, from a workspace's turn events: per turn, in order, its edits,
// failed passes, checks, repairs and verdict, each as one short line (the shape is in
// turnSchemas.ts). One definition of these words for the sidebar and its tests. It knows nothing of VS Code.
import * as path from 'node:path';
import type { TurnEvent } from './turnEvents';
import { verdictHeading, verdictTone, type TimelineEntry, type TurnTimeline } from './turnSchemas';

const statusTone = (status: string): TimelineEntry['tone'] => (status === 'passed' ? 'ok' : status === 'skipped' ? 'neutral' : 'bad');

/** Longest prompt the timeline repeats; the chat keeps the whole one. */
const promptLimit = 120;

/**
 * The newest `limit` turns (newest first), each with its entries in the order they happened.
 * `workspaceFolder` makes edited paths relative for display.
 */
export function turnTimelines(events: readonly TurnEvent[], workspaceFolder: string | undefined, limit = 5): TurnTimeline[] {
  const turns = new Map<string, TurnTimeline>();
  for (const event of events) {
    if (event.type === 'turnStarted') {
      const prompt = event.prompt.length > promptLimit ? `${event.prompt.slice(0, promptLimit - 1)}…` : event.prompt;
      turns.set(event.turnId, { turnId: event.turnId, mode: event.mode, prompt, startedAt: event.at, entries: [] });
      continue;
    }
    const turn = turns.get(event.turnId);
    if (!turn) continue; // its start fell outside the log (never expected: the log is append-only)
    switch (event.type) {
      case 'mutationRecorded': {
        const shown = workspaceFolder ? path.relative(workspaceFolder, event.file) : event.file;
        turn.entries.push({ kind: 'edit', text: `edit ${shown.split(path.sep).join('/')} (${event.tool})`, tone: 'neutral', file: event.file });
        break;
      }
      case 'passFinished':
        // A pass that went well says nothing new beyond its edits; one that failed is news.
        if (event.error) turn.entries.push({ kind: 'pass', text: `pass ${event.pass} failed: ${event.error}`, tone: 'bad' });
        break;
      case 'verificationStarted':
        turn.entries.push({ kind: 'check', text: `check ${event.check} ${event.scope}…`, tone: 'neutral' });
        break;
      case 'verificationFinished': {
        // The finished check replaces its "running" line: one line per check.
        let running = turn.entries.length - 1;
        while (running >= 0 && !(turn.entries[running]!.kind === 'check' && turn.entries[running]!.text.startsWith(`check ${event.check} `))) running--;
        const scope = running >= 0 ? turn.entries[running]!.text.slice(`check ${event.check} `.length).replace(/…$/, '') : '';
        // Reports' summaries usually start with their status ("failed: build failed …"): say it once.
        const said = event.summary.startsWith(`${event.status}:`) ? event.summary : `${event.status} — ${event.summary}`;
        const line: TimelineEntry = { kind: 'checkResult', text: `check ${event.check}${scope ? ` ${scope}` : ''}: ${said}`, tone: statusTone(event.status) };
        if (running >= 0) turn.entries[running] = line;
        else turn.entries.push(line);
        break;
      }
      case 'repairStarted':
        turn.entries.push({ kind: 'repair', text: `repair ${event.attempt} of ${event.of}`, tone: 'neutral' });
        break;
      case 'turnFinished':
        turn.verdict = { verdict: event.verdict, succeeded: event.succeeded, summary: event.summary, text: `${verdictHeading(event.verdict, event.repairs)}. ${event.summary}`, tone: verdictTone(event.verdict) };
        break;
    }
  }
  return [...turns.values()].reverse().slice(0, limit);
}
