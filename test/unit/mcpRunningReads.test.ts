// Read calls left running after their caller was answered `error loading` (src/surfaces/mcp/mcpRunningReads.ts):
// the same call joins one while it runs, another call starts its own, and an ended one is forgotten.
import * as assert from 'node:assert/strict';
import type { ToolOutcome } from '../../src/engine/tools/runTool';
import { callKey, RunningReads } from '../../src/surfaces/mcp/mcpRunningReads';

const outcome = (text: string): ToolOutcome => ({ ok: true, text, data: {} });

describe('mcp running reads', () => {
  it('keys a call by its tool and arguments, whatever the order of their keys', () => {
    assert.equal(callKey('navigate', { action: 'references', symbol: 'A.B', paths: ['x', 'y'] }), callKey('navigate', { symbol: 'A.B', paths: ['x', 'y'], action: 'references' }));
    assert.notEqual(callKey('navigate', { action: 'references', symbol: 'A.B' }), callKey('navigate', { action: 'callers', symbol: 'A.B' }));
    assert.notEqual(callKey('navigate', { paths: ['x', 'y'] }), callKey('navigate', { paths: ['y', 'x'] }), 'an array keeps its order');
    assert.notEqual(callKey('navigate', {}), callKey('symbols', {}));
  });

  it('joins the call left running under the same key, starts the others, and forgets a call once it ends', async () => {
    const reads = new RunningReads();
    let finish: (value: ToolOutcome) => void = () => undefined;
    const left = new Promise<ToolOutcome>((resolve) => (finish = resolve));
    reads.keep('navigate {"symbol":"A.B"}', left);
    let started = 0;
    const start = () => {
      started++;
      return Promise.resolve(outcome('started'));
    };
    assert.equal(reads.joinOrStart('navigate {"symbol":"A.B"}', start), left, 'the same call joins the one left running');
    assert.equal((await reads.joinOrStart('navigate {"symbol":"C.D"}', start)).text, 'started', 'another call starts its own');
    assert.equal(started, 1);

    finish(outcome('the answer'));
    assert.equal((await left).text, 'the answer');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(reads.size, 0, 'forgotten once it ended');
    assert.equal((await reads.joinOrStart('navigate {"symbol":"A.B"}', start)).text, 'started', 'asked after it ended: a new call');

    const failing = Promise.reject(new Error('host exited'));
    reads.keep('k', failing);
    await assert.rejects(reads.joinOrStart('k', start), /host exited/);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(reads.size, 0, 'forgotten once it failed');
  });
});
