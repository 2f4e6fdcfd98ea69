// The verification runner against real dotnet, real MSBuild evaluation and real Git, on
// temporary copies of fixtures/Verification*. Copies are shared within a describe block, so
// each fixture is restored and built once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newCallId } from '../../../src/engine/permissions/grants';
import { endCall, PermissionGate } from '../../../src/engine/permissions/permissionGate';
import type { HostRequester } from '../../../src/engine/host/hostRequester';
import type { PermissionPolicy } from '../../../src/engine/permissions/permissionPolicy';
import { CliPermissionPolicy } from '../../../src/surfaces/cli/cliPermissionPolicy';
import { selectAffected } from '../../../src/engine/verification/affected';
import { gitChanges } from '../../../src/engine/verification/gitChanges';
import { resolveVerifyRequest } from '../../../src/engine/config/settings';
import { evaluateWithHost, resolveTarget } from '../../../src/engine/verification/hostGraph';
import { renderReport } from '../../../src/engine/verification/renderReport';
import { VerificationReportSchema, type VerificationReport } from '../../../src/engine/verification/report';
import { parseVerifyOptions, type RawVerifyOptions } from '../../../src/engine/verification/request';
import { verify, type VerifyContext } from '../../../src/engine/verification/runner';
import { cleanUpCopies, copyFixture, hostEvaluationRequests, hostFor, initRepository, RecordingPolicy, restore, runningCommands, tempStateRoot, waitFor } from './support';

const allow = () => new RecordingPolicy(true);

async function run(workspace: string, options: RawVerifyOptions, context: Partial<VerifyContext> = {}): Promise<VerificationReport> {
  const report = await verify(resolveVerifyRequest(parseVerifyOptions(options)), {
    workspaceFolder: workspace,
    permissions: allow(),
    requestedBy: 'unit test',
    stateRoot: context.stateRoot ?? tempStateRoot(),
    host: hostFor(workspace),
    ...context,
  });
  // The person's one approval of the verification covered the host's evaluation: it never asked again.
  assert.deepEqual(hostEvaluationRequests, []);
  VerificationReportSchema.parse(report); // every report matches its schema
  JSON.parse(JSON.stringify(report)); // and is plain JSON
  return report;
}

const stepKinds = (report: VerificationReport) => report.steps.map((step) => step.kind).filter((kind) => kind !== 'evaluate');

describe('verification with real dotnet: VerificationGraph (chain, diamond, linked file, multi-targeted and special test projects)', function () {
  this.timeout(240_000);
  let workspace: string;
  let stateRoot: string;
  let all: VerificationReport;

  before(async () => {
    workspace = copyFixture('VerificationGraph');
    stateRoot = tempStateRoot();
    restore(workspace, 'Graph.slnx');
    initRepository(workspace);
    all = await run(workspace, { scope: 'all' }, { stateRoot });
  });
  after(cleanUpCopies);

  it('all: builds, then tests every test project once, and passes', () => {
    assert.equal(all.status, 'passed', all.summary);
    assert.equal(all.target, 'Graph.slnx');
    assert.deepEqual(stepKinds(all), ['sdk', 'build', 'test', 'test', 'test']);
    const build = all.steps.find((step) => step.kind === 'build')!;
    assert.match(build.commandLine, /dotnet build .*Graph\.slnx --no-restore -c Debug/);
    assert.equal(build.exitCode, 0);
    assert.equal(all.build?.status, 'passed');
    assert.ok(all.startedAt < all.finishedAt);
  });

  it('honours an evaluated IsTestProject=false (TestUtilities references the test SDK but is never run)', () => {
    const selected = all.selection!.projects.find((project) => project.name === 'TestUtilities')!;
    assert.equal(selected.isTestProject, false);
    assert.ok(!all.steps.some((step) => step.kind === 'test' && step.target.includes('TestUtilities')));
    assert.ok(!all.tests!.projects.some((project) => project.project.includes('TestUtilities')));
  });

  it('invokes a multi-targeted test project once and counts each of its TRX files once, framework unknown', () => {
    const coreTestSteps = all.steps.filter((step) => step.kind === 'test' && step.target.includes('Core.Tests'));
    assert.equal(coreTestSteps.length, 1);
    const core = all.tests!.projects.find((project) => project.project.includes('Core.Tests'))!;
    assert.equal(core.trxFiles.length, 2, 'one TRX per framework');
    assert.equal(new Set(core.trxFiles).size, 2);
    assert.deepEqual(core.counters, { total: 6, passed: 6, failed: 0, skipped: 0, other: 0 }, '3 tests × 2 frameworks');
    assert.deepEqual(core.frameworks, ['net10.0', 'net9.0']);
    for (const file of core.trxFiles) assert.ok(file.startsWith(all.tests!.resultsDirectory!), 'TRX files live in this run’s own folder');
  });

  it('reports a test project with zero tests (a valid empty TRX) as skipped, not passed', () => {
    const empty = all.tests!.projects.find((project) => project.project.includes('Empty.Tests'))!;
    assert.equal(empty.status, 'skipped');
    assert.equal(empty.trxFiles.length, 1);
    assert.match(empty.reason!, /empty TRX/);
  });

  it('puts every run in a unique results folder', async () => {
    const again = await run(workspace, { scope: 'tests' }, { stateRoot });
    assert.equal(again.status, 'passed', again.summary);
    assert.deepEqual(stepKinds(again), ['sdk', 'test', 'test', 'test'], 'the tests scope never builds');
    assert.notEqual(again.tests!.resultsDirectory, all.tests!.resultsDirectory);
    assert.ok(again.steps.filter((s) => s.kind === 'test').every((s) => /--no-build --no-restore/.test(s.commandLine)));
  });

  it('reports no test projects as an explicit skipped test section', async () => {
    const report = await run(workspace, { scope: 'all', target: 'src/App/App.csproj' }, { stateRoot });
    assert.equal(report.tests?.status, 'skipped');
    assert.match(report.tests!.reason!, /not evidence that tests pass/);
    assert.equal(report.tests!.counters.total, 0);
  });

  describe('affected', () => {
    const evaluate = async () => {
      const resolution = await resolveTarget(hostFor(workspace), workspace, undefined);
      assert.equal(resolution.kind, 'found');
      if (resolution.kind !== 'found') throw new Error('no target');
      // The person's approval of a build and test grants this call the evaluation (permissionGate.ts), as in a verification.
      const call = newCallId('test');
      const approving = PermissionGate.of({ request: async () => ({ granted: true, source: 'policy' }) });
      const approval = { kind: 'shell' as const, workspaceFolder: workspace, target: resolution.target.relative, configuration: 'Debug', call, requestedBy: 'unit test', action: 'build and test', reason: 'test' };
      assert.equal((await approving.request(approval)).granted, true);
      try {
        return await evaluateWithHost(hostFor(workspace), { workspaceFolder: workspace, target: resolution.target, configuration: 'Debug', timeoutMs: 120_000, requestedBy: 'unit test', call });
      } finally {
        endCall(call);
      }
    };
    const selectionAfter = async (edit: () => void) => {
      edit();
      try {
        const changes = await gitChanges(workspace);
        assert.equal(changes.kind, 'changes');
        const graph = await evaluate();
        return selectAffected(graph, changes.kind === 'changes' ? changes.changes : [], workspace);
      } finally {
        initRepositoryReset(workspace);
      }
    };
    const names = (selection: ReturnType<typeof selectAffected>) => [...selection.projects.keys()].map((p) => path.basename(p, '.csproj')).sort();

    it('editing a leaf project’s file selects only that project', async () => {
      const selection = await selectionAfter(() => fs.appendFileSync(path.join(workspace, 'src/App/Program.cs'), '// edited\n'));
      assert.deepEqual(names(selection), ['App']);
    });

    it('editing a file in the chain selects its owner and every reverse dependent', async () => {
      const selection = await selectionAfter(() => fs.appendFileSync(path.join(workspace, 'src/Core/Numbers.cs'), '// edited\n'));
      assert.deepEqual(names(selection), ['App', 'Core', 'Core.Tests', 'Left', 'Right', 'TestUtilities', 'Top', 'Top.Tests']);
      assert.ok(!names(selection).includes('Empty.Tests'));
    });

    it('editing a linked file selects both projects that compile it, and the diamond above them', async () => {
      const selection = await selectionAfter(() => fs.appendFileSync(path.join(workspace, 'src/Shared/SharedInfo.cs'), '// edited\n'));
      assert.deepEqual(names(selection), ['App', 'Left', 'Right', 'Top', 'Top.Tests']);
      assert.deepEqual(selection.projects.get(path.join(workspace, 'src/Left/Left.csproj')), ['owns src/Shared/SharedInfo.cs']);
    });

    it('editing Directory.Build.props selects the whole target', async () => {
      const selection = await selectionAfter(() => fs.appendFileSync(path.join(workspace, 'Directory.Build.props'), '<!-- edited -->\n'));
      assert.equal(selection.wholeTarget, true);
      assert.match(selection.reason, /Directory\.Build\.props is a build or configuration input/);
    });

    it('deleting a file selects the whole target', async () => {
      const selection = await selectionAfter(() => fs.rmSync(path.join(workspace, 'src/Right/RightSide.cs')));
      assert.equal(selection.wholeTarget, true);
      assert.match(selection.reason, /RightSide\.cs was deleted/);
    });

    it('a new file under a project’s glob is owned after re-evaluation (the host’s cache sees the new file)', async () => {
      const first = await evaluate();
      const warm = await evaluate();
      assert.equal(warm.evaluated, 0, 'a second evaluation comes from the host’s cache');
      assert.equal(warm.cached, first.projects.size);
      fs.writeFileSync(path.join(workspace, 'src/Right/Extra.cs'), 'namespace Right; internal static class Extra { }\n');
      try {
        const after = await evaluate();
        assert.equal(after.cached, 0, 'the new file under a glob makes the host evaluate again');
        const selection = selectAffected(after, [{ path: 'src/Right/Extra.cs', kind: 'added' }], workspace);
        assert.deepEqual(names(selection), ['App', 'Right', 'Top', 'Top.Tests']);
      } finally {
        fs.rmSync(path.join(workspace, 'src/Right/Extra.cs'));
      }
      console.log(`      evaluation of ${first.projects.size} projects: ${first.evaluated ? `${first.durationMs} ms cold, ` : ''}${warm.durationMs} ms from the cache`);
    });

    it('runs end to end from Git changes: builds the selection and tests the affected test projects only', async () => {
      fs.appendFileSync(path.join(workspace, 'src/Left/LeftSide.cs'), '// edited\n');
      try {
        // The person takes a while to answer the approval: that wait is not the run's duration.
        const slowApproval: PermissionPolicy = { request: async () => { await new Promise((resolve) => setTimeout(resolve, 1500)); return { granted: true, source: 'policy' }; } };
        const steps: string[] = [];
        const started = Date.now();
        const report = await run(workspace, { scope: 'affected' }, { stateRoot, permissions: slowApproval, progress: (message) => steps.push(message) });
        const elapsed = Date.now() - started;
        assert.ok(report.durationMs <= elapsed - 1500, `the duration ${report.durationMs} ms includes the ${elapsed - report.durationMs} ms before the approval`);
        assert.equal(report.status, 'passed', report.summary);
        // The private traversal project is never named to a person: "Building 2 affected projects".
        assert.ok(steps.includes('Building 2 affected projects…'), steps.join(' | '));
        assert.deepEqual(report.steps.filter((step) => step.kind === 'build').map((step) => step.target), ['2 affected projects']);
        assert.doesNotMatch(steps.join('\n'), /affected\.proj/);
        assert.equal(report.selection!.changeSource, 'git');
        assert.deepEqual(report.selection!.projects.map((p) => p.name).sort(), ['App', 'Left', 'Top', 'Top.Tests']);
        assert.deepEqual(report.selection!.changes, [{ path: 'src/Left/LeftSide.cs', kind: 'modified' }]);
        assert.deepEqual(report.tests!.projects.map((p) => p.project), ['tests/Top.Tests/Top.Tests.csproj']);
        const build = report.steps.find((step) => step.kind === 'build')!;
        assert.match(build.commandLine, /affected\.proj/, 'two roots (App, Top.Tests) are built by one traversal project');
      } finally {
        initRepositoryReset(workspace);
      }
    });

    it('uses an explicit change list instead of Git, and skips when nothing changed', async () => {
      const listed = await run(workspace, { scope: 'affected', changed: ['src/App/Program.cs'] }, { stateRoot });
      assert.equal(listed.selection!.changeSource, 'request');
      assert.deepEqual(listed.selection!.projects.map((p) => p.name), ['App']);
      assert.equal(listed.tests?.status, 'skipped');
      const clean = await run(workspace, { scope: 'affected' }, { stateRoot });
      assert.equal(clean.status, 'skipped');
      assert.match(clean.summary, /No files changed/);
      assert.ok(!clean.steps.some((step) => step.kind === 'build'));
    });
  });
});

function initRepositoryReset(workspace: string): void {
  const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
  execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: workspace });
  execFileSync('git', ['clean', '-qfd', '-e', 'bin', '-e', 'obj'], { cwd: workspace });
}

describe('verification with real dotnet: failures, prerequisites and skips', function () {
  this.timeout(240_000);
  after(cleanUpCopies);

  it('tests scope on an unbuilt project reports the missing output as a prerequisite; all names the failing test; tests then reruns the outputs', async () => {
    const workspace = copyFixture('VerificationFailingTest');
    restore(workspace, 'FailingTest.slnx');
    const stateRoot = tempStateRoot();
    const unbuilt = await run(workspace, { scope: 'tests' }, { stateRoot });
    assert.equal(unbuilt.status, 'missingPrerequisites', unbuilt.summary);
    assert.equal(unbuilt.prerequisites[0]!.kind, 'buildOutput');
    assert.match(unbuilt.prerequisites[0]!.command!, /^dotnet build tests\/Pricing\.Tests\/Pricing\.Tests\.csproj -c Debug$/);
    assert.ok(!unbuilt.steps.some((step) => step.kind === 'build' || step.kind === 'test'), 'nothing was built or run');

    const all = await run(workspace, { scope: 'all' }, { stateRoot });
    assert.equal(all.status, 'failed');
    assert.deepEqual(all.tests!.counters, { total: 3, passed: 1, failed: 1, skipped: 1, other: 0 });
    const failure = all.tests!.failedTests[0]!;
    assert.equal(failure.name, 'Pricing.Tests.DiscountTests.OrdersOfExactlyOneHundredGetTheDiscount');
    assert.equal(failure.project, 'tests/Pricing.Tests/Pricing.Tests.csproj');
    assert.equal(failure.framework, 'net10.0');
    assert.match(failure.message, /Assert\.Equal\(\) Failure/);
    assert.match(failure.stackTrace, /DiscountTests\.cs:line \d+/);
    assert.match(all.summary, /OrdersOfExactlyOneHundredGetTheDiscount/);
    // An ordinary failing test is not a "test run error".
    assert.doesNotMatch(all.tests!.projects.map((project) => project.reason ?? '').join('\n'), /test run error/);

    const tests = await run(workspace, { scope: 'tests', framework: 'net10.0' }, { stateRoot });
    assert.equal(tests.status, 'failed');
    assert.equal(tests.tests!.failedTests[0]!.framework, 'net10.0');
  });

  it('a project that does not compile: failed build, de-duplicated diagnostics, and tests never start', async () => {
    const workspace = copyFixture('VerificationBroken');
    restore(workspace, 'Broken.slnx');
    const report = await run(workspace, { scope: 'all' });
    assert.equal(report.status, 'failed');
    assert.equal(report.build!.status, 'failed');
    assert.deepEqual(report.build!.diagnostics.map((d) => [d.code, d.line, d.column]), [['CS0029', 6, 35], ['CS0103', 9, 34]]);
    assert.equal(report.build!.errors, 2, 'the console summary repeats them; they are counted once');
    assert.equal(report.tests!.status, 'notRun');
    assert.ok(!report.steps.some((step) => step.kind === 'test'));
  });

  it('a build that fails without printing any diagnostic fails on its exit code', async () => {
    const workspace = copyFixture('VerificationSilentFailure');
    restore(workspace, 'SilentFailure/SilentFailure.csproj');
    const report = await run(workspace, { scope: 'build', target: 'SilentFailure/SilentFailure.csproj' });
    const build = report.steps.find((step) => step.kind === 'build')!;
    assert.equal(build.exitCode, 1);
    assert.doesNotMatch(build.log.text, /error|warning/i, 'the build printed no diagnostic');
    assert.equal(report.build!.diagnostics.length, 0);
    assert.equal(report.status, 'failed');
    assert.match(report.build!.reason!, /exited with code 1 without printing any diagnostic/);
  });

  it('an unrestored project is a prerequisite with the command to run; --restore is what allows restoring', async () => {
    const workspace = copyFixture('VerificationUnrestored');
    const report = await run(workspace, { scope: 'build', target: 'Unrestored/Unrestored.csproj' });
    assert.equal(report.status, 'missingPrerequisites');
    assert.equal(report.prerequisites[0]!.kind, 'assets');
    assert.equal(report.prerequisites[0]!.command, 'dotnet restore Unrestored/Unrestored.csproj');
    assert.ok(!report.steps.some((step) => step.kind === 'build'), 'no build was attempted');
    assert.ok(!fs.existsSync(path.join(workspace, 'Unrestored/obj/project.assets.json')), 'nothing was restored');
    const restored = await run(workspace, { scope: 'build', target: 'Unrestored/Unrestored.csproj', restore: true });
    assert.equal(restored.status, 'passed', restored.summary);
    assert.doesNotMatch(restored.steps.find((step) => step.kind === 'build')!.commandLine, /--no-restore/);
  });

  it('a missing SDK is a prerequisite: no dotnet at all, or a global.json nothing installed satisfies', async () => {
    const workspace = copyFixture('VerificationUnrestored');
    const noDotnet = await run(workspace, { scope: 'build', target: 'Unrestored/Unrestored.csproj' }, { dotnet: path.join(os.tmpdir(), 'no-such-dotnet', 'dotnet') });
    assert.equal(noDotnet.status, 'missingPrerequisites');
    assert.equal(noDotnet.prerequisites[0]!.kind, 'sdk');
    assert.match(noDotnet.prerequisites[0]!.message, /dotnet\.microsoft\.com\/download/);
    fs.writeFileSync(path.join(workspace, 'global.json'), '{ "sdk": { "version": "99.0.100", "rollForward": "disable" } }\n');
    const pinned = await run(workspace, { scope: 'build', target: 'Unrestored/Unrestored.csproj' });
    assert.equal(pinned.status, 'missingPrerequisites');
    assert.equal(pinned.prerequisites[0]!.kind, 'sdk');
    assert.equal(pinned.prerequisites[0]!.command, 'dotnet --list-sdks');
  });

  it('a workspace without .NET is skipped with its reason, without asking for permission', async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-verify-empty-'));
    fs.writeFileSync(path.join(workspace, 'README.md'), '# not .NET\n');
    const policy = allow();
    try {
      const report = await run(workspace, { scope: 'all' }, { permissions: policy });
      assert.equal(report.status, 'skipped');
      assert.match(report.summary, /^Skipped: There is no \.sln, \.slnx or \.csproj at the top of the workspace\. No \.sln, \.slnx or \.csproj was found in the folders below either\./);
      assert.deepEqual(policy.requests, []);
      assert.deepEqual(report.steps, []);
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('read-only denies before any process starts, the host included', async () => {
    const workspace = copyFixture('VerificationUnrestored');
    const asked: string[] = [];
    const host: HostRequester = { request: async (method) => { asked.push(method); throw new Error(`no host request expected, got ${method}`); } };
    const report = await run(workspace, { scope: 'all', target: 'Unrestored/Unrestored.csproj' }, { host, permissions: new CliPermissionPolicy({ mode: 'read-only', allowEvaluation: true, allowShell: true, allowWrite: true }) });
    assert.equal(report.status, 'denied');
    assert.match(report.summary, /read-only/);
    assert.deepEqual(report.steps, []);
    assert.deepEqual(asked, []);
  });

  it('a terminal that cannot prompt, without --allow-shell, denies before the host starts', async () => {
    const workspace = copyFixture('VerificationUnrestored');
    const asked: string[] = [];
    const host: HostRequester = { request: async (method) => { asked.push(method); throw new Error(`no host request expected, got ${method}`); } };
    const report = await run(workspace, { scope: 'build' }, { host, permissions: new CliPermissionPolicy({ mode: 'workspace-write', allowEvaluation: true, allowShell: false, allowWrite: true }) });
    assert.equal(report.status, 'denied');
    assert.match(report.summary, /Pass --allow-shell/);
    assert.deepEqual(asked, []);
  });

  it('a TRX that is malformed fails verification even when dotnet test exits 0', async () => {
    const workspace = copyFixture('VerificationFailingTest');
    restore(workspace, 'FailingTest.slnx');
    // A dotnet that behaves normally except that its test runs write a broken TRX and succeed.
    const fake = path.join(workspace, 'fake-dotnet.sh');
    fs.writeFileSync(
      fake,
      `#!/bin/sh\nif [ "$1" = "test" ]; then\n  while [ $# -gt 0 ]; do if [ "$1" = "--results-directory" ]; then mkdir -p "$2"; printf '<TestRun><Results><UnitTestResult outcome="Passed">' > "$2/broken.trx"; fi; shift; done\n  exit 0\nfi\nexec dotnet "$@"\n`,
      { mode: 0o755 },
    );
    const report = await run(workspace, { scope: 'all' }, { dotnet: fake });
    assert.equal(report.status, 'failed');
    assert.match(report.tests!.projects[0]!.reason!, /broken\.trx could not be read: the TRX is not well-formed XML/);
  });
});

describe('verification with real dotnet: timeouts, cancellation and the process tree', function () {
  this.timeout(180_000);
  let workspace: string;
  const sleeper = 'sleep 87';
  const previous = process.env.SlowSeconds;
  before(() => {
    workspace = copyFixture('VerificationSlow');
    restore(workspace, 'Slow/Slow.csproj');
    process.env.SlowSeconds = '87'; // MSBuild reads environment variables as properties
  });
  after(() => {
    if (previous === undefined) delete process.env.SlowSeconds;
    else process.env.SlowSeconds = previous;
    cleanUpCopies();
  });
  const sleepers = () => runningCommands().filter((command) => command === sleeper);

  it('a timeout stops the build, kills the whole tree and is reported as timedOut', async () => {
    const report = await run(workspace, { scope: 'build', target: 'Slow/Slow.csproj', timeout: '8' });
    assert.equal(report.status, 'timedOut', report.summary);
    const build = report.steps.find((step) => step.kind === 'build')!;
    assert.equal(build.outcome, 'timedOut');
    assert.ok(build.durationMs >= 7000 && build.durationMs < 20_000, `${build.durationMs} ms`);
    await waitFor('the sleeping grandchild to be gone', () => sleepers().length === 0, 5000);
  });

  it('a cancellation stops the build, kills the whole tree and is reported as cancelled', async () => {
    const controller = new AbortController();
    const pending = run(workspace, { scope: 'build', target: 'Slow/Slow.csproj', timeout: '120' }, { signal: controller.signal });
    await waitFor('the build to reach its sleep step', () => sleepers().length > 0, 60_000);
    controller.abort();
    const report = await pending;
    assert.equal(report.status, 'cancelled', report.summary);
    assert.equal(report.steps.find((step) => step.kind === 'build')!.outcome, 'cancelled');
    await waitFor('the sleeping grandchild to be gone', () => sleepers().length === 0, 5000);
  });
});

/** `dotnet test`'s own totals for a whole target, to compare verify with (MTP mode prints `total: N` lines, VSTest mode one line per assembly). */
function plainDotnetTest(workspace: string, args: string[]): { exitCode: number; total: number; failed: number; passed: number; skipped: number } {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const run = spawnSync('dotnet', ['test', ...args, '--no-build'], { cwd: workspace, encoding: 'utf8', env: { ...process.env, DOTNET_NOLOGO: '1' } });
  const text = `${run.stdout}${run.stderr}`;
  const sum = (pattern: RegExp) => [...text.matchAll(pattern)].reduce((total, match) => total + Number(match[1]), 0);
  const mtp = /^\s*total:\s*\d+/m.test(text);
  return mtp
    ? { exitCode: run.status ?? -1, total: sum(/^\s*total:\s*(\d+)/gm), failed: sum(/^\s*failed:\s*(\d+)/gm), passed: sum(/^\s*succeeded:\s*(\d+)/gm), skipped: sum(/^\s*skipped:\s*(\d+)/gm) }
    : { exitCode: run.status ?? -1, total: sum(/Total:\s*(\d+)/g), failed: sum(/Failed:\s*(\d+)/g), passed: sum(/Passed:\s*(\d+)/g), skipped: sum(/Skipped:\s*(\d+)/g) };
}

describe('verification with real dotnet: Microsoft.Testing.Platform (VerificationMtpMode: global.json runner, xunit.v3 and MSTest.Sdk)', function () {
  this.timeout(900_000);
  let workspace: string;
  let report: VerificationReport;

  before(async () => {
    workspace = copyFixture('VerificationMtpMode');
    restore(workspace, 'Mtp.slnx');
    report = await run(workspace, { scope: 'all', timeout: 900 }); // a shared machine can take minutes to build
  });
  after(cleanUpCopies);

  it('classifies both MTP apps as test projects (IsTestingPlatformApplication) and fails on the failing xunit.v3 test', () => {
    const tests = report.selection!.projects.filter((project) => project.isTestProject);
    assert.deepEqual(tests.map((project) => [project.name, project.testProjectSource]).sort(), [
      ['Lib.MSTests', 'IsTestingPlatformApplication'],
      ['Lib.XunitTests', 'IsTestingPlatformApplication'],
    ]);
    assert.equal(report.status, 'failed', report.summary);
    assert.equal(report.tests!.status, 'failed');
    assert.deepEqual(report.tests!.failedTests.map((test) => test.name), ['Lib.XunitTests.CalcTests.AddsNegativeNumbers']);
    assert.doesNotMatch(report.summary, /no test projects/i);
  });

  it('runs each app in MTP mode with the TRX option it offers, into its own results folder, and names the runner', () => {
    const byName = new Map(report.tests!.projects.map((project) => [path.basename(project.project, '.csproj'), project]));
    assert.equal(byName.get('Lib.XunitTests')!.runner, 'mtp');
    assert.equal(byName.get('Lib.XunitTests')!.trxOption, '--report-xunit-trx');
    assert.equal(byName.get('Lib.MSTests')!.trxOption, '--report-trx');
    assert.equal(byName.get('Lib.MSTests')!.status, 'passed');
    assert.equal(byName.get('Lib.XunitTests')!.status, 'failed');
    const testSteps = report.steps.filter((step) => step.kind === 'test' && !step.commandLine.includes('--help'));
    assert.equal(testSteps.length, 2);
    for (const step of testSteps) {
      assert.match(step.commandLine, /dotnet test --project \S+\.csproj --no-build --no-restore -c Debug --report-(xunit-)?trx --results-directory \S+/);
      assert.doesNotMatch(step.commandLine, /--logger/);
    }
    const folders = report.tests!.projects.map((project) => path.dirname(project.trxFiles[0]!));
    assert.equal(new Set(folders).size, 2, 'one results folder per project');
    assert.match(renderReport(report), /tests tests\/Lib\.XunitTests\/Lib\.XunitTests\.csproj \[Microsoft\.Testing\.Platform\]: failed/);
  });

  it('counts what plain dotnet test counts', () => {
    const plain = plainDotnetTest(workspace, ['--solution', 'Mtp.slnx']);
    assert.equal(plain.exitCode, 2, 'MTP exit code 2: a test failed');
    const c = report.tests!.counters;
    assert.deepEqual({ total: c.total, failed: c.failed, passed: c.passed, skipped: c.skipped }, { total: plain.total, failed: plain.failed, passed: plain.passed, skipped: plain.skipped });
    assert.deepEqual(c, { total: 5, passed: 3, failed: 1, skipped: 1, other: 0 });
  });
});

describe('verification with real dotnet: an MTP app in a VSTest-mode workspace (VerificationMtpUnderVstest)', function () {
  this.timeout(900_000);
  let workspace: string;
  let report: VerificationReport;

  before(async () => {
    workspace = copyFixture('VerificationMtpUnderVstest');
    restore(workspace, 'UnderVstest.slnx');
    report = await run(workspace, { scope: 'all', timeout: 900 }); // a shared machine can take minutes to build
  });
  after(cleanUpCopies);

  it('runs the VSTest project with the logger and the MTP app with its options after --, and fails on the app’s failing test', () => {
    const byName = new Map(report.tests!.projects.map((project) => [path.basename(project.project, '.csproj'), project]));
    assert.equal(byName.get('Lib.VstestTests')!.runner, 'vstest');
    assert.equal(byName.get('Lib.VstestTests')!.status, 'passed');
    assert.equal(byName.get('Lib.MtpTests')!.runner, 'mtpUnderVstest');
    assert.equal(byName.get('Lib.MtpTests')!.trxOption, '--report-xunit-trx');
    const mtpStep = report.steps.find((step) => step.kind === 'test' && step.target.includes('Lib.MtpTests') && !step.commandLine.includes('--help'))!;
    assert.match(mtpStep.commandLine, / -- --report-xunit-trx --results-directory /);
    assert.equal(report.status, 'failed', report.summary);
    assert.deepEqual(report.tests!.failedTests.map((test) => test.name), ['Lib.MtpTests.CalcTests.AddsNegativeNumbers']);
  });

  it('counts what plain dotnet test counts', () => {
    const plain = plainDotnetTest(workspace, ['UnderVstest.slnx']);
    assert.notEqual(plain.exitCode, 0);
    const c = report.tests!.counters;
    assert.deepEqual({ total: c.total, failed: c.failed, passed: c.passed }, { total: plain.total, failed: plain.failed, passed: plain.passed });
    assert.deepEqual(c, { total: 5, passed: 4, failed: 1, skipped: 0, other: 0 });
  });
});
