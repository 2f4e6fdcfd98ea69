// Issue 12 item 1 in the real extension host: when the Roslyn host dies while an agent's tool call
// waits for it, vscode.lm.invokeTool answers `error host_exited: …` naming the signal and the log
// file (before: the languageclient's own "connection got disposed" error, or no answer at all), and
// during an apply the error lists the files the editor had already written. Runs last in the suite
// (after symbols.writes.test.ts), on fixtures/Calculator with approvals reset, the store cleared and a fresh host, so
// the first load asks again; it puts the fixture's texts back afterwards.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, restore, waitFor } from './support';

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** Every C# source of the workspace (workspace-relative, `/`), build output left out. */
function csharpFiles(root: string, relative = ''): string[] {
  return fs.readdirSync(path.join(root, relative), { withFileTypes: true }).flatMap((entry) => {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return ['bin', 'obj', '.git'].includes(entry.name) ? [] : csharpFiles(root, child);
    return entry.name.endsWith('.cs') ? [child] : [];
  });
}

describe('a host that dies while a tool waits for it (real extension host)', () => {
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

  before(async function () {
    this.timeout(180_000);
    await restore('Calculator.slnx');
    // A host with nothing loaded, no remembered approval and no approved snapshot in the store (which would
    // answer without a load): the first call waits for a dialog.
    await vscode.commands.executeCommand('sharpclaw.resetApprovals');
    await vscode.commands.executeCommand('sharpclaw.clearCache');
    await vscode.commands.executeCommand('sharpclaw.restartHost');
  });

  after(async function () {
    this.timeout(60_000);
    // Forget the crashes of this file, so later suites start with a whole crash budget.
    await vscode.commands.executeCommand('sharpclaw.restartHost');
  });

  it('answers error host_exited naming the signal and the log, and the next call starts a new host', async function () {
    this.timeout(180_000);
    const sharpclaw = await api();
    const before = await sharpclaw.hostStatus();
    const answer = invoke('dotnet_solution_inspect', {});
    // The host waits for the person to approve the load: the request is pending in the host.
    const dialog = await sharpclaw.nextPermissionDialog!();
    process.kill(before.processId, 'SIGKILL');
    const text = await answer;
    dialog.answer('Deny');
    assert.match(text, /^error host_exited: The SharpClaw host was killed by SIGKILL while a request was pending; its log: /);
    assert.ok(text.includes(`sharpclaw-host-${before.processId}.log`), text);
    await waitFor('the crashed state', () => sharpclaw.hostState().kind === 'crashed');
    const after = await sharpclaw.hostStatus();
    assert.notEqual(after.processId, before.processId);
  });

  it('during an apply, lists the files the editor had already written', async function () {
    this.timeout(240_000);
    const sharpclaw = await api();
    const contract = 'src/Calculator.Core/ICalculator.cs';
    const sources = csharpFiles(folder());
    const originals = new Map(sources.map((relative) => [relative, fs.readFileSync(path.join(folder(), relative), 'utf8')]));
    const status = await sharpclaw.hostStatus();
    const applying = invoke('csharp_rename_symbol', { name: 'ICalculator.Multiply', newName: 'Times', apply: true });
    (await sharpclaw.nextPermissionDialog!()).answer('Allow once'); // the load
    const write = await sharpclaw.nextPermissionDialog!();
    assert.equal(write.message, 'Allow SharpClaw to change files in this workspace?');
    // The host dies as the editor saves the first file of the edit (VS Code applies SharpClaw's writes).
    let killed = false;
    const saved = vscode.workspace.onDidSaveTextDocument(() => {
      if (killed) return;
      killed = true;
      process.kill(status.processId, 'SIGKILL');
    });
    try {
      write.answer('Allow once');
      const text = await applying;
      assert.ok(killed, `no file was saved; the tool answered:\n${text}`);
      assert.match(text, /^error host_exited: The SharpClaw host was killed by SIGKILL while a request was pending; its log: .*The interrupted apply had already written \d+ files? \(listed below\)/);
      const listed = text.split('\n').filter((line) => line.startsWith('  ')).map((line) => line.trim()).sort();
      const written = sources.filter((relative) => fs.readFileSync(path.join(folder(), relative), 'utf8') !== originals.get(relative)).sort();
      assert.ok(written.includes(contract), `the contract was not renamed: ${written.join(', ')}`);
      assert.deepEqual(listed, written);
    } finally {
      saved.dispose();
      // Back to the fixture's names for the suites that follow (through the editor, so open documents agree).
      const edit = new vscode.WorkspaceEdit();
      const documents: vscode.TextDocument[] = [];
      for (const [relative, text] of originals) {
        const document = await vscode.workspace.openTextDocument(path.join(folder(), relative));
        if (document.getText() === text) continue;
        edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
        documents.push(document);
      }
      await vscode.workspace.applyEdit(edit);
      for (const document of documents) await document.save();
    }
  });
});
