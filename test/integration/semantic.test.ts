// The semantic host in a real extension host: loading fixtures/Calculator goes through the
// approval dialog, and dotnet_solution_inspect answers through vscode.lm.invokeTool exactly as
// an agent would call it. (VS Code refuses modal dialogs while extension tests run, so the
// extension hands the same dialog to the test in ExtensionMode.Test; see routeDialogsToTests.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, restore, shownLogSince, type SharpClawApi } from './support';

/** Answers the next permission dialog with `button` and returns what it said. */
async function answerDialog(sharpclaw: SharpClawApi, button: string): Promise<{ message: string; detail: string; buttons: string[] }> {
  const dialog = await sharpclaw.nextPermissionDialog!();
  dialog.answer(button);
  return dialog;
}

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('dotnet_solution_inspect through the approval flow', () => {
  before(async function () {
    this.timeout(180_000);
    // Provisioning, not product behaviour: the fixture needs its restore assets, and SharpClaw never restores by itself.
    await restore('Calculator.slnx');
  });

  it('is registered as a language-model tool', () => {
    assert.ok(vscode.lm.tools.some((tool) => tool.name === 'dotnet_solution_inspect'));
  });

  it('asks before loading; Deny gives permission_denied', async () => {
    const sharpclaw = await api();
    const pending = invoke('dotnet_solution_inspect', {});
    const dialog = await answerDialog(sharpclaw, 'Deny');
    assert.match(dialog.message, /Allow SharpClaw to load Calculator\.slnx with MSBuild\?/);
    assert.match(dialog.detail, /What runs: evaluate Calculator\.slnx with MSBuild/);
    assert.match(dialog.detail, /Asked by: an agent, via the tool dotnet_solution_inspect/);
    assert.deepEqual(dialog.buttons, ['Allow once', 'Always for this workspace', 'Deny']);
    const text = await pending;
    assert.match(text, /^error permission_denied: /);
    const last = sharpclaw.approvals().at(-1)!;
    assert.equal(last.granted, false);
    assert.equal(last.requestedBy, 'dotnet_solution_inspect');
  });

  it('loads after Allow once, showing progress, and reports the evaluated projects', async () => {
    const sharpclaw = await api();
    const progress: Array<{ step: string; statusBar: string }> = [];
    const subscription = sharpclaw.onDidChangeLoadProgress((p) => {
      if (p) progress.push({ step: `${p.projectIndex}/${p.projectCount} ${p.currentProject}`, statusBar: sharpclaw.statusBarText() });
    });
    const since = new Date().toISOString();
    const pending = invoke('dotnet_solution_inspect', {});
    await answerDialog(sharpclaw, 'Allow once');
    const text = await pending;
    subscription.dispose();
    // At the log's default level the load is the person's answer and one line saying what loaded.
    const shown = await shownLogSince(since);
    assert.equal(shown.length, 2, shown.join('\n'));
    assert.match(shown[0]!, /^info Permission granted \(dialog\): evaluation for .*Calculator\.slnx/);
    assert.match(shown[1]!, /^info Loaded Calculator\.slnx \[Debug\]: 3 projects in \d+ ms/);
    assert.ok(progress.some((p) => /^3\/3 /.test(p.step)), `load progress: ${JSON.stringify(progress)}`);
    assert.ok(progress.every((p) => /SharpClaw: loading \d+%/.test(p.statusBar)), 'the status bar shows the load in percent');
    assert.match(text, /^target: Calculator\.slnx \(Debug\), 3 projects, load complete/m);
    assert.match(text, /^src\/Calculator\.Core\/Calculator\.Core\.csproj: library$/m);
    assert.match(text, /^src\/Calculator\.App\/Calculator\.App\.csproj: exe$/m);
    assert.match(text, /^tests\/Calculator\.Tests\/Calculator\.Tests\.csproj: exe, test project \(IsTestProject\)$/m);
    assert.match(text, /references: src\/Calculator\.Core\/Calculator\.Core\.csproj/);
    assert.match(text, /^ {2}frameworks: net10\.0$/m); // restored and compiled for it (else: not restored / not compiled)
    assert.equal(sharpclaw.approvals().at(-1)!.granted, true);
    const status = await sharpclaw.hostStatus();
    assert.equal(status.loadedContexts.length, 1);
    assert.equal(path.basename(status.loadedContexts[0]!.target), 'Calculator.slnx');
  });

  it('answers again from the cache without asking', async () => {
    const sharpclaw = await api();
    const asked = sharpclaw.approvals().length;
    const text = await invoke('dotnet_solution_inspect', {});
    assert.match(text, /load complete, cached/);
    assert.equal(sharpclaw.approvals().length, asked, 'a valid cached context must not ask again');
  });

  it('after Restart Host, answers from the approved snapshot without asking or loading (warm restart)', async function () {
    this.timeout(120_000);
    const sharpclaw = await api();
    const asked = sharpclaw.approvals().length;
    const before = await sharpclaw.hostStatus();
    const restarted = (await vscode.commands.executeCommand<{ processId: number }>('sharpclaw.restartHost'))!;
    assert.notEqual(restarted.processId, before.processId, 'a new host process');
    const text = await invoke('dotnet_solution_inspect', {});
    assert.match(text, /^target: Calculator\.slnx \(Debug\), 3 projects, load complete, from approved snapshot$/m);
    assert.match(text, /^tests\/Calculator\.Tests\/Calculator\.Tests\.csproj: exe, test project \(IsTestProject\)$/m);
    assert.equal(sharpclaw.approvals().length, asked, 'an approved snapshot that still matches the disk must not ask again');
    const status = await sharpclaw.hostStatus();
    assert.equal(status.processId, restarted.processId);
    assert.equal(status.loadedContexts[0]?.fromSnapshot, true);
  });

  it('asks again after a project file changes; "Always for this workspace" holds until SharpClaw: Reset Approvals', async () => {
    const sharpclaw = await api();
    const project = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'src', 'Calculator.Core', 'Calculator.Core.csproj');
    const touch = (note: string) => fs.appendFileSync(project, `\n<!-- ${note} -->\n`);

    touch('structural change 1');
    let pending = invoke('dotnet_solution_inspect', {});
    const dialog = await answerDialog(sharpclaw, 'Always for this workspace');
    assert.match(dialog.detail, /Why: project, build or restore files changed/);
    assert.match(await pending, /load complete$/m);

    touch('structural change 2');
    assert.match(await invoke('dotnet_solution_inspect', {}), /load complete$/m);
    assert.equal(sharpclaw.approvals().at(-1)!.source, 'remembered', 'the remembered approval answers without a dialog');

    assert.equal(await vscode.commands.executeCommand('sharpclaw.resetApprovals'), 1);
    touch('structural change 3');
    pending = invoke('dotnet_solution_inspect', {});
    await answerDialog(sharpclaw, 'Allow once');
    assert.match(await pending, /load complete$/m);
    assert.equal(sharpclaw.approvals().at(-1)!.source, 'dialog');
  });

  it('rejects unknown arguments with invalid_request naming the valid ones', async () => {
    const text = await invoke('dotnet_solution_inspect', { project: 'x' });
    assert.match(text, /^error invalid_request: unknown argument "project"\. Valid arguments: target, configuration, targetFramework, offset\./);
  });
});
