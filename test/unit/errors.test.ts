// The error vocabulary (engine/errors.ts) and its one mapping from the host's kinds (toToolError):
// cancellation is recognised by type (never by the words of a message),
// and an error nobody typed is reported as internal_error, not as a failed load.
import * as assert from 'node:assert/strict';
import { ResponseError } from 'vscode-jsonrpc';
import { hostErrorCode, toToolError } from '../../src/engine/host/hostRequester';
import { asToolError, requestCancelledCode, toolErrorCodes, ToolError } from '../../src/engine/errors';
import { LockWaitError } from '../../src/engine/workspaceLock';

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

  it('maps the host\'s PascalCase workspace kinds to the snake_case codes agents read', () => {
    const cases: Array<[string, string]> = [
      ['TargetAmbiguous', 'target_ambiguous'],
      ['NoTarget', 'no_target'],
      ['PermissionDenied', 'permission_denied'],
      ['MissingPrerequisites', 'missing_prerequisites'],
      ['LoadFailed', 'load_failed'],
      ['PartialLoad', 'partial_load'],
      ['InvalidRequest', 'invalid_request'],
      ['stale_edit', 'stale_edit'],
    ];
    for (const [kind, code] of cases) {
      const error = toToolError(new ResponseError(hostErrorCode, 'x', { kind, message: 'none', candidates: ['A.sln'] })) as ToolError;
      assert.equal(error.render(), `error ${code}: none\n  A.sln`);
    }
  });

  it('spells every code in snake_case', () => {
    for (const code of toolErrorCodes) assert.match(code, /^[a-z]+(_[a-z]+)*$/);
    assert.equal(asToolError(Object.assign(new Error('no host'), { name: 'HostUnavailableError' })).code, 'host_unavailable');
  });
});
