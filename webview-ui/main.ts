// The SharpClaw sidebar. It renders only what the extension sends (validated with zod) and
// builds DOM nodes with textContent, so host data cannot inject markup.
import { ToWebviewMessageSchema, type ToWebviewMessage } from '../src/surfaces/vscode/views/webviewMessages';
import { vscode } from './dom';
import { approvalsSection } from './sections/approvalsSection';
import { actions, emptyState, verifyingNotice, type WorkspaceView } from './sections/emptyState';
import { workspaceSection } from './sections/workspaceSection';
import { hostSection, type HostView } from './sections/hostSection';
import { reportSection } from './sections/reportSection';
import { turnsSection } from './sections/turnsSection';
import type { TurnTimeline } from '../src/engine/turns/turnSchemas';
import type { VerificationReport } from '../src/engine/verification/report';

type ApprovalEntry = Extract<ToWebviewMessage, { type: 'approvals' }>['entries'][number];

const app = document.getElementById('app')!;
const host: HostView = { progress: null };
let approvals: readonly ApprovalEntry[] = [];
let reports: readonly VerificationReport[] = [];
let selectedReport = 0;
let workspace: WorkspaceView | undefined;
let turns: readonly TurnTimeline[] = [];
let undoableTurn: string | null = null;
let runningTurn: string | null = null;

function render(): void {
  const report = reports[selectedReport];
  const verification = report
    ? reportSection(report, reports, (index) => {
        selectedReport = index;
        render();
      }, [...verifyingNotice(workspace), actions(workspace)])
    : emptyState(workspace);
  const loaded = workspaceSection(workspace);
  const timeline = turnsSection(turns, undoableTurn, runningTurn);
  app.replaceChildren(verification, ...(timeline ? [timeline] : []), ...(loaded ? [loaded] : []), hostSection(host), approvalsSection(approvals, workspace?.remembered ?? []));
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = ToWebviewMessageSchema.safeParse(event.data);
  if (!parsed.success) return;
  const message = parsed.data;
  switch (message.type) {
    case 'hostState':
      host.state = message;
      if (message.state.kind === 'crashed' || message.state.kind === 'stopped') host.status = undefined;
      break;
    case 'hostStatus':
      host.status = message.status;
      host.error = undefined;
      break;
    case 'hostError':
      host.error = message.message;
      break;
    case 'approvals':
      approvals = message.entries;
      break;
    case 'loadProgress':
      host.progress = message.progress;
      break;
    case 'reports':
      reports = message.reports;
      selectedReport = 0;
      break;
    case 'turns':
      turns = message.turns;
      undoableTurn = message.undoable;
      runningTurn = message.running;
      break;
    case 'workspace': {
      const { type: _type, ...rest } = message;
      workspace = rest;
      break;
    }
  }
  render();
  if (message.type === 'hostStatus' || message.type === 'hostError') vscode.postMessage({ type: 'rendered', what: message.type });
  if (message.type === 'reports' && reports.length) vscode.postMessage({ type: 'rendered', what: 'report' });
  // The timeline's text as it is on screen, so a test can read what the person sees.
  const timeline = message.type === 'turns' ? (document.querySelector('[data-testid=turns]') as HTMLElement | null) : null;
  if (timeline) vscode.postMessage({ type: 'rendered', what: 'turns', text: timeline.innerText.slice(0, 20_000) });
});

render();
vscode.postMessage({ type: 'ready' });
