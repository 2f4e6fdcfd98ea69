// Input rules and renderings of csharp_rename_symbol / csharp_edit, and the write authorization callback.
import * as assert from 'node:assert/strict';
import type { PermissionPolicy, PermissionRequest } from '../../src/engine/permissions/permissionPolicy';
import { registerHostCallbacks, writeFileLines } from '../../src/engine/host/hostCallbacks';
import { toToolError } from '../../src/engine/host/hostRequester';
import { EditInputSchema, editParams, RenameSymbolInputSchema } from '../../src/engine/tools/edits/editTools';
import { ToolError } from '../../src/engine/errors';

describe('edit tools', () => {
  it('csharp_rename_symbol needs a selector and newName, or proposalId with apply', () => {
    assert.ok(RenameSymbolInputSchema.safeParse({ name: 'Calculator.Add', newName: 'Sum' }).success);
    assert.ok(RenameSymbolInputSchema.safeParse({ path: 'Calculator.cs', line: 6, character: 16, newName: 'Sum' }).success);
    assert.ok(RenameSymbolInputSchema.safeParse({ proposalId: '3f2a9c', apply: true }).success);
    assert.equal(RenameSymbolInputSchema.safeParse({ name: 'Calculator.Add' }).success, false);
    assert.equal(RenameSymbolInputSchema.safeParse({ proposalId: '3f2a9c' }).success, false);
    assert.equal(RenameSymbolInputSchema.safeParse({ name: 'A', newName: 'B', force: true }).success, false, 'unknown arguments are rejected');
  });

  it('csharp_edit takes the spec flat arguments; file is an alias of path, symbol of name', () => {
    const parsed = EditInputSchema.parse({ action: 'code_actions', file: 'src/Formatter.cs', diagnostic: 'CS0168', all: true });
    assert.deepEqual(editParams(parsed), { action: 'code_actions', path: 'src/Formatter.cs', diagnostic: 'CS0168', all: true });
    assert.equal(EditInputSchema.safeParse({ action: 'move' }).success, false);
    assert.equal(EditInputSchema.safeParse({ action: 'code_actions', actionIndex: -1 }).success, false);
    assert.equal(EditInputSchema.safeParse({ action: 'rename', file: 'a.cs', path: 'b.cs' }).success, false);
    // The bridge spec: "navigate and edit accept a symbol name instead of a position".
    assert.deepEqual(editParams(EditInputSchema.parse({ action: 'rename', symbol: 'Calculator.Add', newName: 'Sum' })), { action: 'rename', name: 'Calculator.Add', newName: 'Sum' });
    assert.equal(EditInputSchema.safeParse({ action: 'rename', symbol: 'A.B', name: 'C.D', newName: 'E' }).success, false);
    // A proposal knows its action: proposalId alone (with apply, or actionIndex) needs none; anything else does.
    assert.deepEqual(editParams(EditInputSchema.parse({ proposalId: '3f2a9c', apply: true })), { proposalId: '3f2a9c', apply: true });
    assert.deepEqual(editParams(EditInputSchema.parse({ proposalId: '3f2a9c', actionIndex: 2 })), { proposalId: '3f2a9c', actionIndex: 2 });
    assert.match(EditInputSchema.safeParse({ file: 'a.cs', line: 1 }).error?.issues[0]?.message ?? '', /Give action .* or the proposalId/);
  });

  it('maps edit error kinds to typed tool errors with their detail lines', () => {
    const error = toToolError({
      code: -32001,
      message: 'x',
      data: { kind: 'new_errors', message: 'Renaming would introduce 1 compiler error(s); nothing was changed.', candidates: null, projects: null, command: null, details: ['Lib/A.cs:3:5 error CS0102 dup'] },
    });
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, 'new_errors');
    assert.equal(error.render(), 'error new_errors: Renaming would introduce 1 compiler error(s); nothing was changed.\n  Lib/A.cs:3:5 error CS0102 dup');
    for (const kind of ['stale_edit', 'unverified', 'invalid_identifier', 'rename_conflict', 'outside_workspace', 'write_failed', 'content_changed']) {
      const typed = toToolError({ code: -32001, message: 'x', data: { kind, message: 'm', candidates: null, projects: null, command: null } }) as ToolError;
      assert.equal(typed.code, kind);
    }
  });

  it('asks the permission policy (kind write) with every file and its occurrences, and refuses other folders', async () => {
    const handlers = new Map<string, (params: unknown) => Promise<unknown>>();
    const asked: PermissionRequest[] = [];
    const permissions: PermissionPolicy = {
      request: async (request) => {
        asked.push(request);
        return { granted: false, source: 'cli-flag', message: 'Pass --allow-write to allow it.' };
      },
    };
    registerHostCallbacks(
      { onRequest: (method, handler) => handlers.set(method, handler), onNotification: () => undefined },
      { workspaceFolder: '/work/ws', permissions, requestedBy: () => 'test', onProgress: () => undefined },
    );
    const params = {
      workspace: '/work/ws',
      operation: 'rename',
      summary: 'rename Calculator.Add to Sum',
      files: [
        { path: 'Lib/Calculator.cs', newPath: null, occurrences: 2 },
        { path: 'Lib/A.cs', newPath: 'Lib/B.cs', occurrences: 1 },
      ],
      tool: 'csharp_rename_symbol',
      call: null,
    };
    const answer = await handlers.get('sharpclaw/authorizeWrite')!(params);
    assert.deepEqual(answer, { granted: false, message: 'Pass --allow-write to allow it.' });
    assert.equal(asked[0]!.kind, 'write');
    assert.equal(asked[0]!.requestedBy, 'csharp_rename_symbol');
    assert.deepEqual(asked[0]!.files, ['Lib/Calculator.cs (2 occurrences)', 'Lib/A.cs -> Lib/B.cs']);
    assert.deepEqual(writeFileLines(params), asked[0]!.files);
    const outside = await handlers.get('sharpclaw/authorizeWrite')!({ ...params, workspace: '/elsewhere' });
    assert.equal((outside as { granted: boolean }).granted, false);
    assert.equal(asked.length, 1, 'a write outside the workspace is refused without asking');
  });
});
