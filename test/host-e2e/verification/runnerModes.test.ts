// The verifier against real dotnet, once per runner mode: VSTest (fixtures/VerificationGraph),
// Microsoft.Testing.Platform (VerificationMtpMode), an MTP app in a VSTest-mode workspace
// (VerificationMtpUnderVstest) and a test framework whose runtime is not installed
// (VerificationMissingRuntime). A failing VSTest test (VerificationFailingTest) runs for real in the
// integration layer's verification suite (Verify Affected names it) and through its recording in unit. Each real run must give the report recorded from it in
// test/unit/verification/recorded/<case> (times, logs and run folders aside), where the unit tests
// replay it through the runner's process-runner seam and assert what it says: so a recording cannot
// go stale silently (re-record with test/host-e2e/verification/recordRuns.ts). That the MTP modes' counters
// are what `dotnet test` itself printed is asserted on those recordings (recordedVerifications.test.ts, "count
// what dotnet test printed"), not by a second, plain `dotnet test` here; a timeout and a cancellation kill the
// whole process tree.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { resolveVerifyRequest } from '../../../src/engine/config/settings';
import { VerificationReportSchema, type VerificationReport } from '../../../src/engine/verification/report';
import { parseVerifyOptions, type RawVerifyOptions } from '../../../src/engine/verification/request';
import { verify, type VerifyContext } from '../../../src/engine/verification/runner';
import { recordedRun } from '../../unit/verification/replayedRuns';
import { cases, placeholders } from './recordRuns';
import { cleanUpCopies, copyFixture, hostEvaluationRequests, hostFor, RecordingPolicy, runningCommands, tempStateRoot, waitFor } from '../support';

async function run(workspace: string, options: RawVerifyOptions, context: Partial<VerifyContext> = {}): Promise<VerificationReport> {
  const report = await verify(resolveVerifyRequest(parseVerifyOptions(options)), {
    workspaceFolder: workspace,
    permissions: new RecordingPolicy(true),
    requestedBy: 'host-e2e',
    stateRoot: context.stateRoot ?? tempStateRoot(),
    host: hostFor(workspace),
    ...context,
  });
  // The person's one approval of the verification covered the host's evaluation: it never asked again.
  assert.deepEqual(hostEvaluationRequests, []);
  return VerificationReportSchema.parse(report);
}

/**
 * What two runs of the same commands share: the report without times, logs (they print durations) and
 * run folders, TRX names without their time stamps, steps in one order (test projects run two at a time).
 */
function comparable(report: unknown, roots?: { workspace: string; state: string }): unknown {
  const text = (roots ? placeholders(JSON.stringify(report), roots) : JSON.stringify(report))
    .replace(/\{state\}\/workspaces\/[0-9a-f]{16}\/runs\/[^/"\\ ]+/g, '{run}')
    .replace(/[\d_.-]{8,}(?=\.trx)/g, '{time}');
  const value = JSON.parse(text, (key, inner: unknown) => (['startedAt', 'finishedAt', 'durationMs', 'lockWaitMs', 'log'].includes(key) ? undefined : inner)) as { steps?: Array<{ commandLine: string }> };
  value.steps?.sort((a, b) => a.commandLine.localeCompare(b.commandLine));
  return value;
}

const modes: Array<{ name: keyof typeof cases; title: string; premise?: () => string | undefined }> = [
  { name: 'vstest-graph-all', title: 'VSTest: a chain, a diamond, a linked file, multi-targeted and special test projects' },
  { name: 'mtp-mode', title: 'Microsoft.Testing.Platform: a global.json runner, xunit.v3 and MSTest.Sdk' },
  { name: 'mtp-under-vstest', title: 'an MTP app in a VSTest-mode workspace' },
  {
    name: 'vstest-missing-runtime',
    title: 'a test framework whose runtime is not installed (net8.0 beside net10.0)',
    premise: () => (/Microsoft\.NETCore\.App 8\./.test(execFileSync('dotnet', ['--list-runtimes'], { encoding: 'utf8' })) ? 'a .NET 8 runtime is installed here' : undefined),
  },
];

for (const mode of modes) {
  describe(`verification with real dotnet, ${mode.title} (fixtures/${cases[mode.name].fixture})`, function () {
    this.timeout(900_000);
    const recorded = recordedRun(mode.name);
    let workspace: string;
    let state: string;
    let report: VerificationReport;

    before(async function () {
      if (mode.premise?.()) this.skip();
      const spec = cases[mode.name];
      workspace = copyFixture(spec.fixture, spec.restore ?? []);
      state = tempStateRoot();
      report = await run(workspace, recorded.request, { stateRoot: state });
    });
    after(cleanUpCopies);

    it(`gives the report recorded from it (test/unit/verification/recorded/${mode.name}, whose content the unit tests assert): ${recorded.report ? (recorded.report as VerificationReport).status : ''}`, () => {
      // On a mismatch, each test project's reason and TRX files say which way it went (the run folder goes with the clean-up).
      const projects = (report.tests?.projects ?? []).map((p) => `${p.project}: ${p.status}; ${p.reason ?? ''}; TRX ${p.trxFiles.map((file) => path.basename(file)).join(', ')}`);
      assert.equal(report.status, (recorded.report as VerificationReport).status, [report.summary, ...projects].join('\n'));
      assert.deepEqual(comparable(report, { workspace, state }), comparable(recorded.report), `the real run no longer gives the recorded report: if that is intended, re-record (node out/test/host-e2e/verification/recordRuns.js ${mode.name})`);
    });
  });
}

describe('verification with real dotnet: timeouts, cancellation and the process tree', function () {
  this.timeout(180_000);
  let workspace: string;
  const sleeper = 'sleep 87';
  const previous = process.env.SlowSeconds;
  before(() => {
    workspace = copyFixture('VerificationSlow', 'Slow/Slow.csproj');
    process.env.SlowSeconds = '87'; // MSBuild reads environment variables as properties
  });
  after(() => {
    if (previous === undefined) delete process.env.SlowSeconds;
    else process.env.SlowSeconds = previous;
    return cleanUpCopies();
  });
  const sleepers = () => runningCommands().filter((command) => command === sleeper);

  it('a cancellation stops the build, kills the whole tree and is reported as cancelled', async () => {
    const controller = new AbortController();
    const pending = run(workspace, { scope: 'build', target: 'Slow/Slow.csproj', timeout: '120' }, { signal: controller.signal });
    await waitFor('the build to reach its sleep step', () => sleepers().length > 0, 180_000);
    controller.abort();
    const report = await pending;
    assert.equal(report.status, 'cancelled', report.summary);
    assert.equal(report.steps.find((step) => step.kind === 'build')!.outcome, 'cancelled');
    await waitFor('the sleeping grandchild to be gone', () => sleepers().length === 0, 5000);
  });

  it('a timeout stops the build, kills the whole tree and is reported as timedOut', async () => {
    // After the cancellation above, the host has the project graph: the 8 s go to the SDK check and the build.
    const report = await run(workspace, { scope: 'build', target: 'Slow/Slow.csproj', timeout: '8' });
    assert.equal(report.status, 'timedOut', report.summary);
    assert.ok(report.durationMs >= 7000, `stopped after ${report.durationMs} ms, before its 8 s`);
    const build = report.steps.find((step) => step.kind === 'build');
    assert.equal(build?.outcome, 'timedOut', JSON.stringify(report.steps.map((step) => step.kind)));
    assert.ok(build!.durationMs < 20_000, `the build was stopped after ${build!.durationMs} ms (it sleeps 87 s)`);
    await waitFor('the sleeping grandchild to be gone', () => sleepers().length === 0, 5000);
  });
});

