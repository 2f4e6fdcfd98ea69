// Tiny DOM helpers: nodes are built with textContent, never from HTML strings.
import type { FromWebviewMessage } from '../src/surfaces/vscode/views/webviewMessages';

interface VsCodeApi {
  postMessage(message: FromWebviewMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export const vscode = acquireVsCodeApi();

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: { text?: string; className?: string; attrs?: Record<string, string> } = {},
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.text !== undefined) node.append(text(options.text));
  if (options.className) node.className = options.className;
  for (const [name, value] of Object.entries(options.attrs ?? {})) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

export function button(label: string, message: FromWebviewMessage, title: string, className?: string): HTMLButtonElement {
  const node = element('button', { text: label, attrs: { type: 'button', title }, ...(className ? { className } : {}) });
  node.addEventListener('click', () => vscode.postMessage(message));
  return node;
}

export function section(title: string, testId: string, ...children: Node[]): HTMLElement {
  return element('section', { attrs: { 'aria-label': title, 'data-testid': testId } }, element('h2', { text: title }), ...children);
}

export function row(label: string, value: Node | string): HTMLTableRowElement {
  return element('tr', {}, element('th', { text: label, attrs: { scope: 'row' } }), element('td', {}, typeof value === 'string' ? document.createTextNode(value) : value));
}

/**
 * Text whose file paths wrap only after a '/' or '\\' in a narrow sidebar (a <wbr> after each
 * separator), not inside a file or folder name; its textContent stays the text.
 */
export function text(value: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  value.split(/(?<=[/\\])(?=[^/\\\s])/).forEach((part, index) => {
    if (index > 0) fragment.append(document.createElement('wbr'));
    fragment.append(document.createTextNode(part));
  });
  return fragment;
}

/** A file path (see text), styled so that no container breaks it inside a name. */
export function pathText(path: string): HTMLSpanElement {
  return element('span', { text: path, className: 'path' });
}
