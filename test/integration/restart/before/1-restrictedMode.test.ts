// The restart suite, first VS Code session, part 1 (the harness opens this session with Workspace Trust on
// and the folder untrusted). Restricted Mode: the folder is not trusted, so nothing may execute project
// code. Tools that would need it return permission_denied with instructions, and no dialog is shown; the
// syntax-only searches, which execute nothing, answer. The last test trusts the folder, and 2-load.test.ts
// goes on from there in the same session, as a person's first session in a folder does.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, click, descendantsOf, waitFor } from '../../support';

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('SharpClaw in Restricted Mode', () => {
  it('runs in an untrusted folder', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the harness should have opened the folder in Restricted Mode');
    await api();
  });

  it('refuses to load the solution and explains how to trust the folder', async () => {
    const sharpclaw = await api();
    const text = await invoke('dotnet_solution_inspect', {});
    assert.match(text, /^error permission_denied: .*Restricted Mode.*Manage Workspace Trust/s);
    const last = sharpclaw.approvals().at(-1)!;
    assert.equal(last.granted, false);
    assert.equal(last.source, 'restricted-mode');
  });

  it('refuses to build or test, before starting any process', async () => {
    const before = descendantsOf(process.pid).filter((p) => /dotnet (build|test|msbuild)/.test(p.command)).length;
    const text = await invoke('verify_workspace', { scope: 'build' });
    assert.match(text, /permission_denied|denied/i);
    assert.match(text, /Restricted Mode/);
    assert.equal(descendantsOf(process.pid).filter((p) => /dotnet (build|test|msbuild)/.test(p.command)).length, before);
  });

  it('answers the syntax-only searches without a dialog, and Clear Cache deletes their store', async () => {
    const sharpclaw = await api();
    const asked = sharpclaw.approvals().length;
    const symbols = await invoke('csharp_symbol_search', { query: 'Calculator', kind: 'class' });
    assert.match(symbols, /^syntax-only: /);
    assert.match(symbols, /^src\/Calculator\.Core\/Calculator\.cs:\d+:\d+ class Calculator$/m);
    const text = await invoke('csharp_workspace_search', { query: 'Divide(', paths: ['src/**'] });
    assert.match(text, /^syntax-only: /);
    assert.match(text, /^src\/Calculator\.Core\/\S+\.cs:\d+:\d+ .*Divide\(/m);
    assert.equal(sharpclaw.approvals().length, asked, 'no permission was asked');
    const cleared = await vscode.commands.executeCommand<{ bytes: number; paths: string[] }>('sharpclaw.clearCache');
    assert.ok(cleared.bytes > 0, `Clear Cache cleared ${cleared.bytes} bytes`);
    // VS Code keeps the store in the extension's storage, not in the CLI's state folder.
    assert.equal(cleared.paths.length, 1);
    assert.match(cleared.paths[0]!, /[\\/]globalStorage[\\/][^\\/]*sharpclaw[^\\/]*[\\/]store[\\/]workspaces[\\/][0-9a-f]{16}[\\/]store\.db$/i);
    assert.match(await invoke('csharp_symbol_search', { query: 'Calculator', kind: 'class' }), /class Calculator$/m);
  });

  it('works after the person trusts the folder, without a reload', async () => {
    await vscode.commands.executeCommand('workbench.trust.manage');
    await click({ selector: '.workspace-trust-editor .monaco-button', text: 'Trust' });
    await waitFor('the folder to be trusted', () => vscode.workspace.isTrusted, 20_000);
    const text = await invoke('dotnet_solution_inspect', { target: 'Nope.slnx' });
    // Trusted now: the request reaches the host (which reports the missing target) instead of being denied.
    assert.doesNotMatch(text, /Restricted Mode/);
    assert.match(text, /^error (invalid_request|no_target)/);
  });
});
