// Every permission decision of this session, newest first.
import type { ToWebviewMessage } from '../../src/surfaces/vscode/views/webviewMessages';
import { element, section } from '../dom';

type ApprovalEntry = Extract<ToWebviewMessage, { type: 'approvals' }>['entries'][number];

const kindText: Record<ApprovalEntry['kind'], string> = { evaluation: 'load (MSBuild evaluation)', shell: 'build and test', write: 'write files' };

export function approvalsSection(entries: readonly ApprovalEntry[]): HTMLElement {
  if (entries.length === 0) return section('Approvals', 'approvals-section', element('p', { text: 'No permission has been asked for yet.', className: 'muted' }));
  const items = [...entries].reverse().map((entry) =>
    element(
      'li',
      { attrs: { 'data-granted': String(entry.granted) } },
      element('span', { text: entry.granted ? 'allowed' : 'denied', className: entry.granted ? 'badge badge-ready' : 'badge badge-failed' }),
      document.createTextNode(` ${kindText[entry.kind]}${entry.target ? ` · ${entry.target}` : ''} — ${entry.requestedBy} (${entry.source}, ${new Date(entry.at).toLocaleTimeString()})`),
    ),
  );
  return section('Approvals', 'approvals-section', element('ul', { className: 'plain log' }, ...items));
}
