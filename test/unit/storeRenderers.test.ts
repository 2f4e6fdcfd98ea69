// The compact text of csharp_symbol_search and csharp_workspace_search (engine/tools/store/): the
// syntax-only first line, one line per result, the empty, past-the-end and truncated answers, and the
// answer budget that stops a page of long lines short of 8 KB.
import * as assert from 'node:assert/strict';
import { SymbolSearchResultSchema, WorkspaceSearchResultSchema } from '../../src/engine/protocol/store';
import { renderSymbolSearch, renderWorkspaceSearch, syntaxOnlyLine } from '../../src/engine/tools/store/renderStore';
import { SymbolSearchInputSchema, WorkspaceSearchInputSchema } from '../../src/engine/tools/store/storeTools';
import { linesWithinBudget } from '../../src/engine/tools/answerBudget';

const page = { offset: 0, limit: 50, truncated: false, nextOffset: null, indexedFiles: 3, reindexedFiles: 0 };

describe('store tool renderers', () => {
  it('symbol_search: syntax-only line, then path:line:char kind Name, then truncation', () => {
    const item = { name: 'Calculator.Add(int, int)', kind: 'method', container: 'Calc.Core.Calculator', signature: 'public int Add(int a, int b)', path: 'src/Calculator.cs', line: 10, character: 16, endLine: 14, endCharacter: 6 };
    const result = SymbolSearchResultSchema.parse({ ...page, query: 'Add', items: [item], total: 3, truncated: true, nextOffset: 1, limit: 1 });
    assert.equal(renderSymbolSearch(result), `${syntaxOnlyLine}\nsrc/Calculator.cs:10:16 method Calculator.Add(int, int)\ntruncated: 3 declarations in total, next offset: 1. Raise limit or narrow the query (kind, container).`);
    assert.equal(renderSymbolSearch({ ...result, items: [], total: 0, truncated: false, nextOffset: null }), `${syntaxOnlyLine}\nno declarations match Add (3 C# files indexed)`);
    assert.equal(renderSymbolSearch({ ...result, items: [], offset: 9, truncated: false, nextOffset: null }), `${syntaxOnlyLine}\noffset 9 is past the last of 3 declarations`);
  });

  it('workspace_search: syntax-only line, then path:line:char text', () => {
    const result = WorkspaceSearchResultSchema.parse({ ...page, query: 'add', matches: [{ path: 'src/A.cs', line: 3, character: 14, text: '/// Adds' }], total: 1, files: 1 });
    assert.equal(renderWorkspaceSearch(result), `${syntaxOnlyLine}\nsrc/A.cs:3:14 /// Adds`);
    assert.match(renderWorkspaceSearch({ ...result, matches: [], total: 0 }), /\nno matches for add \(3 C# files indexed\)$/);
  });

  it('workspace_search with paths and no match says how many files the paths let through, and when none', () => {
    const empty = WorkspaceSearchResultSchema.parse({ ...page, query: 'Nothing', matches: [], total: 0, files: 0, indexedFiles: 798, pathsMatchedFiles: 12 });
    assert.match(renderWorkspaceSearch(empty), /\nno matches for Nothing \(in the 12 of 798 C# files indexed that paths match\)$/);
    assert.match(renderWorkspaceSearch({ ...empty, pathsMatchedFiles: 0 }), /\nno matches for Nothing \(paths match none of the 798 C# files indexed\)$/);
  });

  it('an answer made before the index build ended says, second, from how many files and how many are left', () => {
    const symbols = SymbolSearchResultSchema.parse({ ...page, query: 'Many', items: [], total: 0, indexedFiles: 256, pendingFiles: 616 });
    assert.equal(renderSymbolSearch(symbols), `${syntaxOnlyLine}\npartial: from 256 of 872 C# files; the index build goes on (616 left), call again for every file.\nno declarations match Many (256 C# files indexed)`);
    const text = WorkspaceSearchResultSchema.parse({ ...page, query: 'x', matches: [{ path: 'src/A.cs', line: 1, character: 1, text: 'x' }], total: 1, files: 1, indexedFiles: 1, pendingFiles: 1 });
    assert.equal(renderWorkspaceSearch(text).split('\n')[1], 'partial: from 1 of 2 C# files; the index build goes on (1 left), call again for every file.');
    // A whole answer says nothing of it (the host sends null).
    assert.doesNotMatch(renderWorkspaceSearch({ ...text, pendingFiles: null }), /partial/);
  });

  it('a page of long lines stops under 8 KB and names the offset it stopped at; a page that fits is left whole', () => {
    const long = 'x'.repeat(190);
    const matches = Array.from({ length: 50 }, (_, i) => ({ path: `src/Generated/Messages${i}.cs`, line: i + 1, character: 5, text: `${long} ${i}` }));
    const result = WorkspaceSearchResultSchema.parse({ ...page, offset: 100, query: 'x', matches, total: 400, files: 60, truncated: true, nextOffset: 150 });
    const text = renderWorkspaceSearch(result);
    assert.ok(Buffer.byteLength(text) < 8 * 1024, `${Buffer.byteLength(text)} bytes`);
    const shown = text.split('\n').filter((line) => line.startsWith('src/')).length;
    assert.ok(shown >= 20 && shown < 50, `${shown} lines`);
    assert.match(text, new RegExp(`\ntruncated: ${shown} of 400 matching lines in 60 files shown to stay under 8 KB, next offset: ${100 + shown}\\. Narrow the query or paths, or page on\\.$`));

    const items = Array.from({ length: 50 }, (_, i) => ({ name: `Extensions.Configure${i}(${'IReadOnlyDictionary<string, int>, '.repeat(6)}int)`, kind: 'method', container: 'A', signature: 'public static int Configure()', path: 'src/Configuration/Extensions.cs', line: i + 1, character: 5, endLine: i + 1, endCharacter: 9 }));
    const symbols = renderSymbolSearch(SymbolSearchResultSchema.parse({ ...page, query: 'Configure', items, total: 50 }));
    assert.ok(Buffer.byteLength(symbols) < 8 * 1024, `${Buffer.byteLength(symbols)} bytes`);
    const declarations = symbols.split('\n').filter((line) => line.startsWith('src/')).length;
    assert.match(symbols, new RegExp(`\ntruncated: ${declarations} of 50 declarations shown to stay under 8 KB, next offset: ${declarations}\\.`));

    const fits = renderWorkspaceSearch({ ...result, matches: matches.slice(0, 3) });
    assert.equal(fits.split('\n').filter((line) => line.startsWith('src/')).length, 3);
    assert.match(fits, /\ntruncated: 400 matching lines in 60 files, next offset: 150\./);
  });

  it('the budget counts bytes, not characters, and always keeps the first line', () => {
    assert.equal(linesWithinBudget(['é'.repeat(600), 'é'.repeat(600)], 2000), 1); // 1,201 bytes each.
    assert.equal(linesWithinBudget(['a'.repeat(600), 'a'.repeat(600)], 2000), 2);
    assert.equal(linesWithinBudget(['a'.repeat(9000)], 2000), 1);
    assert.equal(linesWithinBudget([], 2000), 0);
  });

  it('inputs: query required, kinds from a fixed list, no workspace-selection arguments', () => {
    assert.equal(SymbolSearchInputSchema.safeParse({}).success, false);
    assert.equal(SymbolSearchInputSchema.safeParse({ query: 'Add', kind: 'klass' }).success, false);
    assert.equal(SymbolSearchInputSchema.safeParse({ query: 'Add', target: 'A.sln' }).success, false);
    assert.equal(WorkspaceSearchInputSchema.safeParse({ query: 'x', paths: ['src/**/*.cs'], regex: true, limit: 200 }).success, true);
    assert.equal(WorkspaceSearchInputSchema.safeParse({ query: 'x', limit: 201 }).success, false);
  });
});
