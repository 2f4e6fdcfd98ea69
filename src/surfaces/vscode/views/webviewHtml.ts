// The HTML shell of a webview: strict CSP (no inline script or style, scripts only with the
// nonce, resources only from the webview's own origin) and nothing else.
import { randomBytes } from 'node:crypto';

export interface WebviewHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  title: string;
  nonce?: string;
}

export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function renderWebviewHtml(input: WebviewHtmlInput): string {
  const nonce = input.nonce ?? createNonce();
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(input.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(input.styleUri)}">
<title>${escapeAttribute(input.title)}</title>
</head>
<body>
<main id="app" aria-live="polite"><p class="muted">Loading…</p></main>
<script nonce="${escapeAttribute(nonce)}" src="${escapeAttribute(input.scriptUri)}"></script>
</body>
</html>`;
}
