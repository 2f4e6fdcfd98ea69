// The compact text of csharp_symbol_search and csharp_workspace_search (engine/tools/store/): the
// syntax-only first line, one line per result, the empty, past-the-end and truncated answers.
import * as assert from 'node:assert/strict';
import { SymbolSearchResultSchema, WorkspaceSearchResultSchema } from '../../src/engine/protocol/store';
import { renderSymbolSearch, renderWorkspaceSearch, syntaxOnlyLine } from '../../src/engine/tools/store/renderStore';
import { SymbolSearchInputSchema, WorkspaceSearchInputSchema } from '../../src/engine/tools/store/storeTools';

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
    assert.match(renderWorkspaceSearch({ ...result, matches: [], total: 0 }), /\nno matches for add \(3 C# files searched\)$/);
  });

  it('inputs: query required, kinds from a fixed list, no workspace-selection arguments', () => {
    assert.equal(SymbolSearchInputSchema.safeParse({}).success, false);
    assert.equal(SymbolSearchInputSchema.safeParse({ query: 'Add', kind: 'klass' }).success, false);
    assert.equal(SymbolSearchInputSchema.safeParse({ query: 'Add', target: 'A.sln' }).success, false);
    assert.equal(WorkspaceSearchInputSchema.safeParse({ query: 'x', paths: ['src/**/*.cs'], regex: true, limit: 200 }).success, true);
    assert.equal(WorkspaceSearchInputSchema.safeParse({ query: 'x', limit: 201 }).success, false);
  });
});
