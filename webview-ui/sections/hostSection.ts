// The Roslyn host: state, live status from sharpclaw/status, load progress.
import type { HostStatus } from '../../src/engine/protocol/hostStatus';
import type { ToWebviewMessage } from '../../src/surfaces/vscode/views/webviewMessages';
import { button, element, row, section } from '../dom';

type HostStateMessage = Extract<ToWebviewMessage, { type: 'hostState' }>;
type LoadProgress = Extract<ToWebviewMessage, { type: 'loadProgress' }>['progress'];

export interface HostView {
  state?: HostStateMessage;
  status?: HostStatus;
  error?: string;
  progress: LoadProgress;
}

function statusTable(status: HostStatus): HTMLElement {
  const sdkList = element('ul', { className: 'plain' }, ...status.sdks.map((sdk) => element('li', { text: sdk.version, attrs: { title: sdk.path } })));
  const contexts =
    status.loadedContexts.length === 0
      ? element('span', { text: 'none yet', className: 'muted' })
      : element('ul', { className: 'plain' }, ...status.loadedContexts.map((c) => element('li', { text: `${c.target} · ${c.configuration}${c.targetFramework ? ` · ${c.targetFramework}` : ''} (${c.projectCount} projects)` })));
  return element(
    'table',
    { className: 'facts', attrs: { 'data-testid': 'host-status' } },
    row('Host', status.hostVersion),
    row('Roslyn', status.roslynVersion),
    row('Runtime', `${status.runtime.frameworkDescription} (${status.runtime.runtimeIdentifier})`),
    row('.NET SDKs', status.sdks.length ? sdkList : element('span', { text: 'none found', className: 'error' })),
    row('Loaded contexts', contexts),
    row('Process', String(status.processId)),
    row('Started', new Date(status.startedAt).toLocaleTimeString()),
  );
}

function progressBar(progress: NonNullable<LoadProgress>): HTMLElement {
  const percent = progress.percent ?? Math.round((100 * progress.projectIndex) / Math.max(1, progress.projectCount));
  const bar = element('div', { className: 'bar-fill' });
  bar.style.width = `${percent}%`;
  return element(
    'div',
    { className: 'progress', attrs: { role: 'progressbar', 'aria-valuenow': String(percent), 'aria-valuemin': '0', 'aria-valuemax': '100', 'data-testid': 'load-progress' } },
    element('div', { text: progress.kind === 'index' ? `Building the ${progress.target}: ${progress.currentProject} (${percent}%)` : `Loading ${progress.target}: ${progress.projectIndex}/${progress.projectCount} ${progress.currentProject} (${percent}%)` }),
    element('div', { className: 'bar' }, bar),
  );
}

export function hostSection(view: HostView): HTMLElement {
  const kind = view.state?.state.kind ?? 'stopped';
  const heading = element('div', { className: 'heading' }, element('span', { text: kind, className: `badge badge-${kind}`, attrs: { 'data-testid': 'host-state' } }));
  const body: Node[] = [heading, element('p', { text: view.state?.description ?? 'Asking the host…', className: 'muted', attrs: { 'data-testid': 'host-description' } })];
  if (view.progress) body.push(progressBar(view.progress));
  if (view.error) body.push(element('p', { text: view.error, className: 'error', attrs: { role: 'alert' } }));
  if (view.status) body.push(statusTable(view.status));
  body.push(
    element(
      'div',
      { className: 'actions' },
      button('Refresh', { type: 'refreshStatus' }, 'Ask the host for its status again', 'secondary'),
      button('Restart host', { type: 'restartHost' }, 'Stop the Roslyn host and start a new one', 'secondary'),
      button('Show log', { type: 'showLog' }, 'Open the SharpClaw log', 'secondary'),
    ),
  );
  return section('Roslyn host', 'host-section', ...body);
}
