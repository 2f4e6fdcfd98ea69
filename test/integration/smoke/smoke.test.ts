// The smoke suite: the one suite that runs on the lowest VS Code the manifest allows (engines.vscode,
// 1.100), every other suite runs on the newest. It walks each VS Code API SharpClaw depends on, once, in
// the order a person meets them: lazy activation, the folder in Restricted Mode, a tool through
// vscode.lm.invokeTool, the sidebar's webview, trusting the folder without a reload, a command that
// round-trips through the real Roslyn host, and an approved load through the permission dialog.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { HostStatus } from '../../../src/engine/protocol/hostStatus';
import { api, approvedCalculatorLoad, click, descendantsOf, extension, invokeTool, openSidebarForHostStatus, screenshot, waitFor } from '../support';

const dotnetChildren = () => descendantsOf(process.pid).filter((p) => /(^|\/)dotnet(\s|$)/.test(p.command) || p.command.includes('SharpClaw.Server'));

const invoke = invokeTool;

describe(`SharpClaw smoke on VS Code ${vscode.version}`, () => {
  it('activates lazily and starts no dotnet process on activation', async () => {
    const ext = extension();
    assert.equal(ext.isActive, false, 'nothing should have activated SharpClaw before a SharpClaw tool, command or view was used');
    const sharpclaw = await ext.activate();
    assert.ok(sharpclaw.activationMs >= 0 && sharpclaw.activationMs < 1000, `activation took ${sharpclaw.activationMs} ms`);
    assert.deepEqual(dotnetChildren(), [], 'activation must not start the Roslyn host or any dotnet process');
    assert.match(sharpclaw.statusBarText(), /SharpClaw/);
  });

  it('in Restricted Mode, a tool through vscode.lm.invokeTool refuses to load without a dialog, and the syntax-only search answers', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the harness should have opened the folder in Restricted Mode');
    const sharpclaw = await api();
    assert.match(await invoke('dotnet_solution_inspect', {}), /^error permission_denied: .*Restricted Mode.*Manage Workspace Trust/s);
    assert.equal(sharpclaw.approvals().at(-1)?.source, 'restricted-mode');
    const symbols = await invoke('csharp_symbol_search', { query: 'Calculator', kind: 'class' });
    assert.match(symbols, /^syntax-only: /);
    assert.match(symbols, /^src\/Calculator\.Core\/Calculator\.cs:\d+:\d+ class Calculator$/m);
  });

  it('the sidebar renders the live host status (screenshot)', async () => {
    const sharpclaw = await api();
    assert.equal(await openSidebarForHostStatus(sharpclaw), 'hostStatus', 'the sidebar rendered an error instead of the host status');
    await screenshot('sidebar-restricted');
  });

  it('works once the person trusts the folder, without a reload: Show Host Status round-trips through the real host', async () => {
    await vscode.commands.executeCommand('workbench.trust.manage');
    await click({ selector: '.workspace-trust-editor .monaco-button', text: 'Trust' });
    await waitFor('the folder to be trusted', () => vscode.workspace.isTrusted, 20_000);
    const sharpclaw = await api();
    const status = (await vscode.commands.executeCommand<HostStatus>('sharpclaw.showHostStatus'))!;
    assert.ok(status, 'the command returned no status; see the SharpClaw log');
    assert.match(status.roslynVersion, /^5\.\d+/);
    assert.equal(status.clientProcessId, process.pid, 'the host should watch this extension host');
    assert.ok(dotnetChildren().some((p) => p.pid === status.processId), `pid ${status.processId} is not a child process of this extension host`);
    assert.equal(sharpclaw.hostState().kind, 'ready');
  });

  it('loads the solution through the approval dialog and answers the tool', async function () {
    this.timeout(240_000);
    const text = await approvedCalculatorLoad(await api());
    assert.match(text, /^target: Calculator\.slnx \(Debug\), 3 projects, load complete/m);
    assert.match(text, /^tests\/Calculator\.Tests\/Calculator\.Tests\.csproj: exe, test project \(IsTestProject\)$/m);
  });
});
