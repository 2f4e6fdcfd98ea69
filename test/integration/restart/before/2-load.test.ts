// The restart suite, first VS Code session, part 2 (after 1-restrictedMode.test.ts trusted the folder): the
// person approves one load of fixtures/Calculator. The harness then closes VS Code and opens it again on the
// same user data and workspace (restart/after).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, approvedCalculatorLoad } from '../../support';
import { inspectHeader, invoke } from '../shared';

describe('restart, session 1: an approved load', () => {
  it('asks, loads with MSBuild once the person allows it, and keeps the approved snapshot', async function () {
    this.timeout(240_000);
    const sharpclaw = await api();
    const text = await approvedCalculatorLoad(sharpclaw);
    assert.equal(text.match(inspectHeader)?.[1], undefined, `a cold load, not a snapshot:\n${text}`);
    // A host that ends writes what it has not stored yet; restarting it here makes sure the snapshot is on disk
    // before the harness closes VS Code (which may end the host abruptly).
    await vscode.commands.executeCommand('sharpclaw.restartHost');
    assert.match(await invoke('dotnet_solution_inspect', {}), /, from approved snapshot$/m);
  });
});
