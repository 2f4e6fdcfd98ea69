// The SharpClaw sidebar UI. It renders only what the extension sends (validated with zod) and
// builds DOM nodes with textContent, never HTML strings, so host data cannot inject markup.
import type { HostStatus } from '../src/protocol/hostStatus';
import { ToWebviewMessageSchema, type FromWebviewMessage, type ToWebviewMessage } from '../src/views/webviewMessages';

interface VsCodeApi {
  postMessage(message: FromWebviewMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app')!;

type HostStateMessage = Extract<ToWebviewMessage, { type: 'hostState' }>;
let lastState: HostStateMessage | undefined;
let lastStatus: HostStatus | undefined;
let lastError: string | undefined;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, options: { text?: string; className?: string; attrs?: Record<string, string> } = {}, ...children: Node[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.text !== undefined) node.textContent = options.text;
  if (options.className) node.className = options.className;
  for (const [name, value] of Object.entries(options.attrs ?? {})) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function button(label: string, message: FromWebviewMessage, title: string): HTMLButtonElement {
  const node = element('button', { text: label, attrs: { type: 'button', title } });
  node.addEventListener('click', () => vscode.postMessage(message));
  return node;
}

function row(label: string, value: Node | string): HTMLTableRowElement {
  return element('tr', {}, element('th', { text: label, attrs: { scope: 'row' } }), element('td', {}, typeof value === 'string' ? document.createTextNode(value) : value));
}

function stateBadge(): HTMLElement {
  const kind = lastState?.state.kind ?? 'stopped';
  return element('span', { text: kind, className: `badge badge-${kind}`, attrs: { 'data-testid': 'host-state' } });
}

function renderStatus(status: HostStatus): HTMLElement {
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

function render(): void {
  const header = element('header', {}, element('h2', { text: 'Roslyn host' }), stateBadge());
  const description = element('p', { text: lastState?.description ?? 'Asking the host…', className: 'muted', attrs: { 'data-testid': 'host-description' } });
  const body: Node[] = [];
  if (lastError) body.push(element('p', { text: lastError, className: 'error', attrs: { role: 'alert' } }));
  if (lastStatus) body.push(renderStatus(lastStatus));
  const actions = element(
    'div',
    { className: 'actions' },
    button('Refresh', { type: 'refreshStatus' }, 'Ask the host for its status again'),
    button('Restart host', { type: 'restartHost' }, 'Stop the Roslyn host and start a new one'),
    button('Show log', { type: 'showLog' }, 'Open the SharpClaw log'),
  );
  app.replaceChildren(element('section', { attrs: { 'aria-label': 'Roslyn host status' } }, header, description, ...body, actions));
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = ToWebviewMessageSchema.safeParse(event.data);
  if (!parsed.success) return;
  const message = parsed.data;
  switch (message.type) {
    case 'hostState':
      lastState = message;
      if (message.state.kind === 'crashed' || message.state.kind === 'stopped') lastStatus = undefined;
      render();
      return;
    case 'hostStatus':
      lastStatus = message.status;
      lastError = undefined;
      render();
      vscode.postMessage({ type: 'rendered', what: 'hostStatus' });
      return;
    case 'hostError':
      lastError = message.message;
      render();
      vscode.postMessage({ type: 'rendered', what: 'hostError' });
      return;
  }
});

render();
vscode.postMessage({ type: 'ready' });
