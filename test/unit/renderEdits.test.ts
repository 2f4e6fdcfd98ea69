// The compact text of edit results (tools/edits/renderEdits.ts), rendered from the host's typed
// result: the texts below are what the host printed before rendering moved to TypeScript
// (captured from the CLI on fixtures/EditTools), plus the caps that large edits hit.
import * as assert from 'node:assert/strict';
import type { EditFileOperation, EditResult } from '../../src/engine/protocol/edits';
import { editSummary, maxExcerptLines, maxPreviewChars, maxReceiptOperations, renderEdit } from '../../src/engine/tools/edits/renderEdits';

const change = (path: string, occurrences: number, excerpts?: EditFileOperation['excerpts']): EditFileOperation => ({ operation: 'change', path, newPath: null, occurrences, ...(excerpts ? { excerpts } : {}) });
const result = (fields: Partial<EditResult> & Pick<EditResult, 'kind'>): EditResult => ({ proposalId: null, operations: [], actions: null, hiddenActions: 0, refreshed: false, ...fields });

describe('edit renderings', () => {
  it('shows a refused (unverified) edit for review: why it cannot be applied, the projects behind it, then the edit, with no proposal id', () => {
    const refused = result({
      kind: 'preview',
      cannotApply: 'Renaming Logging.DiskMonitor.Warnings cannot be verified: 1 project that can see the change uses a source generator SharpClaw does not run. Nothing was changed. Edit the files deliberately, then build to verify.',
      cannotApplyDetails: ['Consumer/Consumer.csproj: Generator.dll'],
      operations: [change('Logging/DiskMonitor.cs', 1, [{ line: 7, character: 16, removed: ['    public int Warnings { get; set; }'], added: ['    public int WarningCount { get; set; }'] }])],
    });
    assert.deepEqual(renderEdit(refused).split('\n'), [
      'proposal cannot be applied: Renaming Logging.DiskMonitor.Warnings cannot be verified: 1 project that can see the change uses a source generator SharpClaw does not run. Nothing was changed. Edit the files deliberately, then build to verify.',
      '  Consumer/Consumer.csproj: Generator.dll',
      '1 file, not applied',
      'change Logging/DiskMonitor.cs',
      '@@ 7:16',
      '-     public int Warnings { get; set; }',
      '+     public int WarningCount { get; set; }',
    ]);
  });

  it('renders a rename preview: files in plan order, one @@ excerpt per group of changed lines', () => {
    const preview = result({
      kind: 'preview',
      proposalId: '3f2a9c',
      operations: [
        change('App/Program.cs', 1, [{ line: 5, character: 54, removed: ['Console.WriteLine(calculator.Add(2, 3));'], added: ['Console.WriteLine(calculator.Sum(2, 3));'] }]),
        change('Lib/Calculator.cs', 2, [
          { line: 6, character: 16, removed: ['    public int Add(int a, int b) => a + b;'], added: ['    public int Sum(int a, int b) => a + b;'] },
          { line: 8, character: 36, removed: ['    public int Twice(int value) => Add(value, value);'], added: ['    public int Twice(int value) => Sum(value, value);'] },
        ]),
        { operation: 'rename', path: 'Lib/Formatter.cs', newPath: 'Lib/TextFormat.cs', occurrences: 0, excerpts: [] },
      ],
    });
    assert.equal(
      renderEdit(preview),
      [
        'proposal 3f2a9c: 3 files, not applied',
        'change App/Program.cs',
        '@@ 5:54',
        '- Console.WriteLine(calculator.Add(2, 3));',
        '+ Console.WriteLine(calculator.Sum(2, 3));',
        'change Lib/Calculator.cs',
        '@@ 6:16',
        '-     public int Add(int a, int b) => a + b;',
        '+     public int Sum(int a, int b) => a + b;',
        '@@ 8:36',
        '-     public int Twice(int value) => Add(value, value);',
        '+     public int Twice(int value) => Sum(value, value);',
        'rename Lib/Formatter.cs -> Lib/TextFormat.cs',
      ].join('\n'),
    );
  });

  it('keeps the empty lines of an excerpt, and a deleted-only group has no + lines', () => {
    const preview = result({ kind: 'preview', proposalId: 'a1b2c3', operations: [change('Lib/Formatter.cs', 1, [{ line: 1, character: 1, removed: ['using System.Text;', '', 'namespace EditTools.Lib;'], added: ['namespace EditTools.Lib;'] }, { line: 9, character: 1, removed: ['        int unused;'], added: [] }])] });
    assert.equal(
      renderEdit(preview),
      'proposal a1b2c3: 1 file, not applied\nchange Lib/Formatter.cs\n@@ 1:1\n- using System.Text;\n- \n- namespace EditTools.Lib;\n+ namespace EditTools.Lib;\n@@ 9:1\n-         int unused;',
    );
  });

  it('cuts an excerpt side at 40 lines and says so; cuts a preview at 32,000 characters and says how many files it shows', () => {
    const long = Array.from({ length: maxExcerptLines + 5 }, (_, i) => `line ${i}`);
    const cut = renderEdit(result({ kind: 'preview', proposalId: 'c', operations: [change('A.cs', 1, [{ line: 1, character: 1, removed: long, added: ['x'] }])] })).split('\n');
    assert.equal(cut.filter((line) => line.startsWith('- ')).length, maxExcerptLines);
    assert.equal(cut.at(-1), 'truncated: some excerpts were cut at 40 lines; applying the proposal writes the complete edit.');

    const wide = 'x'.repeat(990);
    const many = Array.from({ length: 40 }, (_, i) => change(`F${i}.cs`, 1, [{ line: 1, character: 1, removed: [wide], added: [wide] }]));
    const text = renderEdit(result({ kind: 'preview', proposalId: 'd', operations: many }));
    const shown = text.split('\n').filter((line) => line.startsWith('change ')).length;
    assert.ok(text.length <= maxPreviewChars, `${text.length} characters`);
    assert.ok(shown > 0 && shown < many.length);
    assert.equal(text.split('\n').at(-1), `truncated: ${shown} of 40 files shown within 32000 characters; applying the proposal writes all of them.`);
  });

  it('renders a listing: entries with their indexes, unverified marks, hidden entries counted unless all', () => {
    const actions = [
      { index: 0, title: 'Remove unused variable', hidden: false, unverified: false },
      { index: 1, title: 'Fix All: Remove unused variable (Document)', hidden: false, unverified: true },
    ];
    assert.equal(
      renderEdit(result({ kind: 'listing', proposalId: '9d8e7f', path: 'Lib/Formatter.cs', actions, hiddenActions: 6, resolvedFile: 'Lib/Formatter.cs' })),
      [
        'resolved file: Lib/Formatter.cs',
        'proposal 9d8e7f: 2 code actions for Lib/Formatter.cs',
        '0 Remove unused variable',
        '1 Fix All: Remove unused variable (Document) (unverified)',
        "unverified: applying these would be refused; a source generator SharpClaw does not run can see this file's project (see dotnet_solution_inspect).",
        'hidden: 6 entries under Suppress or configure issues; set all to list them.',
      ].join('\n'),
    );
    const all = [...actions.slice(0, 1), { index: 1, title: 'Suppress or configure issues > Suppress CS0168 > in Source', hidden: true, unverified: false }];
    assert.equal(renderEdit(result({ kind: 'listing', proposalId: '9d8e7f', path: 'Lib/Formatter.cs', actions: all, hiddenActions: 1 })), 'proposal 9d8e7f: 2 code actions for Lib/Formatter.cs\n0 Remove unused variable\n1 Suppress or configure issues > Suppress CS0168 > in Source');
    assert.equal(renderEdit(result({ kind: 'listing', proposalId: '1', path: 'A.cs', actions: [], hiddenActions: 0 })), 'proposal 1: 0 code actions for A.cs\nno code actions here');
    assert.equal(renderEdit(result({ kind: 'listing', proposalId: '1', path: 'A.cs', actions: [], hiddenActions: 3 })), 'proposal 1: 0 code actions for A.cs\nhidden: 3 entries under Suppress or configure issues; set all to list them.');
  });

  it('renders a receipt with the operations and the diagnostics of the changed files', () => {
    const applied = result({
      kind: 'applied',
      refreshed: true,
      operations: [change('App/Program.cs', 1), change('Lib/Calculator.cs', 2), { operation: 'rename', path: 'Lib/Formatter.cs', newPath: 'Lib/TextFormat.cs', occurrences: 0 }],
      diagnostics: {
        files: 3,
        skippedAbove: null,
        items: [
          { path: 'Lib/TextFormat.cs', line: 10, character: 13, severity: 'warning', id: 'CS0168', message: "The variable 'unused' is declared but never used" },
          { path: 'Lib/TextFormat.cs', line: 12, character: 1, severity: 'error', id: 'CS1002', message: '; expected' },
        ],
      },
    });
    assert.equal(
      renderEdit(applied),
      [
        'writes finished, Roslyn refreshed: 3 files',
        'change App/Program.cs (1 occurrence)',
        'change Lib/Calculator.cs (2 occurrences)',
        'rename Lib/Formatter.cs -> Lib/TextFormat.cs',
        'Lib/TextFormat.cs',
        "  10:13 warning CS0168 The variable 'unused' is declared but never used",
        '  12:1 error CS1002 ; expected',
        '3 files checked, 2 diagnostics in 1 file',
      ].join('\n'),
    );
    assert.equal(editSummary(applied), 'writes finished, Roslyn refreshed: 3 files');
    assert.equal(renderEdit(result({ kind: 'applied', refreshed: true, operations: [change('A.cs', 1)], diagnostics: { files: 1, skippedAbove: null, items: [] } })), 'writes finished, Roslyn refreshed: 1 file\nchange A.cs (1 occurrence)\n1 file checked, 0 diagnostics in 0 files');
    assert.equal(renderEdit(result({ kind: 'applied', refreshed: false, operations: [change('A.cs', 1)] })), 'writes finished, Roslyn not refreshed (it reloads on the next request): 1 file\nchange A.cs (1 occurrence)');
  });

  it('caps a receipt at 100 operation lines but keeps its totals, and says when diagnostics were skipped', () => {
    const operations = Array.from({ length: maxReceiptOperations + 5 }, (_, i) => change(`F${String(i).padStart(3, '0')}.cs`, 1));
    const lines = renderEdit(result({ kind: 'applied', refreshed: true, operations, diagnostics: { files: 105, skippedAbove: null, items: [] } })).split('\n');
    assert.equal(lines[0], 'writes finished, Roslyn refreshed: 105 files');
    assert.equal(lines.filter((line) => line.startsWith('change ')).length, maxReceiptOperations);
    assert.equal(lines.at(-2), '105 files checked, 0 diagnostics in 0 files');
    assert.equal(lines.at(-1), 'truncated: 105 operations in total, 100 shown; every one of them was written.');
    const skipped = renderEdit(result({ kind: 'applied', refreshed: true, operations: [change('A.cs', 1)], diagnostics: { files: 130, skippedAbove: 128, items: [] } }));
    assert.equal(skipped.split('\n').at(-1), 'diagnostics skipped: 130 changed C# files (more than 128); run csharp_diagnostics on them.');
  });

  it('starts with the report of recovered interrupted edits, then the resolved file', () => {
    const interrupted = {
      record: 'apply-1.json',
      recordFolder: '/state/journal',
      summary: 'rename A to B',
      operation: 'rename',
      startedAt: '2026-01-01T00:00:00Z',
      files: [
        { path: 'A.cs', newPath: null, written: true },
        { path: 'Old.cs', newPath: 'New.cs', written: false },
      ],
      removedTemporaryFiles: 1,
      undoable: true,
    };
    const unreadable = { record: 'apply-2.json', recordFolder: '/state/journal', summary: null, operation: null, startedAt: null, files: [], removedTemporaryFiles: 0, undoable: false, unreadable: 'Unexpected end of JSON' };
    const text = renderEdit(result({ kind: 'applied', refreshed: true, operations: [change('A.cs', 1)], interrupted: [interrupted, unreadable], resolvedFile: 'Lib/A.cs' }));
    assert.deepEqual(text.split('\n').slice(0, 7), [
      "interrupted edit: 'rename A to B' (rename, started 2026-01-01 00:00:00Z) stopped after 1 of 2 file(s); 1 leftover temporary file(s) removed.",
      '  written: A.cs',
      '  not written: Old.cs -> New.cs',
      '  Undo it with SharpClaw: Undo Last Edit (sharpclaw/undoEdit), or finish it by running the edit again.',
      'interrupted edit record apply-2.json could not be read (Unexpected end of JSON); it was left in /state/journal.',
      'resolved file: Lib/A.cs',
      'writes finished, Roslyn refreshed: 1 file',
    ]);
  });
});
