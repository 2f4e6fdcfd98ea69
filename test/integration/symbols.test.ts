// The read tools through vscode.lm.invokeTool in the real extension host, on the loaded
// fixtures/Calculator (semantic.test.ts loaded and approved it): the compact text an agent gets.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { api, waitFor } from './support';

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
    const sharpclaw = await api();
    const seen = sharpclaw.recentLog().length;
    const text = await invoke('csharp_symbol_resolve', { name: 'Calculator.Ad' });
    assert.match(text, /^error symbol_not_found: /);
    assert.match(text, /Add/);
    // The Output channel shows the expected rejection as info lines at the host's level: no error,
    // no stack trace, no "not serializable", and no second (host) timestamp in the message.
    const lines = await waitFor('the rejection in the SharpClaw log', () => {
      const recent = sharpclaw.recentLog().slice(seen);
      return recent.some((line) => /sharpclaw\/symbolResolve #\d+ failed/.test(line.message)) && recent;
    });
    const text2 = lines.map((line) => `[${line.level}] ${line.message}`).join('\n');
    assert.deepEqual(lines.filter((line) => line.level === 'error'), [], text2);
    assert.doesNotMatch(text2, /^\[\w+\] \d{4}-\d\d-\d\dT/m, 'a host line kept its own timestamp');
    assert.doesNotMatch(text2, /^\s+at \S|not serializable|Request sharpclaw\/symbolResolve failed/m);
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
    const reverted = await invoke('csharp_find_references', { name: 'ICalculator.Subtract' });
    assert.doesNotMatch(reverted, /^src\/Calculator\.App\/Program\.cs /m);
  });

  it('a save of a C# file reaches the host as didSave without a protocol warning', async () => {
    const sharpclaw = await api();
    const seen = sharpclaw.recentLog().length;
    // A file of its own at the workspace root (in no project), so no other test's buffers are saved.
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const probe = vscode.Uri.joinPath(folder, 'SaveProbe.cs');
    fs.writeFileSync(probe.fsPath, '// saved by the didSave test\n');
    try {
      const document = await vscode.workspace.openTextDocument(probe);
      await vscode.window.showTextDocument(document);
      const edit = new vscode.WorkspaceEdit();
      edit.insert(probe, new vscode.Position(1, 0), '// more\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await document.save());
      const lines = await waitFor('didSave in the host log', () => {
        const recent = sharpclaw.recentLog().slice(seen);
        return recent.some((line) => /notification textDocument\/didSave ok/.test(line.message)) && recent;
      });
      assert.doesNotMatch(lines.map((line) => line.message).join('\n'), /No target methods/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      fs.rmSync(probe.fsPath, { force: true });
    }
  });
});
