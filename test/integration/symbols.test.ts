// The read tools through vscode.lm.invokeTool in the real extension host, on the loaded
// fixtures/Calculator (semantic.test.ts loaded and approved it): the compact text an agent gets.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './support';

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('C# read tools through vscode.lm.invokeTool', () => {
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
});

describe('answers from unsaved editor buffers', () => {
  it('csharp_find_references sees a call an agent typed into an open, unsaved document', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const program = vscode.Uri.joinPath(folder, 'src/Calculator.App/Program.cs');
    const document = await vscode.workspace.openTextDocument(program);
    await vscode.window.showTextDocument(document);
    const before = await invoke('csharp_find_references', { name: 'ICalculator.Subtract' });
    assert.doesNotMatch(before, /^src\/Calculator\.App\/Program\.cs /m);

    const edit = new vscode.WorkspaceEdit();
    const end = document.lineAt(document.lineCount - 1).range.end;
    edit.insert(program, end, '\nConsole.WriteLine(calculator.Subtract(9, 4));\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(document.isDirty, 'the edit stays unsaved');
    const line = document.lineCount - 1; // one-based line of the inserted call

    try {
      const after = await invoke('csharp_find_references', { name: 'ICalculator.Subtract' });
      assert.match(after, new RegExp(`^src/Calculator\\.App/Program\\.cs ${line}:\\d+$`, 'm'));
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    // The command returns once the workbench reverted; the extension host (and with it the document sync
    // to the host) hears of it a moment later.
    await waitFor('the revert to reach the extension host', () => !document.isDirty || document.isClosed);
    const reverted = await invoke('csharp_find_references', { name: 'ICalculator.Subtract' });
    assert.doesNotMatch(reverted, /^src\/Calculator\.App\/Program\.cs /m);
  });
});
