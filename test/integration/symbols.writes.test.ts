// Safe writes through vscode.lm.invokeTool in the real extension host, on the loaded
// fixtures/Calculator copy (semantic.test.ts loaded and approved it): a preview writes nothing,
// applying asks for write permission in the same dialog a person sees (listing the files and
// occurrences), and SharpClaw: Undo Last Edit / Redo Last Edit replay it with content checks.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api } from './support';

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('C# safe writes through vscode.lm.invokeTool', () => {
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const read = (relative: string) => fs.readFileSync(path.join(folder(), relative), 'utf8');
  const contract = 'src/Calculator.Core/ICalculator.cs';

  it('csharp_rename_symbol previews without writing, applies after write approval, and Undo/Redo Last Edit replay it', async () => {
    const sharpclaw = await api();
    const before = read(contract);
    const preview = await invoke('csharp_rename_symbol', { name: 'ICalculator.Multiply', newName: 'Times' });
    const id = /^proposal ([0-9a-f]+): \d+ files?, not applied$/m.exec(preview)?.[1];
    assert.ok(id, `no proposal line in:\n${preview}`);
    assert.match(preview, /^change src\/Calculator\.Core\/ICalculator\.cs$/m);
    assert.match(preview, /^\+ .*Times\(/m);
    assert.equal(read(contract), before, 'a preview writes nothing');

    const applying = invoke('csharp_rename_symbol', { proposalId: id, apply: true });
    const dialog = await sharpclaw.nextPermissionDialog!();
    assert.equal(dialog.message, 'Allow SharpClaw to change files in this workspace?');
    assert.match(dialog.detail, /src\/Calculator\.Core\/ICalculator\.cs \(1 occurrence\)/);
    assert.match(dialog.detail, /src\/Calculator\.App\/Program\.cs \(1 occurrence\)/);
    dialog.answer('Allow once');
    const receipt = await applying;
    assert.match(receipt.split('\n')[0]!, /finished/i);
    assert.match(read(contract), /double Times\(double a, double b\);/);
    assert.match(read('src/Calculator.App/Program.cs'), /calculator\.Times\(7, 6\)/);

    const undoing = vscode.commands.executeCommand<boolean>('sharpclaw.undoLastEdit');
    (await sharpclaw.nextPermissionDialog!()).answer('Allow once');
    assert.equal(await undoing, true);
    assert.equal(read(contract), before);

    const redoing = vscode.commands.executeCommand<boolean>('sharpclaw.redoLastEdit');
    (await sharpclaw.nextPermissionDialog!()).answer('Allow once');
    assert.equal(await redoing, true);
    assert.match(read(contract), /double Times\(/);

    // Back to the fixture's names for the tests that follow.
    const restoring = vscode.commands.executeCommand<boolean>('sharpclaw.undoLastEdit');
    (await sharpclaw.nextPermissionDialog!()).answer('Allow once');
    assert.equal(await restoring, true);
    assert.equal(read(contract), before);
  });

  it('an agent\'s rename lands in an open editor with unsaved changes through WorkspaceEdit, keeping the person\'s edit', async () => {
    const sharpclaw = await api();
    const program = vscode.Uri.file(path.join(folder(), 'src/Calculator.App/Program.cs'));
    const document = await vscode.workspace.openTextDocument(program);
    await vscode.window.showTextDocument(document);
    const typed = new vscode.WorkspaceEdit();
    typed.insert(program, new vscode.Position(0, 0), '// typed by the person, not saved\n');
    assert.ok(await vscode.workspace.applyEdit(typed));
    assert.ok(document.isDirty);

    const applying = invoke('csharp_rename_symbol', { name: 'ICalculator.Multiply', newName: 'Times', apply: true });
    (await sharpclaw.nextPermissionDialog!()).answer('Allow once');
    const receipt = await applying;
    assert.match(receipt.split('\n')[0]!, /finished/i, receipt);
    assert.match(document.getText(), /^\/\/ typed by the person, not saved\n/, 'the person\'s edit is kept');
    assert.match(document.getText(), /calculator\.Times\(7, 6\)/, 'the open editor shows the rename');
    assert.match(read('src/Calculator.App/Program.cs'), /calculator\.Times\(7, 6\)/);

    // SharpClaw: Undo Last Edit goes through the editor too and leaves the person's edit alone.
    const undoing = vscode.commands.executeCommand<boolean>('sharpclaw.undoLastEdit');
    (await sharpclaw.nextPermissionDialog!()).answer('Allow once');
    assert.equal(await undoing, true);
    assert.match(document.getText(), /calculator\.Multiply\(7, 6\)/);
    assert.match(document.getText(), /^\/\/ typed by the person, not saved\n/);

    // Back to the fixture as it was.
    const revert = new vscode.WorkspaceEdit();
    revert.delete(program, new vscode.Range(0, 0, 1, 0));
    assert.ok(await vscode.workspace.applyEdit(revert));
    await document.save();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a denied write changes nothing and says permission_denied', async () => {
    const sharpclaw = await api();
    const before = read(contract);
    const applying = invoke('csharp_rename_symbol', { name: 'ICalculator.Divide', newName: 'Over', apply: true });
    (await sharpclaw.nextPermissionDialog!()).answer('Deny');
    assert.match(await applying, /^error permission_denied: /);
    assert.equal(read(contract), before);
  });

  it('csharp_edit previews a file rename of a file given by name, applies and undoes it, and an invalid identifier is refused', async () => {
    const renameFile = await invoke('csharp_edit', { action: 'rename_file', file: 'ICalculator.cs', newName: 'Contracts.cs' });
    assert.match(renameFile, /^resolved file: src\/Calculator\.Core\/ICalculator\.cs$/m);
    assert.match(renameFile, /^rename src\/Calculator\.Core\/ICalculator\.cs -> src\/Calculator\.Core\/Contracts\.cs$/m);
    assert.ok(fs.existsSync(path.join(folder(), contract)), 'a preview renames nothing');

    // Applied, the move goes through VS Code too, and Undo Last Edit moves the file back.
    const sharpclaw = await api();
    const moving = invoke('csharp_edit', { action: 'rename_file', file: contract, newName: 'Contracts.cs', apply: true });
    const dialog = await sharpclaw.nextPermissionDialog!();
    assert.match(dialog.detail, /src\/Calculator\.Core\/ICalculator\.cs -> src\/Calculator\.Core\/Contracts\.cs/);
    dialog.answer('Allow once');
    assert.match((await moving).split('\n')[0]!, /finished/i);
    assert.ok(fs.existsSync(path.join(folder(), 'src/Calculator.Core/Contracts.cs')));
    assert.ok(!fs.existsSync(path.join(folder(), contract)));
    const undoing = vscode.commands.executeCommand<boolean>('sharpclaw.undoLastEdit');
    (await sharpclaw.nextPermissionDialog!()).answer('Allow once');
    assert.equal(await undoing, true);
    assert.ok(fs.existsSync(path.join(folder(), contract)));
    assert.ok(!fs.existsSync(path.join(folder(), 'src/Calculator.Core/Contracts.cs')));

    const invalid = await invoke('csharp_rename_symbol', { name: 'ICalculator.Divide', newName: 'class' });
    assert.match(invalid, /^error invalid_identifier: /);
  });
});
