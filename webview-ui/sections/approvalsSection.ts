// Approvals: what is allowed for this workspace without asking ("Always for this workspace"),
// with Reset beside it, then every permission decision of this session, newest first.
import { describeRequester, permissionKindText } from '../../src/surfaces/vscode/approvals/requester';
import type { ToWebviewMessage } from '../../src/surfaces/vscode/views/webviewMessages';
import { button, element, section } from '../dom';

type ApprovalEntry = Extract<ToWebviewMessage, { type: 'approvals' }>['entries'][number];
type Kind = ApprovalEntry['kind'];

function allowedLine(remembered: readonly Kind[]): HTMLElement {
  if (remembered.length === 0) {
    return element('p', { text: 'Nothing is allowed permanently for this workspace: SharpClaw asks every time.', className: 'muted', attrs: { 'data-testid': 'approvals-allowed' } });
  }
  const kinds = [...new Set(remembered)].map((kind) => permissionKindText[kind]);
  return element(
    'div',
    { className: 'allowed', attrs: { 'data-testid': 'approvals-allowed' } },
    element('span', { text: `Allowed for this workspace without asking: ${kinds.join(', ')}.` }),
    button('Reset', { type: 'runCommand', command: 'sharpclaw.resetApprovals' }, 'Forget these approvals: SharpClaw asks again next time', 'secondary'),
  );
}

export function approvalsSection(entries: readonly ApprovalEntry[], remembered: readonly Kind[]): HTMLElement {
  const body: Node[] = [allowedLine(remembered)];
  if (entries.length === 0) {
    body.push(element('p', { text: 'No permission has been asked for in this window yet.', className: 'muted' }));
  } else {
    const items = [...entries].reverse().map((entry) =>
      element(
        'li',
        { attrs: { 'data-granted': String(entry.granted) } },
        element('span', { text: entry.granted ? 'allowed' : 'denied', className: entry.granted ? 'badge badge-ready' : 'badge badge-failed' }),
        document.createTextNode(
          ` ${permissionKindText[entry.kind]}${entry.target ? ` · ${entry.target}` : ''} — asked by ${describeRequester(entry.requestedBy)} (${sourceText(entry.source)}, ${new Date(entry.at).toLocaleTimeString()})`,
        ),
      ),
    );
    body.push(element('ul', { className: 'plain log' }, ...items));
  }
  return section('Approvals', 'approvals-section', ...body);
}

function sourceText(source: string): string {
  switch (source) {
    case 'dialog':
      return 'answered in the dialog';
    case 'remembered':
      return 'allowed for this workspace';
    case 'restricted-mode':
      return 'Restricted Mode';
    default:
      return source;
  }
}
