import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultVerificationSettings, type VerificationSettings } from '../../../src/engine/config/verificationSettings';
import { CheckpointStore } from '../../../src/engine/turns/checkpointStore';
import { TurnEventLog, type TurnEvent } from '../../../src/engine/turns/turnEvents';
import { TurnRecorder, type Checkpoint } from '../../../src/engine/turns/turnRecorder';
import { PassFailedError, runTurnLoop, type PassInput, type TurnLoopOptions } from '../../../src/engine/turns/verifyRepairLoop';
import type { VerifyRequest } from '../../../src/engine/verification/request';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { diagnostic, failedTest, report } from './reports';

const enabled: VerificationSettings = { ...defaultVerificationSettings, enabled: true };

/** A scripted turn: each pass writes the files it is given; each check returns the next report. */
function scriptedTurn(options: {
  mode?: TurnLoopOptions['mode'];
  settings?: VerificationSettings;
  passes: { writes?: string[]; usage?: { inputTokens: number; outputTokens: number } | 'throws' }[];
  reports: VerificationReport[];
  recoveredEvents?: TurnEvent[];
  abortDuringPass?: number;
}) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-turn-'));
  const log = new TurnEventLog(folder);
  const recorder = new TurnRecorder('turn1', '/ws');
  const inputs: PassInput[] = [];
  const requests: VerifyRequest[] = [];
  const saved: Checkpoint[] = [];
  const savedWithAbortedSignal: boolean[] = [];
  const controller = new AbortController();
  let passIndex = 0;
  const run = runTurnLoop({
    turnId: 'turn1',
    mode: options.mode ?? 'build',
    prompt: 'add a method',
    settings: options.settings ?? enabled,
    recorder,
    events: log,
    signal: controller.signal,
    ...(options.recoveredEvents ? { recoveredEvents: options.recoveredEvents } : {}),
    baselineDiagnostics: [diagnostic('/ws/Old.cs', 1, 'CS0001', 'old error')],
    async runPass(input) {
      const index = passIndex++;
      inputs.push(input);
      const script = options.passes[index] ?? {};
      for (const file of script.writes ?? []) recorder.record({ id: `p${index}-${file}`, file: `/ws/${file}`, tool: 'csharp_edit', before: 'a', after: `b${index}` });
      if (options.abortDuringPass === index) {
        controller.abort();
        throw new Error('cancelled');
      }
      if (script.usage === 'throws') throw new PassFailedError('provider failed');
      return script.usage ? { usage: script.usage } : {};
    },
    async verify(request) {
      requests.push(request);
      const next = options.reports.shift();
      if (!next) throw new Error('no more scripted reports');
      return next;
    },
    saveCheckpoint(checkpoint, signal) {
      saved.push(checkpoint);
      savedWithAbortedSignal.push(signal.aborted);
    },
  });
  return { run, log, inputs, requests, saved, savedWithAbortedSignal, recorder, cleanup: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

const broken = () => report('failed', { errors: [diagnostic('/ws/A.cs', 3, 'CS1002', '; expected'), diagnostic('/ws/Old.cs', 1, 'CS0001', 'old error')] });

describe('the verify-and-repair loop', () => {
  it('verifies a build-mode turn that changed source, repairs the failure and ends passed', async () => {
    const turn = scriptedTurn({ passes: [{ writes: ['A.cs'], usage: { inputTokens: 10, outputTokens: 5 } }, { writes: ['A.cs'], usage: { inputTokens: 20, outputTokens: 7 } }], reports: [broken(), report('passed')] });
    const outcome = await turn.run;
    assert.equal(outcome.verdict, 'passed');
    assert.equal(outcome.succeeded, true);
    assert.equal(outcome.repairs, 1);
    assert.equal(outcome.checks, 2);
    assert.deepEqual(outcome.usage, { inputTokens: 30, outputTokens: 12 });
    assert.equal(turn.inputs[1]!.kind, 'repair');
    const input = turn.inputs[1]!.kind === 'repair' ? turn.inputs[1]!.repairInput : '';
    assert.ok(input.indexOf('CS1002') < input.indexOf('CS0001'), 'the error new against the turn start comes first');
    // The automatic check: the configured scope over the turn's own changes, 600 s, no restore.
    assert.deepEqual(turn.requests[0], { scope: 'affected', configuration: 'Debug', restore: false, timeoutSeconds: 600, testSelection: 'all', changedFiles: ['A.cs'] });
    const types = turn.log.turn('turn1').map((event) => event.type);
    assert.deepEqual(types, ['turnStarted', 'passFinished', 'mutationRecorded', 'verificationStarted', 'verificationFinished', 'repairStarted', 'passFinished', 'mutationRecorded', 'verificationStarted', 'verificationFinished', 'turnFinished']);
    assert.equal(outcome.checkpoint.mutations.length, 2);
    assert.ok(outcome.checkpoint.finalizedAt);
    turn.cleanup();
  });

  it('ends failed with the report when the budget runs out (default 2: one check plus two repairs and their checks)', async () => {
    const turn = scriptedTurn({ passes: [{ writes: ['A.cs'] }, { writes: ['A.cs'] }, { writes: ['A.cs'] }], reports: [broken(), broken(), broken()] });
    const outcome = await turn.run;
    assert.equal(outcome.verdict, 'failed');
    assert.equal(outcome.succeeded, false);
    assert.equal(outcome.repairs, 2);
    assert.equal(outcome.checks, 3);
    assert.equal(outcome.report?.status, 'failed');
    assert.match(outcome.summary, /2 of 2 repairs used/);
    // The report is kept on the turn: the final checkpoint carries it, and the store reads it back.
    assert.equal(turn.saved.at(-1)!.report?.status, 'failed');
    const store = new CheckpointStore(path.join(os.tmpdir(), `sc-turn-store-${process.pid}`));
    store.save(turn.saved.at(-1)!);
    assert.equal(store.load('turn1')!.report?.build?.diagnostics[0]?.code, 'CS1002');
    fs.rmSync(path.dirname(store.folder), { recursive: true, force: true });
    turn.cleanup();
  });

  it('budget 0 verifies without repairing', async () => {
    const turn = scriptedTurn({ settings: { ...enabled, maxRepairIterations: 0 }, passes: [{ writes: ['A.cs'] }], reports: [broken()] });
    const outcome = await turn.run;
    assert.equal(outcome.verdict, 'failed');
    assert.equal(outcome.checks, 1);
    assert.equal(turn.inputs.length, 1);
    assert.match(outcome.summary, /Repairs are off/);
    turn.cleanup();
  });

  for (const mode of ['plan', 'spec', 'research'] as const) {
    it(`a /${mode} turn never verifies, even with a recorded change`, async () => {
      const turn = scriptedTurn({ mode, passes: [{ writes: ['A.cs'] }], reports: [] });
      const outcome = await turn.run;
      assert.equal(outcome.verdict, 'notVerified');
      assert.equal(turn.requests.length, 0);
      turn.cleanup();
    });
  }

  it('no recorded mutation, or only non-build files, means no check', async () => {
    for (const writes of [[], ['README.md']]) {
      const turn = scriptedTurn({ passes: [{ writes }], reports: [] });
      const outcome = await turn.run;
      assert.equal(outcome.verdict, 'notVerified');
      assert.equal(turn.requests.length, 0);
      turn.cleanup();
    }
  });

  it('verification disabled (the default) means no check', async () => {
    const turn = scriptedTurn({ settings: defaultVerificationSettings, passes: [{ writes: ['A.cs'] }], reports: [] });
    assert.equal((await turn.run).verdict, 'notVerified');
    assert.equal(turn.requests.length, 0);
    turn.cleanup();
  });

  for (const status of ['denied', 'missingPrerequisites', 'skipped', 'timedOut'] as const) {
    it(`a ${status} check starts no repair`, async () => {
      const turn = scriptedTurn({ passes: [{ writes: ['Lib.csproj'] }], reports: [report(status)] });
      const outcome = await turn.run;
      assert.equal(outcome.repairs, 0);
      assert.equal(turn.inputs.length, 1);
      assert.equal(outcome.verdict, status === 'skipped' ? 'skipped' : 'unverified');
      assert.equal(outcome.succeeded, status === 'skipped');
      turn.cleanup();
    });
  }

  it('failed tests are repair input with their messages', async () => {
    const turn = scriptedTurn({ passes: [{ writes: ['A.cs'] }, {}], reports: [report('failed', { failedTests: [failedTest('Adds', 'Assert.Equal() Failure: Expected 3, Actual 4')] }), report('passed')] });
    await turn.run;
    const input = turn.inputs[1]!.kind === 'repair' ? turn.inputs[1]!.repairInput : '';
    assert.match(input, /Failed tests:\n- Adds \(Tests\/Tests\.csproj, Failed\): Assert\.Equal\(\) Failure: Expected 3, Actual 4/);
    turn.cleanup();
  });

  it('cancellation mid-repair finalizes the checkpoint with its own signal, not the cancelled one', async () => {
    const turn = scriptedTurn({ passes: [{ writes: ['A.cs'] }, { writes: ['B.cs'] }], reports: [broken()], abortDuringPass: 1 });
    const outcome = await turn.run;
    assert.equal(outcome.verdict, 'cancelled');
    assert.equal(outcome.succeeded, false);
    assert.deepEqual(outcome.checkpoint.mutations.map((m) => m.file), ['/ws/A.cs', '/ws/B.cs']);
    assert.ok(outcome.checkpoint.finalizedAt);
    assert.equal(turn.savedWithAbortedSignal.at(-1), false, 'the finalize step has its own bounded signal');
    assert.equal(turn.saved.at(-1)!.finalizedAt !== null, true);
    turn.cleanup();
  });

  it('the repairStarted event is appended before the repair pass runs', async () => {
    let eventsAtRepair: string[] = [];
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-turn-'));
    const log = new TurnEventLog(folder);
    const recorder = new TurnRecorder('t', '/ws');
    const reports = [broken(), report('passed')];
    await runTurnLoop({
      turnId: 't', mode: 'build', prompt: 'p', settings: enabled, recorder, events: log, signal: new AbortController().signal,
      async runPass(input) {
        if (input.kind === 'repair') eventsAtRepair = log.turn('t').map((event) => event.type);
        else recorder.record({ id: '1', file: '/ws/A.cs', tool: 'csharp_edit', before: 'a', after: 'b' });
        return {};
      },
      verify: async () => reports.shift()!,
      saveCheckpoint: () => undefined,
    });
    assert.equal(eventsAtRepair.at(-1), 'repairStarted');
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('same-turn recovery keeps consumed attempts and never raises the ceiling', async () => {
    const recovered: TurnEvent[] = [
      { type: 'turnStarted', turnId: 'turn1', at: 'x', mode: 'build', prompt: 'p', maxRepairIterations: 2 },
      { type: 'repairStarted', turnId: 'turn1', at: 'x', attempt: 1, of: 2 },
    ];
    const turn = scriptedTurn({ settings: { ...enabled, maxRepairIterations: 5 }, recoveredEvents: recovered, passes: [{ writes: ['A.cs'] }, { writes: ['A.cs'] }], reports: [broken(), broken()] });
    const outcome = await turn.run;
    assert.equal(outcome.ceiling, 2);
    assert.equal(outcome.repairs, 2);
    assert.equal(turn.inputs.length, 2, 'only one repair was left');
    turn.cleanup();
  });

  it('a pass whose provider failed before reporting usage reports none; completed passes are summed', async () => {
    const turn = scriptedTurn({ passes: [{ writes: ['A.cs'], usage: { inputTokens: 10, outputTokens: 1 } }, { usage: 'throws' }], reports: [broken()] });
    const outcome = await turn.run;
    assert.equal(outcome.verdict, 'error');
    assert.deepEqual(outcome.usage, { inputTokens: 10, outputTokens: 1 });
    assert.equal(outcome.passesWithoutUsage, 1);
    const passes = turn.log.turn('turn1').filter((event) => event.type === 'passFinished');
    assert.equal(passes[1]?.type === 'passFinished' ? passes[1].usage : 'missing', null);
    turn.cleanup();
  });
});
