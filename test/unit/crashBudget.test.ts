import * as assert from 'node:assert/strict';
import { CrashBudget } from '../../src/engine/host/crashBudget';
import { describeHostState } from '../../src/engine/host/hostState';

describe('the host crash budget', () => {
  it('allows two crashes and stops at the third within the window', () => {
    const budget = new CrashBudget(3, 60_000);
    assert.equal(budget.recordCrash(0), false);
    assert.equal(budget.recordCrash(10_000), false);
    assert.equal(budget.recordCrash(20_000), true);
  });

  it('forgets crashes older than the window', () => {
    const budget = new CrashBudget(3, 60_000);
    budget.recordCrash(0);
    budget.recordCrash(1_000);
    assert.equal(budget.recordCrash(70_000), false, 'the first two crashes are outside the window');
    assert.equal(budget.recentCrashes, 1);
  });

  it('starts over after a reset', () => {
    const budget = new CrashBudget(2, 60_000);
    budget.recordCrash(0);
    budget.reset();
    assert.equal(budget.recordCrash(1), false);
  });

  it('describes each host state for people', () => {
    assert.match(describeHostState({ kind: 'stopped' }), /starts when a SharpClaw feature needs it/);
    assert.match(describeHostState({ kind: 'ready', pid: 42, roslynVersion: '5.12.0' }), /pid 42, Roslyn 5\.12\.0/);
    assert.match(describeHostState({ kind: 'crashed', message: 'Host died.' }), /Host died\. The next request starts a new host\./);
  });
});
