// The read tools through vscode.lm.invokeTool in the real extension host, on the loaded
// fixtures/Calculator (semantic.test.ts loaded and approved it): the compact text an agent gets.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { api, outputChannelText, shownLogSince, waitFor } from './support';

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('C# read tools through vscode.lm.invokeTool', () => {
  let started = '';
  before(() => {
    started = new Date().toISOString();
  });

  it('csharp_symbol_resolve answers a qualified name with its declaration and the project that answered', async () => {
    const text = await invoke('csharp_symbol_resolve', { name: 'Calculator.Add' });
    assert.match(text, /^method Calculator\.Core\.Calculator\.Add\(double, double\)$/m);
    assert.match(text, /^src\/Calculator\.Core\/Calculator\.cs 6:19$/m);
    assert.match(text, /^project: src\/Calculator\.Core\/Calculator\.Core\.csproj \(net10\.0\)$/m);
  });

  it('csharp_symbol_resolve explains an unknown member of a known type', async () => {
    const text = await invoke('csharp_symbol_resolve', { name: 'Calculator.Ad' });
    assert.match(text, /^error symbol_not_found: /);
    assert.match(text, /Add/);
  });

  it('csharp_find_references finds calls through the interface in other projects, with context', async () => {
    const text = await invoke('csharp_find_references', { name: 'ICalculator.Add', context: true });
    assert.match(text, /^references of method Calculator\.Core\.ICalculator\.Add\(double, double\)$/m);
    assert.match(text, /^src\/Calculator\.App\/Program\.cs:6:\d+ Console\.WriteLine\(\$"2 \+ 3 = \{calculator\.Add\(2, 3\)\}"\);$/m);
    assert.match(text, /^tests\/Calculator\.Tests\/CalculatorTests\.cs:10:\d+ public void Add_ReturnsSum\(\)/m);
  });

  it('csharp_find_references pages with a truncated: line', async () => {
    const text = await invoke('csharp_find_references', { name: 'ICalculator.Add', limit: 1 });
    assert.match(text.split('\n').at(-1)!, /^truncated: \d+ locations in total, next offset: 1\. Raise limit or narrow the query\.$/);
  });

  it('csharp_type_hierarchy lists the implementations of an interface', async () => {
    const text = await invoke('csharp_type_hierarchy', { name: 'ICalculator' });
    assert.match(text, /## implementations\nsrc\/Calculator\.Core\/Calculator\.cs:4:\d+ class Calculator\.Core\.Calculator/);
  });

  it('csharp_diagnostics reports a clean fixture with its totals line', async () => {
    const text = await invoke('csharp_diagnostics', {});
    assert.match(text, /^\d+ files checked, 0 diagnostics in 0 files/m);
  });

  it('rejects a negative offset as invalid_request', async () => {
    const text = await invoke('csharp_find_references', { name: 'ICalculator.Add', offset: -1 });
    assert.match(text, /^error invalid_request: offset: /);
  });

  it('log nothing at the log\'s default level: answers and typed rejections are debug lines', async () => {
    assert.deepEqual(await shownLogSince(started), []);
    // The channel itself hides them: its default level is info, so the Output view never gets them.
    const debug = (await api()).recentLog().filter((line) => line.time >= started && line.level === 'debug').map((line) => line.message);
    assert.ok(debug.some((message) => /^request /.test(message)), `no debug line for the calls: ${JSON.stringify(debug.slice(0, 5))}`);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // the channel's file is written asynchronously
    const shown = await outputChannelText();
    assert.match(shown, /\[info\] SharpClaw \d+\.\d+\.\d+ activated/);
    assert.doesNotMatch(shown, /\[(debug|trace)\]/);
    for (const message of debug) assert.ok(!shown.includes(message), `shown at the default level: ${message}`);
  });
});

describe('answers from unsaved editor buffers', () => {
  const program = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'src/Calculator.App/Program.cs');
  const references = () => invoke('csharp_find_references', { name: 'ICalculator.Subtract' });

  // A failed test must not leave its unsaved edit to the tests after it.
  afterEach(async () => {
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === program().toString());
    if (!open?.isDirty) return;
    await vscode.window.showTextDocument(open);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  /**
   * Opens Program.cs, types a call to Subtract at its end without saving and checks that the answer
   * names it while the disk stays as it was (an auto-save would make the rest of the test meaningless:
   * "thrown away" text would then be on disk). Returns the disk text and the one-based line of the call.
   */
  async function typeUnsavedCall(): Promise<{ disk: string; line: number }> {
    const disk = fs.readFileSync(program().fsPath, 'utf8');
    const document = await vscode.workspace.openTextDocument(program());
    await vscode.window.showTextDocument(document);
    assert.doesNotMatch(await references(), /^src\/Calculator\.App\/Program\.cs /m);

    const edit = new vscode.WorkspaceEdit();
    edit.insert(program(), document.lineAt(document.lineCount - 1).range.end, '\nConsole.WriteLine(calculator.Subtract(9, 4));\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const line = document.lineCount - 1; // one-based line of the inserted call
    assert.match(await references(), new RegExp(`^src/Calculator\\.App/Program\\.cs ${line}:\\d+$`, 'm'));
    assert.match(await invoke('csharp_workspace_search', { query: 'calculator.Subtract(9, 4)' }), new RegExp(`^src/Calculator\\.App/Program\\.cs:${line}:`, 'm'));
    assert.ok(document.isDirty, 'the edit stays unsaved');
    assert.equal(fs.readFileSync(program().fsPath, 'utf8'), disk, 'something saved the unsaved edit (files.autoSave must be off in the test bed)');
    return { disk, line };
  }

  /** The edit was thrown away: not on disk, and no answer names it. */
  async function assertForgotten(disk: string, how: string): Promise<void> {
    assert.equal(fs.readFileSync(program().fsPath, 'utf8'), disk, `${how} wrote the thrown-away edit to disk`);
    // The command returns once the workbench reverted or closed; the extension host (and with it the
    // document sync to the host) hears of it a moment later.
    await waitFor(`${how} to reach the extension host`, () => !vscode.workspace.textDocuments.some((open) => open.uri.toString() === program().toString() && open.isDirty));
    const answer = await references();
    assert.doesNotMatch(answer, /^src\/Calculator\.App\/Program\.cs /m, `${how}: the answer still names the thrown-away call:\n${answer}`);
    const search = await invoke('csharp_workspace_search', { query: 'calculator.Subtract(9, 4)' });
    assert.doesNotMatch(search, /Program\.cs/, `${how}: the syntax-only search still finds the thrown-away call:\n${search}`);
  }

  it('csharp_find_references sees a call an agent typed into an open, unsaved document, and forgets it after Revert and Close', async () => {
    const { disk } = await typeUnsavedCall();
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await assertForgotten(disk, 'Revert and Close');
  });

  it('forgets an unsaved call when its editor is closed without saving ("Don\'t Save")', async () => {
    const { disk } = await typeUnsavedCall();
    // Extension tests get no save prompt: VS Code answers it "Don't Save" itself, as a person would here.
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await assertForgotten(disk, 'Close without saving');
  });
});
