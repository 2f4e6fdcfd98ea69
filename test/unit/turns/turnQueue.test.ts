// Overlapping @sharpclaw requests (src/engine/turns/turnQueue.ts): the second waits until the
// first has finished, is told it waits, and can be cancelled while waiting without running.
import * as assert from 'node:assert/strict';
import { TurnQueue, TurnWaitCancelledError } from '../../../src/engine/turns/turnQueue';

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('the turn queue', () => {
  it('runs overlapping turns one after another, in the order they came, and says when one waits', async () => {
    const queue = new TurnQueue();
    const order: string[] = [];
    const waited: string[] = [];
    let finishFirst!: () => void;
    const first = queue.run(new AbortController().signal, () => waited.push('first'), async () => {
      order.push('first started');
      await new Promise<void>((resolve) => (finishFirst = resolve));
      order.push('first finished');
    });
    const second = queue.run(new AbortController().signal, () => waited.push('second'), async () => {
      order.push('second started');
    });
    await tick();
    assert.deepEqual(order, ['first started'], 'the second turn must not start while the first runs');
    assert.deepEqual(waited, ['second']);
    finishFirst();
    await Promise.all([first, second]);
    assert.deepEqual(order, ['first started', 'first finished', 'second started']);
    assert.equal(queue.busy, false);
  });

  it('a turn cancelled while it waits never runs, and the next one still waits for the running turn', async () => {
    const queue = new TurnQueue();
    const order: string[] = [];
    let finishFirst!: () => void;
    const first = queue.run(new AbortController().signal, () => undefined, () => new Promise<void>((resolve) => (finishFirst = resolve)).then(() => void order.push('first')));
    const cancel = new AbortController();
    const second = queue.run(cancel.signal, () => undefined, async () => void order.push('second'));
    const third = queue.run(new AbortController().signal, () => undefined, async () => void order.push('third'));
    cancel.abort();
    await assert.rejects(second, TurnWaitCancelledError);
    await tick();
    assert.deepEqual(order, [], 'the third turn must wait for the first, not for the cancelled second');
    finishFirst();
    await Promise.all([first, third]);
    assert.deepEqual(order, ['first', 'third']);
  });

  it('a failed turn does not block the next', async () => {
    const queue = new TurnQueue();
    await assert.rejects(queue.run(new AbortController().signal, () => undefined, async () => Promise.reject(new Error('the model failed'))), /the model failed/);
    assert.equal(await queue.run(new AbortController().signal, () => undefined, async () => 'ran'), 'ran');
  });
});
