import * as assert from 'node:assert/strict';
import { applyReplacements, textReplacements } from '../../src/surfaces/vscode/edits/textChanges';

describe('textReplacements (WorkspaceEdit ranges of a planned change)', () => {
  it('gives one short range per changed line when the line count stays, keeping CRLF', () => {
    const before = 'int Add(int a) => a;\r\nvar x = Add(1);\r\n// Add stays\r\nvar y = Add(2);\r\n';
    const after = 'int Sum(int a) => a;\r\nvar x = Sum(1);\r\n// Add stays\r\nvar y = Sum(2);\r\n';
    const changes = textReplacements(before, after);
    assert.deepEqual(changes.map((c) => [before.slice(c.start, c.end), c.newText]), [['Add', 'Sum'], ['Add', 'Sum'], ['Add', 'Sum']]);
    assert.equal(applyReplacements(before, changes), after);
  });

  it('spans the first to the last difference when lines are added, and nothing for equal texts', () => {
    const before = 'a\nb\nc\n';
    const after = 'a\nB\nnew\nc\n';
    const changes = textReplacements(before, after);
    assert.equal(changes.length, 1);
    assert.equal(applyReplacements(before, changes), after);
    assert.deepEqual(textReplacements(before, before), []);
  });

  it('handles a last line without a line break and a changed break sequence', () => {
    for (const [before, after] of [['x\nfoo', 'x\nbar'], ['x\r\ny', 'x\ny'], ['', 'new'], ['old', '']]) {
      assert.equal(applyReplacements(before!, textReplacements(before!, after!)), after);
    }
  });
});
