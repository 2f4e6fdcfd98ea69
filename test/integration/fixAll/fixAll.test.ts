// A person's compiler-checked fix-all (issue 40 item 8), in a real extension host on
// fixtures/FixAllUnusedLocals (three files in two projects, each with an unused local: CS0168).
// What a person does: Verify Build puts the warnings in the Problems panel; the quick fix menu of one
// of them offers "Fix all CS0168 in solution (compiler-checked)…"; running it opens VS Code's Refactor
// Preview with the three files (nothing written yet); the person ticks them and presses Apply (real
// clicks by the harness); the files change, and the next Verify Build has no CS0168 left.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { api, click, restore, screenshot, waitFor } from '../support';

const files = ['src/Ledger/Balance.cs', 'src/Ledger/Rounding.cs', 'src/Reports/Summary.cs'];
const locals = [/int unusedCount;/, /string unusedLabel;/, /bool unusedFlag;/];

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'the harness opens the fixture as the workspace');
  return folder;
}

const read = (file: string) => fs.readFileSync(path.join(workspaceFolder(), file), 'utf8');

/** Answers every permission dialog with Allow once until stopped (loading and building each ask); returns what was asked. */
function allowWhileRunning(): { stop(): string[] } {
  const asked: string[] = [];
  let stopped = false;
  void (async () => {
    const sharpclaw = await api();
    assert.ok(sharpclaw.nextPermissionDialog, 'the test API is only there in ExtensionMode.Test');
    while (!stopped) {
      const dialog = await sharpclaw.nextPermissionDialog();
      if (stopped) break;
      asked.push(dialog.message);
      dialog.answer('Allow once');
    }
  })();
  return { stop: () => { stopped = true; return asked; } };
}

/** Clicks once the element shows (the click request itself waits 30 s): the host plans the fix first. */
async function untilClicked(target: { selector: string; text?: string }, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await click(target);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/** The CS0168 warnings SharpClaw's verifier put in the Problems panel, by workspace-relative file. */
function cs0168Problems(): Map<string, vscode.Diagnostic[]> {
  const byFile = new Map<string, vscode.Diagnostic[]>();
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    const found = diagnostics.filter((d) => d.source === 'SharpClaw' && String(typeof d.code === 'object' ? d.code.value : d.code) === 'CS0168');
    if (found.length > 0) byFile.set(path.relative(workspaceFolder(), uri.fsPath).split(path.sep).join('/'), found);
  }
  return byFile;
}

async function verifyBuild(): Promise<VerificationReport> {
  const report = await vscode.commands.executeCommand<VerificationReport | undefined>('sharpclaw.verifyBuild');
  assert.ok(report, 'Verify Build returned no report; see the SharpClaw log');
  return report;
}

describe('Fix all CSxxxx in project/solution (compiler-checked)… from the quick fix menu', () => {
  before(async function () {
    this.timeout(180_000);
    // Provisioning, as a person would do it: SharpClaw never restores by itself.
    await restore('FixAll.slnx');
  });

  it('offers the fix-all on a CS0168 in the Problems panel, shows it in the Refactor Preview, applies it to every file, and the warning is gone', async function () {
    this.timeout(900_000);
    await api();
    const dialogs = allowWhileRunning();
    try {
      const before = await verifyBuild();
      assert.equal(before.status, 'passed', before.summary);
      const problems = cs0168Problems();
      assert.deepEqual([...problems.keys()].sort(), files, 'Verify Build puts one CS0168 per file in Problems');

      // The quick fix menu of the warning in Balance.cs (what the light bulb and the Problems panel show).
      const balance = vscode.Uri.file(path.join(workspaceFolder(), files[0]!));
      await vscode.window.showTextDocument(balance);
      const warning = problems.get(files[0]!)![0]!;
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', balance, warning.range, vscode.CodeActionKind.QuickFix.value);
      const titles = actions.map((action) => action.title);
      assert.ok(titles.includes('Fix all CS0168 in project (compiler-checked)…'), `quick fixes: ${titles.join(' | ')}`);
      const solutionWide = actions.find((action) => action.title === 'Fix all CS0168 in solution (compiler-checked)…');
      assert.ok(solutionWide?.command, `quick fixes: ${titles.join(' | ')}`);

      // Loaded first (Load Workspace, allowed), so the preview's planning is not also the solution's load.
      await vscode.commands.executeCommand('sharpclaw.loadWorkspace');
      const originals = files.map(read);
      const running = vscode.commands.executeCommand<boolean>(solutionWide.command.command, ...(solutionWide.command.arguments ?? []));
      // The Refactor Preview lists the three files; nothing is written before Apply.
      const panel = ':is(.bulk-edit-panel, [id="workbench.view.bulkEdit"])';
      await untilClicked({ selector: `${panel} .monaco-tl-row:has-text("${path.basename(files[0]!)}")` }, 240_000);
      for (const file of files.slice(1)) await click({ selector: `${panel} .monaco-tl-row:has-text("${path.basename(file)}")` });
      assert.deepEqual(files.map(read), originals, 'the preview wrote before Apply');
      await screenshot('fix-all-preview');
      // Entries an extension previews start unticked: the person ticks each file, then applies.
      for (const file of files) await click({ selector: `${panel} .monaco-tl-row:has-text("${path.basename(file)}") :is(input[type=checkbox], .monaco-checkbox, .monaco-custom-toggle)` });
      await click({ selector: '.monaco-button', text: 'Apply' });
      assert.equal(await running, true, 'the command says nothing was applied; see the SharpClaw log');

      for (const [index, file] of files.entries()) {
        const text = await waitFor(`${file} on disk without its unused local`, () => { const now = read(file); return locals[index]!.test(now) ? undefined : now; }, 60_000);
        assert.notEqual(text, originals[index]);
        // Only the unused local went: the method's code stays.
        assert.match(text, /return /);
      }

      const after = await verifyBuild();
      assert.equal(after.status, 'passed', after.summary);
      assert.deepEqual([...cs0168Problems().keys()], [], 'CS0168 is still in the Problems panel after the fix');
    } finally {
      dialogs.stop();
    }
  });
});
