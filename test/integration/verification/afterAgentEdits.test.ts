// sharpclaw.verification.afterAgentEdits in a real extension host, on
// fixtures/VerificationFailingTest: off by default; when on, an edit the person did not type
// (a workspace edit to a file no editor shows, as Copilot's agent mode makes them) is verified
// once it settles and is saved, with the approval asked first, the report published to the
// sidebar and the build error in the Problems panel; an edit typed at the cursor starts nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { api, restore, waitFor } from '../support';

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'the harness opens the fixture as the workspace');
  return folder;
}
const discounts = () => path.join(workspaceFolder(), 'src', 'Pricing', 'Discounts.cs');
const discountTests = () => path.join(workspaceFolder(), 'tests', 'Pricing.Tests', 'DiscountTests.cs');
const configuration = () => vscode.workspace.getConfiguration('sharpclaw.verification');
const settledLine = /Agent edits settled in/;

/** An agent's edit: a workspace edit to a document no editor shows, then saved (as Copilot's agent mode keeps its edits). */
async function agentEdit(file: string, find: string, replace: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(file);
  const offset = document.getText().indexOf(find);
  assert.ok(offset >= 0, `${find} is in ${file}`);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(offset), document.positionAt(offset + find.length)), replace);
  assert.ok(await vscode.workspace.applyEdit(edit));
  assert.ok(await document.save());
}

describe('verification after edits by agents SharpClaw does not run (sharpclaw.verification.afterAgentEdits)', function () {
  this.timeout(300_000);
  const reports: VerificationReport[] = [];
  let original = '';
  let subscription: vscode.Disposable | undefined;

  before(async function () {
    this.timeout(180_000);
    await restore('FailingTest.slnx');
    original = fs.readFileSync(discounts(), 'utf8');
    subscription = (await api()).onDidPublishReport((report) => reports.push(report));
    await configuration().update('afterAgentEditsDelaySeconds', 1, vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    subscription?.dispose();
    await configuration().update('afterAgentEdits', undefined, vscode.ConfigurationTarget.Workspace);
    await configuration().update('afterAgentEditsDelaySeconds', undefined, vscode.ConfigurationTarget.Workspace);
    const document = await vscode.workspace.openTextDocument(discounts());
    const reset = new vscode.WorkspaceEdit();
    reset.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), original);
    await vscode.workspace.applyEdit(reset);
    await document.save();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const settledLines = async () => (await api()).recentLog().filter((line) => settledLine.test(line.message)).length;

  it('is off by default: an agent edit starts no check', async () => {
    assert.equal(configuration().get('afterAgentEdits'), false);
    const before = await settledLines();
    await agentEdit(discounts(), '// bug: should be >=', '// bug: should be >= (noted by an agent)');
    // A fixed wait, because this asserts that nothing happens: with the delay at 1 s (before()), a check
    // the edit started would have logged "settled" well within 4 s.
    await new Promise((resolve) => setTimeout(resolve, 4000));
    assert.equal(await settledLines(), before, 'a check started although the setting is off');
    assert.equal(reports.length, 0);
  });

  it('when on, an edit typed at the cursor starts no check', async () => {
    await configuration().update('afterAgentEdits', true, vscode.ConfigurationTarget.Workspace);
    const before = await settledLines();
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(discounts()));
    const end = editor.document.lineAt(5).range.end;
    editor.selection = new vscode.Selection(end, end);
    assert.ok(await editor.edit((builder) => builder.insert(end, ' ')));
    assert.ok(await editor.document.save());
    // A fixed wait, because this asserts that nothing happens (as above: the delay is 1 s).
    await new Promise((resolve) => setTimeout(resolve, 4000));
    assert.equal(await settledLines(), before, 'the person\'s own typing started a check');
    assert.equal(reports.length, 0);
  });

  it('when on, an agent edit that breaks the build is verified once it settles: approval first, the report in the sidebar, the error in Problems', async () => {
    // The person is looking at another file while the agent edits this one.
    await vscode.window.showTextDocument(vscode.Uri.file(discountTests()));
    const sharpclaw = await api();
    assert.ok(sharpclaw.nextPermissionDialog, 'the test API is only there in ExtensionMode.Test');
    const dialog = sharpclaw.nextPermissionDialog();
    await agentEdit(discounts(), 'total * 0.9m : total;', 'total * 0.9m : total');
    const asked = await Promise.race([dialog, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no permission dialog within 60 s of the agent edit')), 60_000))]);
    assert.match(asked.message, /Allow SharpClaw to build and test FailingTest\.slnx\?/);
    assert.match(asked.detail, /Verify after agent edits/);
    asked.answer('Allow once');
    const report = await waitFor('the report of the check after the agent edit', () => reports.at(-1), 240_000);
    assert.equal(report.scope, 'affected');
    assert.equal(report.status, 'failed', report.summary);
    assert.deepEqual(report.selection?.projects.map((project) => project.name).sort(), ['Pricing', 'Pricing.Tests']);
    assert.ok(report.build?.diagnostics.some((diagnostic) => diagnostic.code === 'CS1002'), report.summary);
    const problems = vscode.languages.getDiagnostics(vscode.Uri.file(discounts()));
    assert.ok(problems.some((problem) => problem.source === 'SharpClaw' && String(typeof problem.code === 'object' ? problem.code.value : problem.code) === 'CS1002'), JSON.stringify(problems.map((problem) => problem.message)));
    assert.equal(reports.length, 1, 'one settled edit, one check');
  });
});
