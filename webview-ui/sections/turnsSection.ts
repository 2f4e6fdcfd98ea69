// The turn timeline: the newest @sharpclaw turns of this workspace, each with its prompt, then
// its edits (click to open the file), checks and repairs in order, and its verdict. A turn still
// running shows its entries as they arrive; the newest undoable turn offers Undo Last Turn.
import type { TimelineEntry, TurnTimeline } from '../../src/engine/turns/turnSchemas';
import { button, element, section, vscode } from '../dom';

function entryRow(entry: TimelineEntry): HTMLElement {
  const row = element('li', { className: `turn-entry tone-${entry.tone}`, attrs: { 'data-testid': 'turn-event', 'data-kind': entry.kind } });
  if (entry.kind === 'edit' && entry.file) {
    const link = element('a', { text: entry.text, attrs: { href: '#', role: 'link', title: `Open ${entry.file}` } });
    const file = entry.file;
    link.addEventListener('click', (event) => {
      event.preventDefault();
      vscode.postMessage({ type: 'openLocation', file, line: 1 });
    });
    row.append(link);
  } else {
    row.append(document.createTextNode(entry.text));
  }
  return row;
}

function turnItem(turn: TurnTimeline, undoable: boolean, running: boolean): HTMLElement {
  const verdict = turn.verdict
    ? element('div', { text: turn.verdict.text, className: `turn-verdict tone-${turn.verdict.tone}`, attrs: { 'data-testid': 'turn-verdict', 'data-tone': turn.verdict.tone } })
    : running
      ? element('div', { text: 'Running…', className: 'turn-verdict muted', attrs: { 'data-testid': 'turn-running', role: 'status' } })
      : element('div', { text: 'Interrupted before its verdict (the window closed or the host stopped mid-turn).', className: 'turn-verdict tone-bad', attrs: { 'data-testid': 'turn-verdict' } });
  const started = new Date(turn.startedAt);
  return element(
    'li',
    { className: 'turn', attrs: { 'data-testid': 'turn', 'data-turn-id': turn.turnId } },
    element('div', { className: 'turn-head' }, element('span', { text: turn.mode === 'build' ? turn.prompt : `/${turn.mode} ${turn.prompt}` }), element('span', { text: started.toLocaleTimeString(), className: 'muted' })),
    element('ol', { className: 'plain turn-entries' }, ...turn.entries.map(entryRow)),
    verdict,
    ...(undoable ? [element('div', { className: 'actions' }, button('Undo Last Turn', { type: 'runCommand', command: 'sharpclaw.undoLastTurn' }, "Revert this turn's edits (files changed since are named and left alone)", 'secondary'))] : []),
  );
}

/** Undefined when no turn has run in this workspace: the sidebar shows nothing for it then. */
export function turnsSection(turns: readonly TurnTimeline[], undoable: string | null, running: string | null): HTMLElement | undefined {
  if (turns.length === 0) return undefined;
  return section('@sharpclaw turns', 'turns', element('ol', { className: 'plain turns' }, ...turns.map((turn) => turnItem(turn, turn.turnId === undoable, turn.turnId === running))));
}
