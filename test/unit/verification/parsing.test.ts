// The verification runner's pure parts: diagnostics, TRX, requests, solutions, affected
// selection on a hand-made graph, bounded logs, the lock within one process.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildRoots, isBuildInput, selectAffected } from '../../../src/engine/verification/affected';
import { BoundedLog } from '../../../src/engine/verification/boundedLog';
import { DiagnosticCollector, parseDiagnosticLine } from '../../../src/engine/verification/diagnostics';
import type { EvaluatedProject, ProjectGraph } from '../../../src/engine/verification/projectGraph';
import { VerificationReportSchema } from '../../../src/engine/verification/report';
import { resolveVerifyRequest } from '../../../src/engine/config/settings';
import { parseVerifyOptions, VerifyRequestSchema } from '../../../src/engine/verification/request';
import { parseTrx, TrxError } from '../../../src/engine/verification/trx';
import { acquireWorkspaceLock, LockWaitError } from '../../../src/engine/workspaceLock';

const trx = (results: string, definitions = '', summary = '<ResultSummary outcome="Completed"><Counters total="0" /></ResultSummary>') =>
  `\uFEFF<?xml version="1.0" encoding="utf-8"?>
<TestRun id="1" name="run" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">
  <Results>${results}</Results>
  <TestDefinitions>${definitions}</TestDefinitions>
  ${summary}
</TestRun>`;

describe('verification: build diagnostics', () => {
  it('parses the canonical MSBuild format with the project and framework suffix', () => {
    const d = parseDiagnosticLine('/w/src/A.cs(6,35): error CS0029: Cannot implicitly convert type \'string\' to \'int\' [/w/src/A.csproj::TargetFramework=net9.0]');
    assert.deepEqual(d, {
      severity: 'error',
      code: 'CS0029',
      message: "Cannot implicitly convert type 'string' to 'int'",
      file: '/w/src/A.cs',
      line: 6,
      column: 35,
      endLine: null,
      endColumn: null,
      project: '/w/src/A.csproj',
      frameworks: ['net9.0'],
    });
    const msb = parseDiagnosticLine('/sdk/Microsoft.PackageDependencyResolution.targets(266,5): error NETSDK1004: Assets file \'/w/obj/project.assets.json\' not found. [/w/A.csproj]');
    assert.equal(msb?.code, 'NETSDK1004');
    const noFile = parseDiagnosticLine('MSBUILD : error MSB1009: Project file does not exist.');
    assert.equal(noFile?.file, 'MSBUILD');
    assert.equal(noFile?.code, 'MSB1009');
    assert.equal(parseDiagnosticLine('Build FAILED.'), undefined);
    assert.equal(parseDiagnosticLine('    0 Warning(s)'), undefined);
    assert.equal(parseDiagnosticLine('  Core -> /w/bin/Debug/net10.0/Core.dll'), undefined);
  });

  it('de-duplicates the summary repetition and per-framework repeats, keeping every framework', () => {
    const collector = new DiagnosticCollector();
    const line = '/w/A.cs(1,2): warning CS0168: The variable \'x\' is declared but never used [/w/A.csproj::TargetFramework=net10.0]';
    collector.add(line);
    collector.add(line.replace('net10.0', 'net9.0'));
    collector.add(line); // the console summary
    collector.add('/w/A.cs(3,4): error CS0103: The name \'y\' does not exist in the current context [/w/A.csproj]');
    const list = collector.list();
    assert.equal(list.length, 2);
    assert.equal(list[0]!.severity, 'error', 'errors first');
    assert.deepEqual(list[1]!.frameworks, ['net10.0', 'net9.0']);
  });
});

describe('verification: TRX', () => {
  const failed = `<UnitTestResult testId="t1" testName="A.Tests.Fails" outcome="Failed"><Output><ErrorInfo><Message>Assert.Equal() Failure: 1 &lt; 2 &amp; more</Message><StackTrace>   at A.Tests.Fails() in /w/A.Tests/T.cs:line 12</StackTrace></ErrorInfo></Output></UnitTestResult>`;
  const passed = '<UnitTestResult testId="t2" testName="A.Tests.Passes" outcome="Passed" />';
  const skipped = '<UnitTestResult testId="t3" testName="A.Tests.Later" outcome="NotExecuted" />';
  const definition = '<UnitTest id="t1" name="A.Tests.Fails" storage="/w/a.dll"><TestMethod codeBase="/w/A.Tests/bin/Debug/net10.0/A.Tests.dll" className="A.Tests" name="Fails" /></UnitTest>';

  it('counts outcomes itself, and reads failed cases with message, stack and assembly', () => {
    const run = parseTrx(trx(failed + passed + skipped, definition));
    assert.deepEqual(run.counters, { total: 3, passed: 1, failed: 1, skipped: 1, other: 0 });
    const failure = run.results.find((r) => r.outcome === 'Failed')!;
    assert.equal(failure.name, 'A.Tests.Fails');
    assert.equal(failure.message, 'Assert.Equal() Failure: 1 < 2 & more');
    assert.match(failure.stackTrace, /T\.cs:line 12/);
    assert.equal(failure.assembly, '/w/A.Tests/bin/Debug/net10.0/A.Tests.dll');
  });

  it('reads a valid TRX without results as zero tests (the runner reports it as skipped)', () => {
    const run = parseTrx(trx(''));
    assert.deepEqual(run.counters, { total: 0, passed: 0, failed: 0, skipped: 0, other: 0 });
    assert.deepEqual(run.runErrors, []);
  });

  it('treats MTP exit code 8 (zero tests) as no tests, and a crashed host as a run error', () => {
    const zero = parseTrx(trx('', '', '<ResultSummary outcome="Failed"><RunInfos><RunInfo outcome="Error"><Text>Exit code 8: zero tests ran</Text></RunInfo></RunInfos></ResultSummary>'));
    assert.equal(zero.zeroTestsExitCode, true);
    assert.deepEqual(zero.runErrors, []);
    const crash = parseTrx(trx(passed, '', '<ResultSummary outcome="Failed"><RunInfos><RunInfo outcome="Error"><Text>The active test run was aborted. Reason: Test host process crashed</Text></RunInfo></RunInfos></ResultSummary>'));
    assert.match(crash.runErrors[0]!, /crashed/);
  });

  it('qualifies a display name (MSTest, NUnit) by its class, cases included; a qualified name stays; exit code 2 with failures is no run error', () => {
    const definitions = (rows: [string, string, string][]) =>
      `<TestDefinitions>${rows.map(([id, className, name]) => `<UnitTest id="${id}" name="${name}"><TestMethod codeBase="/w/T.dll" className="${className}" name="${name}" /></UnitTest>`).join('')}</TestDefinitions>`;
    const results = ['Add_AddsTenPercent', 'Rounds(1.005m)', 'Ns.XunitTests.C.M(x: 1)'].map((name, i) => `<UnitTestResult testId="d${i}" testName="${name}" outcome="Failed" />`).join('');
    const body = `<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">${definitions([['d0', 'Ns.MSTests.TaxTests', 'Add_AddsTenPercent'], ['d1', 'Ns.NUnit.CartTests', 'Rounds'], ['d2', 'Ns.XunitTests.C', 'M']])}<Results>${results}</Results><ResultSummary outcome="Failed"><RunInfos><RunInfo outcome="Error"><Text>Exit code indicates failure: '2'. Please refer to https://aka.ms/testingplatform/exitcodes for more information.</Text></RunInfo></RunInfos></ResultSummary></TestRun>`;
    const run = parseTrx(body);
    assert.deepEqual(run.results.map((r) => r.name), ['Ns.MSTests.TaxTests.Add_AddsTenPercent', 'Ns.NUnit.CartTests.Rounds(1.005m)', 'Ns.XunitTests.C.M(x: 1)']);
    assert.deepEqual(run.runErrors, []);
  });

  it('does not count xUnit\'s echo of an ordinary failing test as a test run error', () => {
    const failing = parseTrx(trx(passed, '', '<ResultSummary outcome="Failed"><RunInfos><RunInfo outcome="Error"><Text>[xUnit.net 00:00:02.28]     Pricing.Tests.DiscountTests.OrdersOfExactlyOneHundredGetTheDiscount [FAIL]</Text></RunInfo></RunInfos></ResultSummary>'));
    assert.deepEqual(failing.runErrors, []);
  });

  it('rejects malformed XML, a missing TestRun and any DTD; never expands entities', () => {
    assert.throws(() => parseTrx('<TestRun><Results><UnitTestResult outcome="Passed"></Results>'), TrxError);
    assert.throws(() => parseTrx('<?xml version="1.0"?><Other />'), /no TestRun/);
    assert.throws(() => parseTrx('<?xml version="1.0"?><!DOCTYPE TestRun [<!ENTITY x "boom">]><TestRun>&x;</TestRun>'), /DTD/);
    const literal = parseTrx(trx('<UnitTestResult testId="a" testName="&amp;x; &#65;" outcome="Passed" />'));
    assert.equal(literal.results[0]!.name, '&x; A', 'only predefined entities and character references are decoded');
  });
});

describe('verification: requests shared by the CLI, the REPL and the tool', () => {
  it('parses scope, target, restore, configuration, framework, timeout and changed files; unset ones default after the settings', () => {
    assert.deepEqual(parseVerifyOptions({}), {}, 'what is not given is left to the settings (config/settings.ts)');
    assert.deepEqual(resolveVerifyRequest(parseVerifyOptions({})), { scope: 'all', configuration: 'Debug', restore: false, timeoutSeconds: 120, testSelection: 'all' });
    assert.deepEqual(parseVerifyOptions({ scope: 'affected', target: 'A.slnx', configuration: 'Release', framework: 'net10.0', restore: true, timeout: '30', changed: ['a.cs', 'b.cs'] }), {
      scope: 'affected',
      target: 'A.slnx',
      configuration: 'Release',
      framework: 'net10.0',
      restore: true,
      timeoutSeconds: 30,
      changedFiles: ['a.cs', 'b.cs'],
    });
  });

  it('rejects invalid values with what is valid', () => {
    assert.throws(() => parseVerifyOptions({ scope: 'everything' }), /--scope must be one of build, tests, all, affected/);
    assert.throws(() => parseVerifyOptions({ timeout: '0' }), /--timeout must be a whole number of seconds from 1 to 3600/);
    assert.throws(() => parseVerifyOptions({ timeout: '3601' }), /from 1 to 3600/);
    assert.throws(() => parseVerifyOptions({ configuration: 'Debug;rm -rf' }), /configuration/);
    assert.equal(VerifyRequestSchema.safeParse({ scope: 'all', allowRestore: true }).success, false, 'unknown arguments are refused');
  });
});

describe('verification: build inputs', () => {

  it('knows the build and configuration inputs that select the whole target', () => {
    for (const file of ['/w/Directory.Build.props', '/w/Directory.Build.targets', '/w/Directory.Packages.props', '/w/global.json', '/w/NuGet.Config', '/w/src/A/A.csproj', '/w/build/common.targets', '/w/A.slnx', '/w/src/A/obj/project.assets.json', '/w/.config/dotnet-tools.json', '/w/.editorconfig']) {
      assert.ok(isBuildInput(file), file);
    }
    for (const file of ['/w/src/A/A.cs', '/w/README.md', '/w/src/A/appsettings.json']) assert.ok(!isBuildInput(file), file);
  });
});

describe('verification: affected selection on a graph', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-aff-'));
  const project = (name: string, refs: string[], owned: string[], isTestProject = false): EvaluatedProject => ({
    path: path.join(root, name, `${name}.csproj`),
    name,
    isTestProject,
    testProjectSource: isTestProject ? 'IsTestProject' : null,
    testingPlatformApplication: false,
    testingPlatformDotnetTestSupport: false,
    targetFrameworks: ['net10.0'],
    multiTargeted: false,
    outputType: 'Library',
    assetsFile: null,
    targetPaths: {},
    ownedFiles: owned.map((file) => path.join(root, file)),
    projectReferences: refs.map((ref) => path.join(root, ref, `${ref}.csproj`)),
    packageReferences: [],
    imports: [],
  });
  // Core ← Left, Right ← Top ← App; Top.Tests → Top; Shared.cs linked into Left and Right.
  const graph: ProjectGraph = {
    projects: new Map(
      [
        project('Core', [], ['Core/Core.cs']),
        project('Left', ['Core'], ['Left/Left.cs', 'Shared/Shared.cs']),
        project('Right', ['Core'], ['Right/Right.cs', 'Shared/Shared.cs']),
        project('Top', ['Left', 'Right'], ['Top/Top.cs']),
        project('App', ['Top'], ['App/Program.cs']),
        project('Top.Tests', ['Top'], ['Top.Tests/T.cs'], true),
      ].map((p) => [p.path, p]),
    ),
    evaluated: 6,
    cached: 0,
    durationMs: 0,
  };
  before(() => {
    for (const file of ['Core/Core.cs', 'Left/Left.cs', 'Right/Right.cs', 'Shared/Shared.cs', 'Top/Top.cs', 'App/Program.cs', 'Top.Tests/T.cs', 'notes.txt']) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), '');
    }
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const names = (selection: ReturnType<typeof selectAffected>) => [...selection.projects.keys()].map((p) => path.basename(p, '.csproj')).sort();

  it('selects the owner and every reverse dependent, with reasons, through the diamond', () => {
    const selection = selectAffected(graph, [{ path: 'Core/Core.cs', kind: 'modified' }], root);
    assert.equal(selection.wholeTarget, false);
    assert.deepEqual(names(selection), ['App', 'Core', 'Left', 'Right', 'Top', 'Top.Tests']);
    assert.deepEqual(selection.projects.get(path.join(root, 'Core', 'Core.csproj')), ['owns Core/Core.cs']);
    assert.match(selection.projects.get(path.join(root, 'App', 'App.csproj'))!.join(), /depends on Core through Top/);
    assert.deepEqual(buildRoots(graph, [...selection.projects.keys()]).map((p) => path.basename(p)), ['App.csproj', 'Top.Tests.csproj']);
  });

  it('selects every owner of a linked file, and only the leaf for a leaf file', () => {
    assert.deepEqual(names(selectAffected(graph, [{ path: 'Shared/Shared.cs', kind: 'modified' }], root)), ['App', 'Left', 'Right', 'Top', 'Top.Tests']);
    assert.deepEqual(names(selectAffected(graph, [{ path: 'App/Program.cs', kind: 'modified' }], root)), ['App']);
  });

  it('selects the whole target for deleted, missing, unknown, unclaimed and build-input changes', () => {
    const cases: Array<[string, 'modified' | 'deleted' | 'unknown', RegExp]> = [
      ['Core/Core.cs', 'deleted', /was deleted/],
      ['Core/Gone.cs', 'modified', /missing on disk/],
      ['Core/Core.cs', 'unknown', /unknown/],
      ['notes.txt', 'modified', /No project of the target claims notes\.txt/],
      ['Directory.Build.props', 'modified', /build or configuration input/],
    ];
    for (const [file, kind, reason] of cases) {
      const selection = selectAffected(graph, [{ path: file, kind }], root);
      assert.equal(selection.wholeTarget, true, file);
      assert.match(selection.reason, reason);
    }
  });

  it('selects nothing when nothing changed', () => {
    const selection = selectAffected(graph, [], root);
    assert.equal(selection.wholeTarget, false);
    assert.equal(selection.projects.size, 0);
  });
});

describe('verification: bounded logs and the report schema', () => {
  it('keeps the head and the tail of long output', () => {
    const log = new BoundedLog(10, 10);
    log.append('0123456789ABCDEFGHIJ');
    log.append('KLMNOPQRSTUVWXYZ');
    const snapshot = log.snapshot();
    assert.equal(snapshot.truncated, true);
    assert.equal(snapshot.totalBytes, 36);
    assert.ok(snapshot.text.startsWith('0123456789'));
    assert.ok(snapshot.text.endsWith('QRSTUVWXYZ'));
  });

  it('describes reports as JSON Schema (for the sidebar and other clients)', () => {
    const { z } = require('zod') as typeof import('zod');
    const schema = z.toJSONSchema(VerificationReportSchema) as { properties: Record<string, unknown> };
    for (const key of ['status', 'scope', 'target', 'configuration', 'framework', 'startedAt', 'finishedAt', 'selection', 'steps', 'build', 'tests', 'prerequisites']) {
      assert.ok(key in schema.properties, key);
    }
  });
});

describe('verification: the workspace lock within one process', () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-lock-'));
  after(() => fs.rmSync(stateDir, { recursive: true, force: true }));

  it('makes a second holder wait until the first releases', async () => {
    const first = await acquireWorkspaceLock(stateDir, { timeoutMs: 1000 });
    let waited = false;
    const second = acquireWorkspaceLock(stateDir, { timeoutMs: 5000, onWait: () => (waited = true), pollMs: 50 });
    // Fixed on purpose: the second holder must not get the lock while the first holds it (nothing to poll for).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.release();
    const lock = await second;
    assert.ok(waited);
    assert.ok(lock.waitedMs >= 250, `waited ${lock.waitedMs} ms`);
    await lock.release();
  });

  it('gives up at the timeout, or when cancelled, with different outcomes', async () => {
    const holder = await acquireWorkspaceLock(stateDir, { timeoutMs: 1000 });
    try {
      await assert.rejects(acquireWorkspaceLock(stateDir, { timeoutMs: 300, pollMs: 50 }), (error: unknown) => error instanceof LockWaitError && error.outcome === 'timedOut');
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      await assert.rejects(acquireWorkspaceLock(stateDir, { timeoutMs: 10_000, signal: controller.signal, pollMs: 50 }), (error: unknown) => error instanceof LockWaitError && error.outcome === 'cancelled');
    } finally {
      await holder.release();
    }
  });
});
