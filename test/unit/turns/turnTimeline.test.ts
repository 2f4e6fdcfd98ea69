// The sidebar's turn timeline (src/engine/turns/turnTimeline.ts), from events as the loop appends
// them to the workspace's log: one line per edit, check and repair, in order, then the verdict.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TurnEventLog } from '../../../src/engine/turns/turnEvents';
import { turnTimelines } from '../../../src/engine/turns/turnTimeline';

describe('the turn timeline', () => {
  let folder: string;
  let log: TurnEventLog;
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-timeline-'));
    log = new TurnEventLog(folder);
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  function repairedTurn(turnId: string, prompt: string): void {
    log.append({ type: 'turnStarted', turnId, mode: 'build', prompt, maxRepairIterations: 2 });
    log.append({ type: 'mutationRecorded', turnId, mutationId: `${turnId}-1`, file: '/ws/Shop/Pricing.cs', tool: 'sharpclaw_edit_file', kind: 'source' });
    log.append({ type: 'passFinished', turnId, pass: 0, usage: null, error: null });
    log.append({ type: 'verificationStarted', turnId, check: 0, scope: 'affected' });
    log.append({ type: 'verificationFinished', turnId, check: 0, status: 'failed', summary: 'build failed (1 error(s))' });
    log.append({ type: 'repairStarted', turnId, attempt: 1, of: 2 });
    log.append({ type: 'mutationRecorded', turnId, mutationId: `${turnId}-2`, file: '/ws/Shop/Pricing.cs', tool: 'sharpclaw_edit_file', kind: 'source' });
    log.append({ type: 'passFinished', turnId, pass: 1, usage: null, error: null });
    log.append({ type: 'verificationStarted', turnId, check: 1, scope: 'affected' });
    log.append({ type: 'verificationFinished', turnId, check: 1, status: 'passed', summary: 'passed: build passed' });
    log.append({ type: 'turnFinished', turnId, verdict: 'passed', succeeded: true, summary: 'Checked 2 times.', checkpointId: turnId, mutations: 2, repairs: 1, usage: null, passesWithoutUsage: 2 });
  }

  it('lists edits, checks and repairs in order, one line per check, then the verdict', () => {
    repairedTurn('t1', 'change Total');
    const [turn] = turnTimelines(log.read(), '/ws');
    assert.ok(turn);
    assert.equal(turn.prompt, 'change Total');
    assert.deepEqual(
      turn.entries.map((entry) => entry.text),
      [
        'edit Shop/Pricing.cs (sharpclaw_edit_file)',
        'check 0 affected: failed — build failed (1 error(s))',
        'repair 1 of 2',
        'edit Shop/Pricing.cs (sharpclaw_edit_file)',
        'check 1 affected: passed: build passed', // the summary's own status is not said twice
      ],
    );
    assert.deepEqual(turn.entries.map((entry) => entry.tone), ['neutral', 'bad', 'neutral', 'neutral', 'ok']);
    assert.equal(turn.entries[0]!.file, '/ws/Shop/Pricing.cs');
    assert.equal(turn.verdict?.text, 'Verified after 1 repair. Checked 2 times.');
    assert.equal(turn.verdict?.tone, 'ok');
  });

  it('shows a running check and no verdict while the turn runs, and a failed pass', () => {
    log.append({ type: 'turnStarted', turnId: 't1', mode: 'build', prompt: 'p', maxRepairIterations: 2 });
    log.append({ type: 'passFinished', turnId: 't1', pass: 0, usage: null, error: 'the provider failed' });
    log.append({ type: 'verificationStarted', turnId: 't1', check: 0, scope: 'all' });
    const [turn] = turnTimelines(log.read(), '/ws');
    assert.deepEqual(turn!.entries.map((entry) => entry.text), ['pass 0 failed: the provider failed', 'check 0 all…']);
    assert.equal(turn!.verdict, undefined);
  });

  it('puts the newest turn first, keeps at most the limit, and shortens long prompts', () => {
    for (let index = 0; index < 7; index++) repairedTurn(`t${index}`, index === 6 ? 'x'.repeat(500) : `turn ${index}`);
    const turns = turnTimelines(log.read(), '/ws', 5);
    assert.deepEqual(turns.map((turn) => turn.turnId), ['t6', 't5', 't4', 't3', 't2']);
    assert.equal(turns[0]!.prompt.length, 120);
    assert.ok(turns[0]!.prompt.endsWith('…'));
  });

  it('names the mode of a /plan turn and says it was not verified', () => {
    log.append({ type: 'turnStarted', turnId: 't1', mode: 'plan', prompt: 'how?', maxRepairIterations: 2 });
    log.append({ type: 'turnFinished', turnId: 't1', verdict: 'notVerified', succeeded: true, summary: '/plan turns are never verified.', checkpointId: 't1', mutations: 0, repairs: 0, usage: null, passesWithoutUsage: 1 });
    const [turn] = turnTimelines(log.read(), '/ws');
    assert.equal(turn!.mode, 'plan');
    assert.equal(turn!.verdict?.text, 'Not verified. /plan turns are never verified.');
    // A turn that ended well without a passing check is not shown in the passed check's green.
    assert.equal(turn!.verdict?.tone, 'neutral');
  });

  it('colours a verdict green only when its check passed', () => {
    const verdicts = [
      ['passed', true, 'ok'],
      ['notVerified', true, 'neutral'],
      ['skipped', true, 'neutral'],
      ['unverified', false, 'bad'],
      ['failed', false, 'bad'],
      ['cancelled', false, 'bad'],
      ['error', false, 'bad'],
    ] as const;
    for (const [verdict, succeeded] of verdicts) {
      log.append({ type: 'turnStarted', turnId: verdict, mode: 'build', prompt: verdict, maxRepairIterations: 2 });
      log.append({ type: 'turnFinished', turnId: verdict, verdict, succeeded, summary: '.', checkpointId: verdict, mutations: 0, repairs: 0, usage: null, passesWithoutUsage: 1 });
    }
    const tones = new Map(turnTimelines(log.read(), '/ws', verdicts.length).map((turn) => [turn.turnId, turn.verdict?.tone]));
    assert.deepEqual(verdicts.map(([verdict]) => tones.get(verdict)), verdicts.map(([, , tone]) => tone));
  });
});
