// Who made a document change, for sharpclaw.verification.afterAgentEdits
// (src/surfaces/vscode/verification/editOrigin.ts): typed at a cursor of the active editor is the
// person's; anything elsewhere is an agent's edit.
import * as assert from 'node:assert/strict';
import { isThePersonsChange, isVerifiableFile } from '../../src/surfaces/vscode/verification/editOrigin';

const at = (line: number, character = 0) => ({ line, character });
const change = (line: number, text: string) => ({ range: { start: at(line, 4), end: at(line, 4) }, text });

describe('who made a document change', () => {
  it('a keystroke at the cursor of the active editor is the person\'s', () => {
    assert.equal(isThePersonsChange({ changes: [change(10, 'x')], isUndoOrRedo: false, activeEditorCursors: [at(10, 5)] }), true);
  });

  it('a multi-line paste ending at the cursor is the person\'s', () => {
    assert.equal(isThePersonsChange({ changes: [change(10, 'a\nb\nc')], isUndoOrRedo: false, activeEditorCursors: [at(12, 1)] }), true);
  });

  it('multi-cursor typing is the person\'s; a second change away from every cursor is not', () => {
    assert.equal(isThePersonsChange({ changes: [change(3, 'x'), change(9, 'x')], isUndoOrRedo: false, activeEditorCursors: [at(3, 5), at(9, 5)] }), true);
    assert.equal(isThePersonsChange({ changes: [change(3, 'x'), change(40, 'x')], isUndoOrRedo: false, activeEditorCursors: [at(3, 5)] }), false);
  });

  it('an edit to a document no active editor shows is an agent\'s', () => {
    assert.equal(isThePersonsChange({ changes: [change(10, 'x')], isUndoOrRedo: false, activeEditorCursors: undefined }), false);
  });

  it('an edit in the active editor far from the cursor is an agent\'s', () => {
    assert.equal(isThePersonsChange({ changes: [change(100, 'return 0;')], isUndoOrRedo: false, activeEditorCursors: [at(2, 0)] }), false);
  });

  it('undo and redo are the person\'s wherever they land', () => {
    assert.equal(isThePersonsChange({ changes: [change(100, 'x')], isUndoOrRedo: true, activeEditorCursors: undefined }), true);
  });

  it('C# sources, project files and MSBuild props/targets are checked; other files are not', () => {
    assert.deepEqual(['/w/A.cs', '/w/A.csproj', '/w/Directory.Build.props', '/w/x.targets', '/w/README.md', '/w/a.json'].map(isVerifiableFile), [true, true, true, true, false, false]);
  });
});
