import * as assert from 'node:assert/strict';
import { contentSecurityPolicy, renderWebviewHtml } from '../../src/surfaces/vscode/views/webviewHtml';
import { FromWebviewMessageSchema, ToWebviewMessageSchema } from '../../src/surfaces/vscode/views/webviewMessages';

describe('the sidebar webview', () => {
  const html = renderWebviewHtml({ cspSource: 'https://webview.test', scriptUri: 'https://webview.test/main.js', styleUri: 'https://webview.test/styles.css', title: 'SharpClaw', nonce: 'abc123' });

  it('has a strict CSP: nothing by default, scripts only with the nonce, no inline styles', () => {
    const csp = contentSecurityPolicy('https://webview.test', 'abc123');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-abc123'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.ok(html.includes(`content="${csp.replace(/'/g, "'")}"`));
  });

  it('loads its one script with the nonce and has no inline script or style', () => {
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]![1]!, /nonce="abc123"/);
    assert.equal(scripts[0]![2]!.trim(), '', 'no inline script body');
    assert.doesNotMatch(html, /<style|style="/);
  });

  it('escapes values it puts in attributes', () => {
    const hostile = renderWebviewHtml({ cspSource: 'x', scriptUri: '"><img src=x onerror=alert(1)>', styleUri: 's', title: 't', nonce: 'n' });
    assert.doesNotMatch(hostile, /<img/);
  });

  it('rejects messages of unknown shape in both directions', () => {
    assert.equal(FromWebviewMessageSchema.safeParse({ type: 'runShell', command: 'rm -rf /' }).success, false);
    assert.equal(FromWebviewMessageSchema.safeParse({ type: 'rendered', what: 'somethingElse' }).success, false);
    assert.equal(FromWebviewMessageSchema.safeParse({ type: 'refreshStatus' }).success, true);
    assert.equal(ToWebviewMessageSchema.safeParse({ type: 'hostStatus', status: { hostVersion: 1 } }).success, false);
  });
});
