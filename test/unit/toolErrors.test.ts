// asToolError / toToolError: cancellation is recognised by type (never by the words of a message),
// and an error nobody typed is reported as internal_error, not as a failed load.
import * as assert from 'node:assert/strict';
import { ResponseError } from 'vscode-jsonrpc';
import { hostErrorCode, toToolError } from '../../src/engine/host/hostRequester';
import { asToolError, requestCancelledCode, ToolError } from '../../src/engine/tools/toolErrors';
import { LockWaitError } from '../../src/engine/workspaceLock';

describe('tool errors', () => {
  it('knows cancellation by its type: an aborted signal, a cancelled JSON-RPC request, a cancelled lock wait', () => {
    const aborted = new Error('This operation was aborted');
    aborted.name = 'AbortError';
    assert.equal(asToolError(aborted).code, 'Cancelled');
    assert.equal(asToolError(new ResponseError(requestCancelledCode, 'Request cancelled')).code, 'Cancelled');
    assert.equal(asToolError(new LockWaitError('gave up', 'cancelled')).code, 'Cancelled');
  });

  it('does not take a message that mentions cancelling for a cancellation', () => {
    const error = asToolError(new Error('Could not cancel the build: access denied'));
    assert.equal(error.code, 'internal_error');
    assert.equal(error.render(), 'error internal_error: Could not cancel the build: access denied');
  });

  it('reports an untyped host error or an unknown host kind as internal_error, not LoadFailed', () => {
    assert.equal((toToolError(new ResponseError(hostErrorCode, 'boom', { nonsense: true })) as ToolError).code, 'internal_error');
    assert.equal((toToolError(new ResponseError(hostErrorCode, 'boom', { kind: 'SomethingNew', message: 'boom' })) as ToolError).code, 'internal_error');
    assert.equal((toToolError(new ResponseError(hostErrorCode, 'x', { kind: 'NoTarget', message: 'none' })) as ToolError).code, 'NoTarget');
  });
});
