// Verification in a real extension host, on fixtures/VerificationFailingTest: the command
// SharpClaw: Verify Affected and the verify_workspace language-model tool both ask through the
// real modal dialog (clicked by the harness), and their reports name the failing test.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { api, restore } from '../support';

/** Answers the next permission dialog like a person (VS Code refuses real modal dialogs while extension tests run). */
async function answerDialog(button: string): Promise<{ message: string; detail: string }> {
  const sharpclaw = await api();
  assert.ok(sharpclaw.nextPermissionDialog, 'the test API is only there in ExtensionMode.Test');
  const dialog = await Promise.race([
    sharpclaw.nextPermissionDialog(),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no permission dialog within 60 s')), 60_000)),
  ]);
  assert.ok(dialog.buttons.includes(button), `the dialog offers ${dialog.buttons.join(', ')}`);
  dialog.answer(button);
  return dialog;
}

const failingTest = 'Pricing.Tests.DiscountTests.OrdersOfExactlyOneHundredGetTheDiscount';

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'the harness opens the fixture as the workspace');
  return folder;
}

describe('SharpClaw verification in a real VS Code extension host', () => {
  before(async function () {
    this.timeout(180_000);
    const folder = workspaceFolder();
    // Explicit provisioning, as a person would do it: verification itself never restores.
    await restore('FailingTest.slnx');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd: folder, stdio: 'pipe' });
    git('init', '-q');
    fs.writeFileSync(path.join(folder, '.gitignore'), 'bin/\nobj/\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'fixture');
  });

  it('SharpClaw: Verify Affected asks first, builds and tests what the edit affects, and names the failing test', async function () {
    this.timeout(240_000);
    await api();
    const folder = workspaceFolder();
    fs.appendFileSync(path.join(folder, 'src/Pricing/Discounts.cs'), '// touched by the integration test\n');
    const pending = vscode.commands.executeCommand<VerificationReport | undefined>('sharpclaw.verifyAffected');
    const dialog = await answerDialog('Allow once');
    assert.match(dialog.message, /Allow SharpClaw to build and test FailingTest\.slnx\?/);
    assert.match(dialog.detail, /Asked by: you, via SharpClaw: Verify Affected/);
    const report = await pending;
    assert.ok(report, 'the command returned no report; see the SharpClaw log');
    assert.equal(report.status, 'failed', report.summary);
    assert.equal(report.selection?.wholeTarget, false);
    assert.deepEqual(report.selection?.projects.map((p) => p.name).sort(), ['Pricing', 'Pricing.Tests']);
    assert.equal(report.tests?.failedTests[0]?.name, failingTest);
    const problems = vscode.languages.getDiagnostics().flatMap(([uri, diagnostics]) => diagnostics.map((d) => ({ uri: uri.fsPath, d })));
    const problem = problems.find(({ d }) => d.source === 'SharpClaw' && d.message.includes(failingTest));
    assert.ok(problem, `no SharpClaw problem names the failing test: ${JSON.stringify(problems.map(({ d }) => d.message))}`);
    assert.match(problem.uri, /DiscountTests\.cs$/);
  });

  it('verify_workspace asks through the same policy and its result names the failing test', async function () {
    this.timeout(240_000);
    await api();
    const pending = vscode.lm.invokeTool('verify_workspace', { input: { scope: 'tests' }, toolInvocationToken: undefined });
    const dialog = await answerDialog('Allow once');
    assert.match(dialog.detail, /Asked by: an agent, via the tool verify_workspace/);
    const result = await pending;
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    assert.match(text, /^verify tests FailingTest\.slnx \[Debug\]: failed/);
    assert.ok(text.includes(`FAILED ${failingTest}`), text);
  });

  it('Verify Build twice keeps the CS0168 warning and the failing test in Problems, and the status bar does not turn green', async function () {
    this.timeout(480_000);
    const sharpclaw = await api();
    const problems = () => vscode.languages.getDiagnostics().flatMap(([uri, diagnostics]) => diagnostics.filter((d) => d.source === 'SharpClaw').map((d) => ({ file: path.basename(uri.fsPath), code: String(d.code), message: d.message })));
    assert.ok(problems().some((p) => p.code === 'test' && p.message.includes(failingTest)), JSON.stringify(problems()));
    for (const round of [1, 2]) {
      const pending = vscode.commands.executeCommand<VerificationReport | undefined>('sharpclaw.verifyBuild');
      await answerDialog('Allow once');
      const report = await pending;
      assert.ok(report, 'the command returned no report; see the SharpClaw log');
      assert.equal(report.status, 'passed', report.summary);
      assert.equal(report.build?.warnings, 1, `round ${round}: ${report.summary}\n${report.notes.join('\n')}`);
      const now = problems();
      assert.ok(now.some((p) => p.code === 'CS0168' && p.file === 'Discounts.cs'), `round ${round}: the warning left Problems: ${JSON.stringify(now)}`);
      assert.ok(now.some((p) => p.code === 'test' && p.message.includes(failingTest)), `round ${round}: a build-only verify cleared the failing test: ${JSON.stringify(now)}`);
      assert.match(sharpclaw.statusBarText(), /verify: failed/, `round ${round}: ${sharpclaw.statusBarText()}`);
      if (round === 2) assert.ok(report.notes.some((note) => /Pricing was up to date, so MSBuild did not recompile it/.test(note)), report.notes.join('\n'));
    }
  });

  it('a denied dialog runs nothing and says so', async function () {
    this.timeout(60_000);
    await api();
    const pending = vscode.lm.invokeTool('verify_workspace', { input: { scope: 'build' }, toolInvocationToken: undefined });
    await answerDialog('Deny');
    const result = await pending;
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    assert.match(text, /^error permission_denied: You denied SharpClaw permission/);
  });
});
