// The verifier's selection and reports, from verifications recorded with real dotnet in each runner mode
// (test/unit/verification/recorded/<case>, written by test/host-e2e/verification/recordRuns.ts) and
// replayed through the runner's process-runner seam (replayedRuns.ts): each replay gives the recorded
// report back, and what a person reads in it is asserted here — the test projects and frameworks run,
// the counts of every TRX, failed tests with message and stack, de-duplicated build diagnostics, the
// prerequisites, MTP's TRX options. Cases without dotnet output of their own (refusals, git changes)
// run over the same seam with scripted answers. test/host-e2e/verification runs each runner mode once
// against real dotnet.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HostRequester } from '../../../src/engine/host/hostRequester';
import type { PermissionPolicy } from '../../../src/engine/permissions/permissionPolicy';
import { renderReport } from '../../../src/engine/verification/renderReport';
import { VerificationReportSchema, type VerificationReport } from '../../../src/engine/verification/report';
import { verify } from '../../../src/engine/verification/runner';
import { VerifyRequestSchema } from '../../../src/engine/verification/request';
import { CliPermissionPolicy } from '../../../src/surfaces/cli/cliPermissionPolicy';
import { ToolError } from '../../../src/engine/errors';
import { RecordedWorkspace, removeRecordedWorkspaces, trxOf, type Node, type ScriptedRun } from './recordedRuns';
import { recordedRoot, recordedRun, replayRun } from './replayedRuns';

const checked = (report: VerificationReport) => VerificationReportSchema.parse(report);
const stepKinds = (report: VerificationReport) => report.steps.map((step) => step.kind).filter((kind) => kind !== 'evaluate');
const byName = (report: VerificationReport) => new Map(report.tests!.projects.map((project) => [path.basename(project.project, '.csproj'), project]));

describe('recorded verifications replayed through the runner', () => {
  after(removeRecordedWorkspaces);

  for (const name of ['vstest-graph-all', 'vstest-failing-test', 'build-broken', 'mtp-mode', 'mtp-under-vstest', 'vstest-missing-runtime', 'vstest-host-stops', 'mtp-host-stops', 'mtp-failure-names', 'mtp-under-vstest-failure-names', 'mtp-under-vstest-host-stops']) {
    it(`${name}: the same commands and the same report as the real run`, async () => {
      const replay = await replayRun(name);
      checked(replay.report);
      // The same dotnet commands: the SDK check and the build in order, the test projects (run two at a time) in any.
      const ordered = (commands: string[][]) => [...commands.slice(0, 2), ...commands.slice(2).sort((a, b) => a.join(' ').localeCompare(b.join(' ')))];
      assert.deepEqual(ordered(replay.commands), ordered(replay.recorded.calls.map((call) => call.args)));
      assert.deepEqual(replay.comparable(replay.report), replay.comparable(replay.recorded.report));
    });
  }
});

describe('VSTest (recorded: fixtures/VerificationGraph, a chain, a diamond, a linked file, multi-targeted and special test projects)', () => {
  after(removeRecordedWorkspaces);
  let report: VerificationReport;
  before(async () => (report = (await replayRun('vstest-graph-all')).report));

  it('all: builds the target once, then tests every test project once, and passes', () => {
    assert.equal(report.status, 'passed', report.summary);
    assert.equal(report.target, 'Graph.slnx');
    assert.deepEqual(stepKinds(report), ['sdk', 'build', 'test', 'test', 'test']);
    const build = report.steps.find((step) => step.kind === 'build')!;
    assert.match(build.commandLine, /dotnet build .*Graph\.slnx --no-restore -c Debug/);
    assert.equal(build.exitCode, 0);
    assert.equal(report.build?.status, 'passed');
  });

  it('honours an evaluated IsTestProject=false (TestUtilities references the test SDK but is never run)', () => {
    const selected = report.selection!.projects.find((project) => project.name === 'TestUtilities')!;
    assert.equal(selected.isTestProject, false);
    assert.ok(!report.steps.some((step) => step.kind === 'test' && step.target.includes('TestUtilities')));
    assert.ok(!report.tests!.projects.some((project) => project.project.includes('TestUtilities')));
  });

  it('invokes a multi-targeted test project once and counts each of its TRX files once, framework unknown', () => {
    assert.equal(report.steps.filter((step) => step.kind === 'test' && step.target.includes('Core.Tests')).length, 1);
    const core = byName(report).get('Core.Tests')!;
    assert.equal(core.trxFiles.length, 2, 'one TRX per framework');
    assert.equal(new Set(core.trxFiles).size, 2);
    assert.deepEqual(core.counters, { total: 6, passed: 6, failed: 0, skipped: 0, other: 0 }, '3 tests × 2 frameworks');
    assert.deepEqual(core.frameworks, ['net10.0', 'net9.0']);
    for (const file of core.trxFiles) assert.ok(file.startsWith(report.tests!.resultsDirectory!), 'TRX files live in this run’s own folder');
  });

  it('reports a test project with zero tests (a valid empty TRX) as skipped, not passed', () => {
    const empty = byName(report).get('Empty.Tests')!;
    assert.equal(empty.status, 'skipped');
    assert.equal(empty.trxFiles.length, 1);
    assert.match(empty.reason!, /empty TRX/);
  });

  it('puts every run in its own results folder', async () => {
    const again = (await replayRun('vstest-graph-all')).report;
    assert.equal(again.status, 'passed', again.summary);
    assert.notEqual(again.tests!.resultsDirectory, report.tests!.resultsDirectory);
  });
});

describe('VSTest failures (recorded: fixtures/VerificationFailingTest and VerificationBroken)', () => {
  after(removeRecordedWorkspaces);

  it('a failing test fails the run, named with its project, framework, message and stack, and is no "test run error"', async () => {
    const { report } = await replayRun('vstest-failing-test');
    assert.equal(report.status, 'failed');
    assert.deepEqual(report.tests!.counters, { total: 3, passed: 1, failed: 1, skipped: 1, other: 0 });
    const failure = report.tests!.failedTests[0]!;
    assert.equal(failure.name, 'Pricing.Tests.DiscountTests.OrdersOfExactlyOneHundredGetTheDiscount');
    assert.equal(failure.project, 'tests/Pricing.Tests/Pricing.Tests.csproj');
    assert.equal(failure.framework, 'net10.0');
    assert.match(failure.message, /Assert\.Equal\(\) Failure/);
    assert.match(failure.stackTrace, /DiscountTests\.cs:line \d+/);
    assert.match(report.summary, /OrdersOfExactlyOneHundredGetTheDiscount/);
    assert.doesNotMatch(report.tests!.projects.map((project) => project.reason ?? '').join('\n'), /test run error/);
  });

  it('the tests scope on an unbuilt project is a prerequisite with the command to build it, and nothing runs', async () => {
    const replay = await replayRun('vstest-failing-test', { request: { scope: 'tests' } });
    assert.equal(replay.report.status, 'missingPrerequisites', replay.report.summary);
    assert.equal(replay.report.prerequisites[0]!.kind, 'buildOutput');
    assert.match(replay.report.prerequisites[0]!.command!, /^dotnet build tests\/Pricing\.Tests\/Pricing\.Tests\.csproj -c Debug$/);
    assert.deepEqual(replay.commands.map((args) => args[0]), ['--version'], 'nothing was built or run');
  });

  it('a TRX that is malformed fails the verification even when dotnet test exits 0', async () => {
    const { report } = await replayRun('vstest-failing-test', {
      trx: () => '<TestRun><Results><UnitTestResult outcome="Passed">',
      answer: (args, recorded) => (args[0] === 'test' ? { ...recorded, exitCode: 0 } : recorded),
    });
    assert.equal(report.status, 'failed');
    assert.match(report.tests!.projects[0]!.reason!, /Pricing\.Tests_net10\.0_\d+\.trx could not be read: the TRX is not well-formed XML/);
  });

  it('a project that does not compile: a failed build, its diagnostics once each, and no test started', async () => {
    const { report } = await replayRun('build-broken');
    assert.equal(report.status, 'failed');
    assert.equal(report.build!.status, 'failed');
    assert.deepEqual(report.build!.diagnostics.map((d) => [d.code, d.line, d.column]), [['CS0029', 6, 35], ['CS0103', 9, 34]]);
    assert.equal(report.build!.errors, 2, 'the console summary repeats them; they are counted once');
    assert.equal(report.tests!.status, 'notRun');
    assert.ok(!report.steps.some((step) => step.kind === 'test'));
  });
});

describe('Microsoft.Testing.Platform (recorded: fixtures/VerificationMtpMode, a global.json runner, xunit.v3 and MSTest.Sdk)', () => {
  after(removeRecordedWorkspaces);
  let report: VerificationReport;
  before(async () => (report = (await replayRun('mtp-mode')).report));

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
    assert.deepEqual(report.tests!.counters, { total: 5, passed: 3, failed: 1, skipped: 1, other: 0 });
  });

  it('runs each app in MTP mode with the TRX option it offers, into its own results folder, and names the runner', () => {
    const apps = byName(report);
    assert.equal(apps.get('Lib.XunitTests')!.runner, 'mtp');
    assert.equal(apps.get('Lib.XunitTests')!.trxOption, '--report-xunit-trx');
    assert.equal(apps.get('Lib.MSTests')!.trxOption, '--report-trx');
    assert.equal(apps.get('Lib.MSTests')!.status, 'passed');
    assert.equal(apps.get('Lib.XunitTests')!.status, 'failed');
    const testSteps = report.steps.filter((step) => step.kind === 'test' && !step.commandLine.includes('--help'));
    assert.equal(testSteps.length, 2);
    for (const step of testSteps) {
      assert.match(step.commandLine, /dotnet test --project \S+\.csproj --no-build --no-restore -c Debug --report-(xunit-)?trx --results-directory \S+/);
      assert.doesNotMatch(step.commandLine, /--logger/);
    }
    assert.equal(new Set(report.tests!.projects.map((project) => path.dirname(project.trxFiles[0]!))).size, 2, 'one results folder per project');
    assert.match(renderReport(report), /tests tests\/Lib\.XunitTests\/Lib\.XunitTests\.csproj \[Microsoft\.Testing\.Platform\]: failed/);
  });
});

describe('a test host that stops mid-run (recorded: fixtures/TestHostStops on VSTest, fixtures/TestHostStopsMtp on the platform; a test calls Environment.FailFast)', () => {
  after(removeRecordedWorkspaces);
  const stopped = (project: string, where: string) =>
    new RegExp(`${project.replace(/[./]/g, '\\$&')}: its test host stopped before the run finished[^;]*"Process terminated\\. a test ended its test host" in ${where.replace(/\./g, '\\.')}, so its results are incomplete`);

  it('VSTest: the verdict line names the project, says its test host stopped and its results are incomplete, never a bare "0 failed"', async () => {
    const { report } = await replayRun('vstest-host-stops');
    assert.equal(report.status, 'failed', report.summary);
    const project = report.tests!.projects[0]!;
    assert.equal(project.status, 'failed');
    assert.match(project.incomplete ?? '', /its test host stopped before the run finished/);
    // What the CLI prints, verify_workspace returns, and the sidebar and the chat turn show.
    assert.match(report.summary, /^failed: .*tests failed: 0 passed, 0 failed, 0 skipped in 1 project\(s\) \(results incomplete\); /);
    assert.match(report.summary, stopped('tests/Stops.Tests/Stops.Tests.csproj', 'Stops.Tests.ShutdownTests.EndsTheTestHost'));
    assert.match(renderReport(report), /tests tests\/Stops\.Tests\/Stops\.Tests\.csproj \[VSTest\]: failed \(0 passed, 0 failed, 0 skipped\) — its test host stopped before the run finished/);
    assert.ok(Buffer.byteLength(renderReport(report)) < 8192);
  });

  it('Microsoft.Testing.Platform (xunit.v3 with its TRX option, NUnit without one): each project named with its exit code, results incomplete', async () => {
    const { report } = await replayRun('mtp-host-stops');
    assert.equal(report.status, 'failed', report.summary);
    assert.deepEqual(report.tests!.projects.map((p) => [p.project, p.status, p.incomplete !== undefined]), [
      ['tests/Stops.NUnit/Stops.NUnit.csproj', 'failed', true],
      ['tests/Stops.XunitV3/Stops.XunitV3.csproj', 'failed', true],
    ]);
    assert.match(report.summary, /\(results incomplete\)/);
    assert.match(report.summary, stopped('tests/Stops.NUnit/Stops.NUnit.csproj', 'Stops.NUnit.ShutdownTests.EndsTheTestHost'));
    assert.match(report.summary, stopped('tests/Stops.XunitV3/Stops.XunitV3.csproj', 'Stops.XunitV3.ShutdownTests.EndsTheTestHost'));
    assert.match(report.summary, /Stops\.NUnit\.csproj: its test host stopped before the run finished \(exit code 134\)/);
  });

  it('an MTP app in a VSTest-mode workspace: its output log, which has no closing summary, says the host stopped', async () => {
    const { report } = await replayRun('mtp-under-vstest-host-stops');
    assert.equal(report.status, 'failed', report.summary);
    const project = report.tests!.projects[0]!;
    assert.deepEqual([project.runner, project.status], ['mtpUnderVstest', 'failed']);
    assert.match(report.summary, /\(results incomplete\)/);
    assert.match(report.summary, stopped('tests/Stops.NUnit/Stops.NUnit.csproj', 'Stops.NUnit.ShutdownTests.EndsTheTestHost'));
  });
});

describe('failed tests on Microsoft.Testing.Platform, named for every framework (recorded: fixtures/MtpFailureNames: NUnit and MSTest with and without a TRX option)', () => {
  after(removeRecordedWorkspaces);

  it('names each failing test with its class, message and stack, from the TRX or, without a TRX option, from what the runner printed', async () => {
    const { report } = await replayRun('mtp-failure-names');
    assert.equal(report.status, 'failed', report.summary);
    assert.deepEqual(report.tests!.projects.map((p) => [path.basename(p.project, '.csproj'), p.trxOption, `${p.counters.failed} of ${p.counters.total} failed`]), [
      ['Prices.MSTest', null, '1 of 2 failed'],
      ['Prices.MSTestSdk', '--report-trx', '1 of 2 failed'],
      ['Prices.NUnit', null, '1 of 2 failed'],
      ['Prices.NUnitTrx', '--report-trx', '1 of 2 failed'],
    ]);
    const failed = [...report.tests!.failedTests].sort((a, b) => a.name.localeCompare(b.name));
    assert.deepEqual(
      failed.map((t) => [t.name, t.project]),
      ['MSTest', 'MSTestSdk', 'NUnit', 'NUnitTrx'].map((p) => [`Prices.${p}.TaxTests.Add_AddsTenPercent`, `tests/Prices.${p}/Prices.${p}.csproj`]),
    );
    for (const test of failed) {
      assert.match(test.message, /110[\s\S]*109/, `${test.name}: the assertion's expected and actual values`);
      assert.match(test.stackTrace, /TaxTests\.cs:line (12|13)\b/, `${test.name}: where it failed`);
    }
    // An ordinary failure is not a "test run error" (MTP's TRX echoes exit code 2 as an Error RunInfo).
    assert.doesNotMatch(report.tests!.projects.map((p) => p.reason ?? '').join('\n'), /test run error/);
    assert.match(report.summary, /failing: Prices\.MSTest\.TaxTests\.Add_AddsTenPercent, /);
    const text = renderReport(report);
    assert.match(text, /FAILED Prices\.NUnit\.TaxTests\.Add_AddsTenPercent \[tests\/Prices\.NUnit\/Prices\.NUnit\.csproj, net10\.0\]: /);
    assert.match(text, /FAILED Prices\.MSTest\.TaxTests\.Add_AddsTenPercent \[tests\/Prices\.MSTest\/Prices\.MSTest\.csproj, net10\.0\]: Assert\.AreEqual failed\. Expected:<110>\. Actual:<109>\./);
  });
});

describe('failed tests of an MTP app without a TRX option in a VSTest-mode workspace (recorded: fixtures/MtpUnderVstestFailureNames, NUnit and MSTest)', () => {
  after(removeRecordedWorkspaces);

  it('names each failing test with its class, message and stack, from the output log the app wrote', async () => {
    const { report } = await replayRun('mtp-under-vstest-failure-names');
    assert.equal(report.status, 'failed', report.summary);
    assert.deepEqual(report.tests!.projects.map((p) => [path.basename(p.project, '.csproj'), p.runner, p.trxOption, `${p.counters.failed} of ${p.counters.total} failed`]), [
      ['Prices.MSTest', 'mtpUnderVstest', null, '1 of 2 failed'],
      ['Prices.NUnit', 'mtpUnderVstest', null, '1 of 2 failed'],
    ]);
    const failed = [...report.tests!.failedTests].sort((a, b) => a.name.localeCompare(b.name));
    assert.deepEqual(failed.map((t) => t.name), ['Prices.MSTest.TaxTests.Add_AddsTenPercent', 'Prices.NUnit.TaxTests.Add_AddsTenPercent']);
    for (const test of failed) {
      assert.match(test.message, /110[\s\S]*109/, `${test.name}: the assertion's expected and actual values`);
      assert.match(test.stackTrace, /TaxTests\.cs:line (12|13)\b/, `${test.name}: where it failed`);
    }
    assert.match(report.summary, /failing: Prices\.MSTest\.TaxTests\.Add_AddsTenPercent, Prices\.NUnit\.TaxTests\.Add_AddsTenPercent/);
  });
});

describe('an MTP app in a VSTest-mode workspace (recorded: fixtures/VerificationMtpUnderVstest)', () => {
  after(removeRecordedWorkspaces);

  it('runs the VSTest project with the logger and the MTP app with its options after --, and fails on the app’s failing test', async () => {
    const { report } = await replayRun('mtp-under-vstest');
    const projects = byName(report);
    assert.equal(projects.get('Lib.VstestTests')!.runner, 'vstest');
    assert.equal(projects.get('Lib.VstestTests')!.status, 'passed');
    assert.equal(projects.get('Lib.MtpTests')!.runner, 'mtpUnderVstest');
    assert.equal(projects.get('Lib.MtpTests')!.trxOption, '--report-xunit-trx');
    const mtpStep = report.steps.find((step) => step.kind === 'test' && step.target.includes('Lib.MtpTests') && !step.commandLine.includes('--help'))!;
    assert.match(mtpStep.commandLine, / -- --report-xunit-trx --results-directory /);
    assert.equal(report.status, 'failed', report.summary);
    assert.deepEqual(report.tests!.failedTests.map((test) => test.name), ['Lib.MtpTests.CalcTests.AddsNegativeNumbers']);
    assert.deepEqual(report.tests!.counters, { total: 5, passed: 4, failed: 1, skipped: 0, other: 0 });
  });
});

describe('a test framework whose runtime is not installed (recorded: fixtures/VerificationMissingRuntime, net8.0 and net10.0, no .NET 8 runtime)', () => {
  after(removeRecordedWorkspaces);

  it('counts the tests of the framework that ran and names the missing runtime per framework', async () => {
    const { report } = await replayRun('vstest-missing-runtime');
    assert.equal(report.status, 'missingPrerequisites', report.summary);
    const project = report.tests!.projects[0]!;
    assert.equal(project.status, 'missingPrerequisites');
    assert.equal(project.counters.passed, 2, 'the net10.0 tests ran and passed');
    assert.equal(project.counters.failed, 0);
    assert.match(project.reason ?? '', /net8\.0/);
    assert.deepEqual(report.prerequisites.map((p) => [p.kind, /net8\.0/.test(p.message)]), [['runtime', true]]);
    assert.match(report.summary, /2 passed/);
  });

  it('a failing test on the framework that ran fails the verification (it is not hidden as a prerequisite)', async () => {
    const { report } = await replayRun('vstest-missing-runtime', { trx: (_name, text) => text.replace(/(testName="[^"]*AreaOfThreeIsNine"[^>]*outcome=")Passed"/, '$1Failed"') });
    assert.equal(report.status, 'failed', report.summary);
    assert.deepEqual(report.tests!.failedTests.map((test) => test.name), ['Shapes.Tests.SquareTests.AreaOfThreeIsNine']);
    assert.equal(report.tests!.projects[0]!.counters.passed, 1);
    assert.ok(report.prerequisites.some((p) => p.kind === 'runtime' && /net8\.0/.test(p.message)), JSON.stringify(report.prerequisites));
  });
});

/** A host that must not be asked (the runner refuses before it). */
function untouchedHost(asked: string[]): HostRequester {
  return { request: async (method) => { asked.push(method); throw new Error(`no host request expected, got ${method}`); } };
}

describe('before any process: refusals, a workspace without .NET, a missing SDK, restoring', () => {
  after(removeRecordedWorkspaces);
  const graph = (recordedRun('vstest-failing-test').host.projectGraph as { projects: Node[] }).projects;
  const passing = (args: readonly string[]): ScriptedRun => (args[0] === '--version' ? { output: '10.0.100' } : args[0] === 'build' ? { output: '' } : { trx: { 'Pricing.Tests.trx': trxOf({ 'Pricing.Tests.A': 'Passed' }) } });
  const run = (ws: RecordedWorkspace, request: object, context: { host?: HostRequester; permissions?: PermissionPolicy } = {}) =>
    verify(VerifyRequestSchema.parse(request), {
      workspaceFolder: ws.folder,
      permissions: context.permissions ?? { request: async () => ({ granted: true, source: 'policy' }) },
      requestedBy: 'unit test',
      host: context.host ?? ws.host,
      stateRoot: ws.stateRoot,
      processes: ws.processes,
    });

  it('read-only refuses before any process starts, the host included', async () => {
    const ws = new RecordedWorkspace(graph, passing);
    const asked: string[] = [];
    const report = checked(await run(ws, { scope: 'all' }, { host: untouchedHost(asked), permissions: new CliPermissionPolicy({ mode: 'read-only', allowEvaluation: true, allowShell: true, allowWrite: true }) }));
    assert.equal(report.status, 'denied');
    assert.match(report.summary, /read-only/);
    assert.deepEqual(report.steps, []);
    assert.deepEqual([asked, ws.calls], [[], []]);
  });

  it('a terminal that cannot prompt, without --allow-shell, refuses before the host starts', async () => {
    const ws = new RecordedWorkspace(graph, passing);
    const asked: string[] = [];
    const report = checked(await run(ws, { scope: 'build' }, { host: untouchedHost(asked), permissions: new CliPermissionPolicy({ mode: 'workspace-write', allowEvaluation: true, allowShell: false, allowWrite: true }) }));
    assert.equal(report.status, 'denied');
    assert.match(report.summary, /Pass --allow-shell/);
    assert.deepEqual([asked, ws.calls], [[], []]);
  });

  it('a workspace without .NET is skipped with the host\'s reason, without asking for permission', async () => {
    const ws = new RecordedWorkspace([], passing);
    const reason = 'There is no .sln, .slnx or .csproj at the top of the workspace. No .sln, .slnx or .csproj was found in the folders below either.';
    // The host's answer for a folder without .NET: no_target without candidates.
    const host: HostRequester = { request: async () => { throw new ToolError('no_target', reason); } };
    const asked: unknown[] = [];
    const report = checked(await run(ws, { scope: 'all' }, { host, permissions: { request: async (request) => (asked.push(request), { granted: true, source: 'policy' }) } }));
    assert.equal(report.status, 'skipped');
    assert.equal(report.summary, `Skipped: ${reason}`);
    assert.deepEqual([asked, report.steps, ws.calls], [[], [], []]);
  });

  it('a global.json nothing installed satisfies is a missing SDK with the command to list what is installed', async () => {
    const notFound = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'test', 'unit', 'verification', 'recorded', 'sdk-not-found', 'output.txt'), 'utf8');
    const ws = new RecordedWorkspace(graph, (args) => (args[0] === '--version' ? { exitCode: 155, output: notFound } : passing(args)), { globalJson: '{ "sdk": { "version": "99.0.100", "rollForward": "disable" } }' });
    const report = checked(await run(ws, { scope: 'build' }));
    assert.equal(report.status, 'missingPrerequisites');
    assert.equal(report.prerequisites[0]!.kind, 'sdk');
    assert.equal(report.prerequisites[0]!.command, 'dotnet --list-sdks');
    assert.deepEqual(ws.commands(), ['--version']);
  });

  it('restore: true is what lets the build restore (no --no-restore), and an unrestored project is then no prerequisite', async () => {
    const ws = new RecordedWorkspace(graph, passing, { unrestored: ['src/Pricing/Pricing.csproj'] });
    const report = checked(await run(ws, { scope: 'build', restore: true }));
    assert.equal(report.status, 'passed', report.summary);
    assert.ok(!ws.calls[1]!.args.includes('--no-restore'));
    assert.deepEqual(report.prerequisites, []);
  });
});

describe('affected: the changes from Git, through the recorded graph of fixtures/VerificationGraph', () => {
  after(removeRecordedWorkspaces);
  const graph = (recordedRun('vstest-graph-all').host.projectGraph as { projects: Node[] }).projects;
  const passing = (args: readonly string[]): ScriptedRun => {
    if (args[0] === '--version') return { output: '10.0.100' };
    if (args[0] === 'build') return { output: '' };
    return { trx: { [`${path.basename(args[1]!, '.csproj')}.trx`]: trxOf({ [`${path.basename(args[1]!, '.csproj')}.A`]: 'Passed' }) } };
  };
  const git = (ws: RecordedWorkspace, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=test@example.invalid', '-c', 'user.name=SharpClaw tests', '-c', 'commit.gpgsign=false', ...args], { cwd: ws.folder, encoding: 'utf8' });
  const committed = () => {
    const ws = new RecordedWorkspace(graph, passing);
    git(ws, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(ws.folder, '.gitignore'), 'bin/\nobj/\n');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'fixture');
    return ws;
  };

  it('a changed file selects its owner and dependents, built through one traversal project for two roots, named for people; the approval wait is not the run\'s duration', async () => {
    const ws = committed();
    fs.appendFileSync(path.join(ws.folder, 'src/Left/LeftSide.cs'), '// edited\n');
    // The person takes a while to answer the approval: that wait is not the run's duration.
    const slowApproval: PermissionPolicy = { request: async () => (await new Promise((resolve) => setTimeout(resolve, 300)), { granted: true, source: 'policy' }) };
    const steps: string[] = [];
    const started = Date.now();
    const report = checked(
      await verify(VerifyRequestSchema.parse({ scope: 'affected' }), { workspaceFolder: ws.folder, permissions: slowApproval, requestedBy: 'unit test', host: ws.host, stateRoot: ws.stateRoot, processes: ws.processes, progress: (message) => steps.push(message) }),
    );
    assert.ok(report.durationMs <= Date.now() - started - 300, `the duration ${report.durationMs} ms includes the approval`);
    assert.equal(report.status, 'passed', report.summary);
    assert.equal(report.selection!.changeSource, 'git');
    assert.deepEqual(report.selection!.changes, [{ path: 'src/Left/LeftSide.cs', kind: 'modified' }]);
    assert.deepEqual(report.selection!.projects.map((p) => p.name).sort(), ['App', 'Left', 'Top', 'Top.Tests']);
    assert.deepEqual(report.tests!.projects.map((p) => p.project), ['tests/Top.Tests/Top.Tests.csproj']);
    // The private traversal project is never named to a person: "Building 2 affected projects".
    assert.ok(steps.includes('Building 2 affected projects…'), steps.join(' | '));
    assert.doesNotMatch(steps.join('\n'), /affected\.proj/);
    const build = report.steps.find((step) => step.kind === 'build')!;
    assert.equal(build.target, '2 affected projects');
    assert.match(build.commandLine, /affected\.proj/, 'two roots (App, Top.Tests) are built by one traversal project');
  });

  it('Git\'s changes are read beside the host\'s evaluation, not after its answer', async () => {
    const ws = committed();
    fs.appendFileSync(path.join(ws.folder, 'src/Left/LeftSide.cs'), '// edited\n');
    // A git first on PATH that logs each command, then runs the real one.
    const bin = path.join(ws.stateRoot, 'bin');
    const log = path.join(ws.stateRoot, 'git-commands.txt');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
    const statusRan = () => fs.existsSync(log) && /^status\b/m.test(fs.readFileSync(log, 'utf8'));
    let statusBeforeGraph = false;
    // The evaluation answers once Git's status ran, or after 10 s without it.
    const host: HostRequester = {
      request: async (method, params, schema, signal) => {
        if (method === 'sharpclaw/projectGraph') {
          for (let waited = 0; waited < 10_000 && !statusRan(); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
          statusBeforeGraph = statusRan();
        }
        return ws.host.request(method, params, schema, signal);
      },
    };
    const pathBefore = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${pathBefore ?? ''}`;
    let report: VerificationReport;
    try {
      report = checked(await verify(VerifyRequestSchema.parse({ scope: 'affected' }), { workspaceFolder: ws.folder, permissions: { request: async () => ({ granted: true, source: 'policy' }) }, requestedBy: 'unit test', host, stateRoot: ws.stateRoot, processes: ws.processes }));
    } finally {
      process.env.PATH = pathBefore;
    }
    assert.equal(report.status, 'passed', report.summary);
    assert.deepEqual(report.selection!.changes, [{ path: 'src/Left/LeftSide.cs', kind: 'modified' }]);
    assert.ok(statusBeforeGraph, 'git status ran only after the evaluation answered');
  });

  it('--tests reached with a changed file that is not C#: every test of every test project runs, and the selection line says why', async () => {
    // Was test/host-e2e/verification/reachedTests.test.ts "runs every test, saying why, when a changed file is not C#"
    // (a real build and run of fixtures/TestReach's four test projects): the fallback is decided before the host
    // is asked, and what runs is the runner's, both seen here over the process-runner seam.
    const ws = committed();
    fs.writeFileSync(path.join(ws.folder, 'notes.json'), '{}\n');
    const report = checked(
      await verify(VerifyRequestSchema.parse({ scope: 'tests', testSelection: 'reached', changedFiles: ['notes.json'] }), { workspaceFolder: ws.folder, permissions: { request: async () => ({ granted: true, source: 'policy' }) }, requestedBy: 'unit test', host: ws.host, stateRoot: ws.stateRoot, processes: ws.processes }),
    );
    assert.equal(report.tests!.selection, 'all run — notes.json is not a C# file');
    assert.match(report.summary, /all run — notes\.json is not a C# file/);
    const testProjects = graph.filter((project) => project.isTestProject).map((project) => project.path).sort();
    assert.ok(testProjects.length >= 2, testProjects.join(', '));
    assert.deepEqual(report.tests!.projects.map((p) => p.project).sort(), testProjects);
    assert.ok(report.tests!.projects.every((p) => p.status !== 'skipped'), JSON.stringify(report.tests!.projects.map((p) => [p.project, p.status])));
    // No filter: every test of each project runs.
    assert.ok(report.steps.filter((step) => step.kind === 'test').every((step) => !/--filter/.test(step.commandLine)));
  });

  it('Directory.Build.props or a deleted file selects the whole target', async () => {
    const props = committed();
    fs.writeFileSync(path.join(props.folder, 'Directory.Build.props'), '<Project />\n');
    git(props, 'add', '-A');
    git(props, 'commit', '-q', '-m', 'props');
    fs.appendFileSync(path.join(props.folder, 'Directory.Build.props'), '<!-- edited -->\n');
    const whole = checked(await verify(VerifyRequestSchema.parse({ scope: 'affected' }), { workspaceFolder: props.folder, permissions: { request: async () => ({ granted: true, source: 'policy' }) }, requestedBy: 'unit test', host: props.host, stateRoot: props.stateRoot, processes: props.processes }));
    assert.equal(whole.selection!.wholeTarget, true);
    assert.match(whole.selection!.reason, /Directory\.Build\.props is a build or configuration input/);

    const deleted = committed();
    fs.rmSync(path.join(deleted.folder, 'src/Core/Numbers.cs'));
    const gone = checked(await verify(VerifyRequestSchema.parse({ scope: 'affected' }), { workspaceFolder: deleted.folder, permissions: { request: async () => ({ granted: true, source: 'policy' }) }, requestedBy: 'unit test', host: deleted.host, stateRoot: deleted.stateRoot, processes: deleted.processes }));
    assert.equal(gone.selection!.wholeTarget, true);
  });

  it('an explicit change list instead of Git; nothing changed is skipped before any build', async () => {
    const ws = committed();
    const listed = checked(await verify(VerifyRequestSchema.parse({ scope: 'affected', changedFiles: ['src/App/Program.cs'] }), { workspaceFolder: ws.folder, permissions: { request: async () => ({ granted: true, source: 'policy' }) }, requestedBy: 'unit test', host: ws.host, stateRoot: ws.stateRoot, processes: ws.processes }));
    assert.equal(listed.selection!.changeSource, 'request');
    assert.deepEqual(listed.selection!.projects.map((p) => p.name), ['App']);
    assert.equal(listed.tests?.status, 'skipped');
    const clean = checked(await verify(VerifyRequestSchema.parse({ scope: 'affected' }), { workspaceFolder: ws.folder, permissions: { request: async () => ({ granted: true, source: 'policy' }) }, requestedBy: 'unit test', host: ws.host, stateRoot: ws.stateRoot, processes: ws.processes }));
    assert.equal(clean.status, 'skipped');
    assert.match(clean.summary, /No files changed/);
    assert.ok(!clean.steps.some((step) => step.kind === 'build'));
  });
});

// What `dotnet test` itself printed in the recorded real runs (the totals lines of each test command), summed:
// the report's counters (read from the TRX files) must be the same numbers. The real runs themselves are checked
// against these recordings by test/host-e2e/verification/runnerModes.test.ts, which no longer runs a second,
// plain `dotnet test` of its own for this.
describe('the recorded MTP runs count what dotnet test printed', () => {
  after(removeRecordedWorkspaces);
  /** `dotnet test`'s own totals, from its output: MTP mode prints `total: N` lines, VSTest mode (and an MTP app under it) one line per assembly. */
  function printedTotals(name: string): { exitCodes: Array<number | null>; total: number; failed: number; passed: number; skipped: number } {
    const calls = recordedRun(name).calls.filter((call) => call.args[0] === 'test');
    const text = calls.map((call) => fs.readFileSync(path.join(recordedRoot, name, call.output), 'utf8')).join('\n');
    const sum = (pattern: RegExp) => [...text.matchAll(pattern)].reduce((total, match) => total + Number(match[1]), 0);
    const mtp = /^\s*total:\s*\d+/m.test(text);
    const exitCodes = calls.map((call) => call.exitCode);
    return mtp
      ? { exitCodes, total: sum(/^\s*total:\s*(\d+)/gm), failed: sum(/^\s*failed:\s*(\d+)/gm), passed: sum(/^\s*succeeded:\s*(\d+)/gm), skipped: sum(/^\s*skipped:\s*(\d+)/gm) }
      : { exitCodes, total: sum(/Total:\s*(\d+)/g), failed: sum(/Failed:\s*(\d+)/g), passed: sum(/Passed:\s*(\d+)/g), skipped: sum(/Skipped:\s*(\d+)/g) };
  }

  for (const name of ['mtp-mode', 'mtp-under-vstest']) {
    it(`${name}: the report's counters are the totals dotnet test printed`, async () => {
      const printed = printedTotals(name);
      assert.ok(printed.exitCodes.some((code) => code !== 0), 'a test fails');
      assert.ok(printed.total > 0, 'dotnet test printed its totals');
      const { report } = await replayRun(name);
      const c = report.tests!.counters;
      assert.deepEqual({ total: c.total, failed: c.failed, passed: c.passed, skipped: c.skipped }, { total: printed.total, failed: printed.failed, passed: printed.passed, skipped: printed.skipped });
    });
  }
});
