// The restart suite, second VS Code session (same user data, workspace and state folder as restart/before):
// a new extension host and a new Roslyn host answer from the approved snapshot the first session left,
// without a dialog and without MSBuild, and the store behind it is in the extension's storage.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api } from '../../support';
import { inspectHeader, invoke } from '../shared';

describe('restart, session 2: after VS Code was closed and opened again', () => {
  it('answers from the approved snapshot without asking', async function () {
    this.timeout(120_000);
    const sharpclaw = await api();
    assert.equal(sharpclaw.approvals().length, 0, 'a new session has no approvals of its own');
    const text = await invoke('dotnet_solution_inspect', {});
    assert.equal(text.match(inspectHeader)?.[1], ', from approved snapshot', text);
    assert.match(text, /^tests\/Calculator\.Tests\/Calculator\.Tests\.csproj: exe, test project \(IsTestProject\)$/m);
    assert.equal(sharpclaw.approvals().length, 0, 'nothing was asked');
    const status = await sharpclaw.hostStatus();
    assert.equal(status.loadedContexts[0]?.fromSnapshot, true);
    assert.match(await invoke('csharp_find_references', { name: 'Calculator.Divide' }), /^src\/Calculator\.App\/Program\.cs \d+:\d+ \d+:\d+$/m);
  });

  it('keeps the store in the extension storage; Clear Cache deletes it and the next load asks again', async () => {
    const sharpclaw = await api();
    const cleared = (await vscode.commands.executeCommand<{ bytes: number; paths: string[] }>('sharpclaw.clearCache'))!;
    assert.ok(cleared.bytes > 0);
    assert.match(cleared.paths[0]!, /[\\/]globalStorage[\\/]sharpclaw\.sharpclaw[\\/]store[\\/]workspaces[\\/][0-9a-f]{16}[\\/]store\.db$/);
    await vscode.commands.executeCommand('sharpclaw.restartHost');
    const pending = invoke('dotnet_solution_inspect', {});
    const dialog = await sharpclaw.nextPermissionDialog!();
    assert.match(dialog.message, /Allow SharpClaw to load Calculator\.slnx/);
    dialog.answer('Deny');
    assert.match(await pending, /permission_denied/);
  });
});
