// The error vocabulary (engine/errors.ts) and how the host's kinds reach it (toToolError: the same snake_case codes):
// cancellation is recognised by type (never by the words of a message),
// and an error nobody typed is reported as internal_error, not as a failed load.
import * as assert from 'node:assert/strict';
import { ResponseError } from 'vscode-jsonrpc';
import { hostErrorCode, toToolError } from '../../src/engine/host/hostRequester';
import { asToolError, requestCancelledCode, toolErrorCodes, ToolError } from '../../src/engine/errors';
import { LockWaitError } from '../../src/engine/workspaceLock';
import { hostErrorKinds } from '../../src/engine/protocol/semantic';

describe('tool errors', () => {
  it('knows cancellation by its type: an aborted signal, a cancelled JSON-RPC request, a cancelled lock wait', () => {
    const aborted = new Error('This operation was aborted');
    aborted.name = 'AbortError';
    assert.equal(asToolError(aborted).code, 'cancelled');
    assert.equal(asToolError(new ResponseError(requestCancelledCode, 'Request cancelled')).code, 'cancelled');
    assert.equal(asToolError(new LockWaitError('gave up', 'cancelled')).code, 'cancelled');
  });

  it('does not take a message that mentions cancelling for a cancellation', () => {
    const error = asToolError(new Error('Could not cancel the build: access denied'));
    assert.equal(error.code, 'internal_error');
    assert.equal(error.render(), 'error internal_error: Could not cancel the build: access denied');
  });

  it('reports an untyped host error or an unknown host kind as internal_error, not load_failed', () => {
    assert.equal((toToolError(new ResponseError(hostErrorCode, 'boom', { nonsense: true })) as ToolError).code, 'internal_error');
    assert.equal((toToolError(new ResponseError(hostErrorCode, 'boom', { kind: 'SomethingNew', message: 'boom' })) as ToolError).code, 'internal_error');
  });

  it('passes the host\'s kinds through as the snake_case codes agents read, reading the data with the protocol\'s schema', () => {
    for (const kind of ['target_ambiguous', 'no_target', 'permission_denied', 'missing_prerequisites', 'load_failed', 'partial_load', 'invalid_request', 'stale_edit']) {
      const error = toToolError(new ResponseError(hostErrorCode, 'x', { kind, message: 'none', candidates: ['A.sln'], projects: null, command: null })) as ToolError;
      assert.equal(error.render(), `error ${kind}: none\n  A.sln`);
    }
    // The PascalCase spelling the host once sent is not a kind any more: a bug, not a code.
    assert.equal((toToolError(new ResponseError(hostErrorCode, 'x', { kind: 'TargetAmbiguous', message: 'none', candidates: null, projects: null, command: null })) as ToolError).code, 'internal_error');
    for (const kind of hostErrorKinds) assert.ok((toolErrorCodes as readonly string[]).includes(kind), kind);
  });

  it('spells every code in snake_case', () => {
    for (const code of toolErrorCodes) assert.match(code, /^[a-z]+(_[a-z]+)*$/);
    assert.equal(asToolError(Object.assign(new Error('no host'), { name: 'HostUnavailableError' })).code, 'host_unavailable');
  });
  it("renders the host's interrupted-apply report of a failed edit after its error line, so the agent reads it (issue 36)", () => {
    const data = {
      kind: 'symbol_not_found',
      message: "No symbol named 'OldName' was found.",
      candidates: null,
      projects: null,
      command: null,
      interrupted: [
        {
          record: 'apply-1.json',
          recordFolder: '/state/ws',
          summary: 'rename OldName to NewName',
          operation: 'rename',
          startedAt: '2026-12-04T21:00:00Z',
          files: [
            { path: 'src/A.cs', newPath: null, written: true },
            { path: 'src/B.cs', newPath: null, written: false },
          ],
          removedTemporaryFiles: 1,
          undoable: true,
        },
      ],
    };
    const error = toToolError(new ResponseError(hostErrorCode, 'failed', data)) as ToolError;
    assert.equal(
      error.render(),
      [
        "error symbol_not_found: No symbol named 'OldName' was found.",
        "interrupted edit: 'rename OldName to NewName' (rename, started 2026-12-04 21:00:00Z) stopped after 1 of 2 file(s); 1 leftover temporary file(s) removed.",
        '  written: src/A.cs',
        '  not written: src/B.cs',
        '  Undo it with SharpClaw: Undo Last Edit (sharpclaw/undoEdit), or finish it by running the edit again.',
      ].join('\n'),
    );
    assert.equal((error.toJSON().interrupted ?? []).length, 1);
  });
});
