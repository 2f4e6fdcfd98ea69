// The runner's steps (src/engine/verification/steps) over its process-runner seam: what each step
// selects, runs and reports, from scripted and recorded dotnet outputs, without dotnet. The same
// behaviours against real dotnet are in test/host-e2e/verification.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { VerificationReportSchema, type VerificationReport } from '../../../src/engine/verification/report';
import { dotnetRootOf } from '../../../src/engine/verification/sdkCheckCache';
import { node, recorded, recordedCollection, RecordedWorkspace, removeRecordedWorkspaces, testNode, trxOf, type ScriptedRun } from './recordedRuns';

const lib = node('src/Lib/Lib.csproj');
const app = node('src/App/App.csproj', { projectReferences: ['src/Lib/Lib.csproj'] });
const libTests = testNode('tests/Lib.Tests/Lib.Tests.csproj', { projectReferences: ['src/Lib/Lib.csproj'] });
const appTests = testNode('tests/App.Tests/App.Tests.csproj', { projectReferences: ['src/App/App.csproj'] });
const graph = [lib, app, libTests, appTests];

/** dotnet that passes everything: the SDK answers, the build is clean, each test project passes two tests. */
function passing(args: readonly string[]): ScriptedRun {
  if (args[0] === '--version') return { output: '10.0.100' };
  if (args[0] === 'build') return { output: '' };
  const name = path.basename(args[1]!, '.csproj');
  return { output: 'Passed!', trx: { [`${name}.trx`]: trxOf({ [`${name}.One`]: 'Passed', [`${name}.Two`]: 'Passed' }) } };
}

const checked = (report: VerificationReport) => VerificationReportSchema.parse(report);
/** Every event but the host's graph answers (an evaluation, an offer of a build collection, a graph from one). */
const notHostGraph = (event: string) => !event.startsWith('graph') && event !== 'offer';

describe('verification steps over recorded dotnet runs', () => {
  after(removeRecordedWorkspaces);

  it('all: SDK check, one build of the target, each test project once; passed with the counts of every TRX', async () => {
    const ws = new RecordedWorkspace(graph, passing);
    const report = checked(await ws.verify({ scope: 'all' }));
    assert.equal(report.status, 'passed', report.summary);
    assert.deepEqual([...ws.commands().slice(0, 2), ...ws.commands().slice(2).sort()], ['--version', 'build', 'test App.Tests', 'test Lib.Tests']);
    assert.equal(ws.calls[1]!.args[1], path.join(ws.folder, 'App.slnx'));
    assert.ok(ws.calls[1]!.args.includes('--no-restore'));
    assert.deepEqual(report.tests?.counters, { total: 4, passed: 4, failed: 0, skipped: 0, other: 0 });
    assert.deepEqual(report.selection?.projects.map((p) => p.name).sort(), ['App', 'App.Tests', 'Lib', 'Lib.Tests']);
    assert.match(report.summary, /^passed: build passed \(0 error\(s\), 0 warning\(s\)\); tests passed: 4 passed, 0 failed, 0 skipped in 2 project\(s\)$/);
  });

  it('affected: the owner of a changed file and its dependents, built through their roots, and only their tests', async () => {
    const ws = new RecordedWorkspace(graph, passing);
    const report = checked(await ws.verify({ scope: 'affected', changedFiles: ['src/App/App.cs'] }));
    assert.equal(report.status, 'passed', report.summary);
    assert.deepEqual(report.selection?.projects.map((p) => p.name).sort(), ['App', 'App.Tests']);
    assert.equal(report.selection?.wholeTarget, false);
    assert.deepEqual(ws.commands(), ['--version', 'build', 'test App.Tests']);
    // One root (App.Tests references App): built directly, not through a traversal project.
    assert.equal(ws.calls[1]!.args[1], path.join(ws.folder, 'tests', 'App.Tests', 'App.Tests.csproj'));
  });

  it('affected with nothing changed: skipped before any build', async () => {
    const ws = new RecordedWorkspace(graph, passing);
    const report = checked(await ws.verify({ scope: 'affected', changedFiles: [] }));
    assert.equal(report.status, 'skipped', report.summary);
    assert.deepEqual(ws.commands(), ['--version']);
    assert.equal(report.tests?.status, 'skipped');
  });

  it('the SDK check takes the host\'s in-process answer for the dotnet it would run, and runs dotnet --version for any other', async () => {
    const root = dotnetRootOf('dotnet');
    assert.ok(root, 'dotnet on PATH');
    const answered = new RecordedWorkspace(graph, passing, { sdk: { dotnetRoot: root, version: '10.0.401', reason: null } });
    const report = checked(await answered.verify({ scope: 'build' }));
    assert.equal(report.status, 'passed', report.summary);
    assert.deepEqual(answered.events.filter(notHostGraph), ['resolveSdk', 'build']);
    const sdk = report.steps.find((step) => step.kind === 'sdk')!;
    assert.equal(sdk.commandLine, 'dotnet --version');
    assert.equal(sdk.exitCode, 0);
    assert.match(sdk.log.text, /^10\.0\.401\n\(answered without a process: the \.NET host's SDK resolver, as dotnet --version would in this folder with no global\.json above it\)\n$/);
    // Kept like a command's answer: the next run neither asks the host nor runs the command.
    const again = checked(await answered.verify({ scope: 'build' }));
    assert.deepEqual(answered.events.filter(notHostGraph), ['resolveSdk', 'build', 'build']);
    assert.match(again.steps.find((step) => step.kind === 'sdk')!.log.text, /\(reused: /);

    const other = fs.mkdtempSync(path.join(answered.stateRoot, 'other-dotnet-'));
    for (const sdkAnswer of [
      { dotnetRoot: other, version: '10.0.401', reason: null }, // the host runs on another installation
      { dotnetRoot: root, version: null, reason: 'a global.json applies, which dotnet --version parses itself' },
    ]) {
      const ws = new RecordedWorkspace(graph, passing, { sdk: sdkAnswer });
      const fallback = checked(await ws.verify({ scope: 'build' }));
      assert.equal(fallback.status, 'passed', fallback.summary);
      assert.deepEqual(ws.events.filter(notHostGraph), ['resolveSdk', '--version', 'build'], JSON.stringify(sdkAnswer));
      assert.match(fallback.steps.find((step) => step.kind === 'sdk')!.log.text, /^10\.0\.100$/m);
    }
  });

  it('a second verify does not run the SDK check again: its passing answer is reused from the state folder', async () => {
    const ws = new RecordedWorkspace(graph, passing);
    assert.equal(checked(await ws.verify({ scope: 'build' })).status, 'passed');
    const second = checked(await ws.verify({ scope: 'build' }));
    assert.equal(second.status, 'passed', second.summary);
    assert.deepEqual(ws.commands(), ['--version', 'build', 'build']);
    const sdk = second.steps.find((step) => step.kind === 'sdk')!;
    assert.equal(sdk.exitCode, 0);
    assert.match(sdk.log.text, /^10\.0\.100\n\(reused: dotnet, its installed SDKs, global\.json and the dotnet environment are unchanged since this check passed\)/);
  });

  it('a global.json added, changed or removed runs the SDK check again, and its answer counts', async () => {
    let answer: ScriptedRun = { output: '10.0.100' };
    const ws = new RecordedWorkspace(graph, (args) => (args[0] === '--version' ? answer : passing(args)));
    await ws.verify({ scope: 'build' });
    const globalJson = path.join(ws.folder, 'global.json');
    fs.writeFileSync(globalJson, '{"sdk":{"version":"99.0.100"}}');
    answer = { exitCode: 1, output: 'A compatible .NET SDK was not found. global.json requested 99.0.100' };
    const added = checked(await ws.verify({ scope: 'build' }));
    assert.equal(added.status, 'missingPrerequisites', 'the stored pass of the old global.json must not answer for the new one');
    assert.match(added.prerequisites[0]!.message, /global\.json/);
    // A failing check is never stored: the same global.json is checked again.
    const again = checked(await ws.verify({ scope: 'build' }));
    assert.equal(again.status, 'missingPrerequisites');
    fs.writeFileSync(globalJson, '{"sdk":{"version":"10.0.100"}}');
    answer = { output: '10.0.100' };
    assert.equal(checked(await ws.verify({ scope: 'build' })).status, 'passed');
    fs.rmSync(globalJson);
    assert.equal(checked(await ws.verify({ scope: 'build' })).status, 'passed');
    assert.deepEqual(ws.commands().filter((c) => c === '--version').length, 5, 'every global.json change ran the check');
    assert.equal(checked(await ws.verify({ scope: 'build' })).status, 'passed');
    assert.deepEqual(ws.commands().filter((c) => c === '--version').length, 5, 'nothing changed: reused');
  });

  it('another dotnet environment (DOTNET_ROLL_FORWARD) runs the SDK check again', async () => {
    const ws = new RecordedWorkspace(graph, passing);
    await ws.verify({ scope: 'build' });
    process.env.DOTNET_ROLL_FORWARD = 'LatestMajor';
    try {
      await ws.verify({ scope: 'build' });
    } finally {
      delete process.env.DOTNET_ROLL_FORWARD;
    }
    assert.deepEqual(ws.commands(), ['--version', 'build', '--version', 'build']);
  });

  it('a dotnet that cannot start is a missing SDK, named, and nothing else runs', async () => {
    const ws = new RecordedWorkspace(graph, () => ({ kind: 'failedToStart' }));
    const report = checked(await ws.verify({ scope: 'all' }));
    assert.equal(report.status, 'missingPrerequisites');
    assert.deepEqual(report.prerequisites.map((p) => p.kind), ['sdk']);
    assert.match(report.prerequisites[0]!.message, /could not be started \(spawn dotnet ENOENT\)/);
    assert.equal(ws.calls.length, 1);
  });

  it('an unrestored project is a prerequisite with its restore command, and nothing is built', async () => {
    const ws = new RecordedWorkspace(graph, passing, { unrestored: ['src/Lib/Lib.csproj'] });
    const report = checked(await ws.verify({ scope: 'all' }));
    assert.equal(report.status, 'missingPrerequisites');
    assert.deepEqual(report.prerequisites.map((p) => [p.kind, p.project, p.command]), [['assets', 'src/Lib/Lib.csproj', 'dotnet restore App.slnx']]);
    assert.deepEqual(ws.commands(), ['--version']);
    assert.equal(report.tests?.status, 'notRun');
  });

  it('all and build collect the evaluation in their build when the host keeps none: no evaluation beside it, the graph read after it', async () => {
    for (const scope of ['all', 'build'] as const) {
      const ws = new RecordedWorkspace(graph, passing, { evaluationMs: 200 });
      const report = checked(await ws.verify({ scope }));
      assert.equal(report.status, 'passed', report.summary);
      assert.deepEqual(ws.events.filter((event) => event !== '--version').slice(0, 3), ['offer', 'build', 'graph from the build'], scope);
      const build = ws.calls.find((call) => call.args[0] === 'build')!;
      assert.deepEqual(Object.fromEntries(Object.keys(recordedCollection.environment).map((name) => [name, build.env[name]])), recordedCollection.environment);
      assert.equal(report.steps.filter((step) => step.kind === 'build').length, 1);
    }
    // A graph the host keeps: the build runs as the person's would, nothing collected.
    const kept = new RecordedWorkspace(graph, passing, { keptGraph: true });
    assert.equal(checked(await kept.verify({ scope: 'all' })).status, 'passed');
    assert.deepEqual(kept.events.filter((event) => event !== '--version').slice(0, 2), ['graph', 'build']);
    assert.equal(kept.calls.find((call) => call.args[0] === 'build')!.env.SharpClawCollectFolder, undefined);
  });

  it('one framework, or a variable of the collection already set, builds beside a slow evaluation instead; affected waits for it to select', async () => {
    const framework = new RecordedWorkspace(graph, passing, { evaluationMs: 200 });
    assert.equal(checked(await framework.verify({ scope: 'all', framework: 'net10.0' })).status, 'passed');
    assert.deepEqual(framework.events.slice(0, 3), ['--version', 'build', 'graph']);
    const name = 'SharpClawCollectFolder';
    process.env[name] = '/the/person/s/own';
    try {
      const set = new RecordedWorkspace(graph, passing, { evaluationMs: 200 });
      assert.equal(checked(await set.verify({ scope: 'build' })).status, 'passed');
      assert.deepEqual(set.events.filter((event) => event !== '--version').slice(0, 3), ['offer', 'build', 'graph']);
      assert.equal(set.calls.find((call) => call.args[0] === 'build')!.env[name], undefined, 'the build keeps the person\'s variable');
    } finally {
      delete process.env[name];
    }
    const affected = new RecordedWorkspace(graph, passing, { evaluationMs: 200 });
    checked(await affected.verify({ scope: 'affected', changedFiles: ['src/App/App.cs'] }));
    assert.deepEqual(affected.events.slice(0, 3), ['--version', 'graph', 'build']);
  });

  it('a restore in the artifacts layout (UseArtifactsOutput: artifacts/obj/<project>/) starts the build early too; no assets file anywhere waits for the evaluation', async () => {
    const artifacts = graph.map((project) => ({ ...project, assetsFile: `artifacts/obj/${path.basename(project.path, '.csproj')}/project.assets.json` }));
    const ws = new RecordedWorkspace(artifacts, passing, { evaluationMs: 200 });
    assert.equal(checked(await ws.verify({ scope: 'all' })).status, 'passed');
    assert.deepEqual(ws.events.filter((event) => event !== '--version').slice(0, 3), ['offer', 'build', 'graph from the build']);
    assert.ok(!fs.existsSync(path.join(ws.folder, 'src', 'Lib', 'obj')), 'only the artifacts folder holds the assets');
    // One project without its assets file: the evaluation decides first (the prerequisite, no build).
    const unrestored = new RecordedWorkspace(artifacts, passing, { evaluationMs: 200, unrestored: [artifacts[0]!.path] });
    const report = checked(await unrestored.verify({ scope: 'all' }));
    assert.equal(report.status, 'missingPrerequisites', report.summary);
    assert.deepEqual(unrestored.events, ['--version', 'graph']);
  });

  it('cancelled while its build runs beside the evaluation or collects it: the build is reported cancelled, as when it runs after', async () => {
    for (const framework of [undefined, 'net10.0']) {
      const cancel = new AbortController();
      const ws = new RecordedWorkspace(graph, (args) => (args[0] === 'build' ? (cancel.abort(), { untilCancelled: true }) : passing(args)), { evaluationMs: 5_000 });
      const report = checked(await ws.verify({ scope: 'all', ...(framework ? { framework } : {}) }, cancel.signal));
      assert.equal(report.status, 'cancelled', report.summary);
      assert.equal(report.summary, 'Cancelled during the build.');
      assert.equal(report.steps.find((step) => step.kind === 'build')?.outcome, 'cancelled');
      assert.equal(report.build?.status, 'cancelled');
      assert.equal(report.tests?.status, 'notRun');
      assert.ok(!ws.events.includes('graph from the build'), 'no graph is asked of a cancelled build');
    }
  });

  it('a project outside the target not restored: a build beside the evaluation is stopped, a collecting build\'s failure is not reported; the prerequisite either way', async () => {
    const outside = node('shared/Shared/Shared.csproj');
    const options = { evaluationMs: 100, outsideTarget: [outside.path], unrestored: [outside.path] };
    const beside = new RecordedWorkspace([...graph, outside], (args) => (args[0] === 'build' ? { untilCancelled: true } : passing(args)), options);
    const report = checked(await beside.verify({ scope: 'all', framework: 'net10.0' }));
    assert.equal(report.status, 'missingPrerequisites', report.summary);
    assert.deepEqual(report.prerequisites.map((p) => [p.kind, p.project]), [['assets', 'shared/Shared/Shared.csproj']]);
    assert.deepEqual(beside.events, ['--version', 'build', 'graph', 'build cancelled']);
    assert.equal(report.build?.status, 'missingPrerequisites');
    assert.deepEqual(report.steps.filter((step) => step.kind === 'build'), []);

    const assetsError = `${path.join('shared', 'Shared', 'Shared.csproj')} : error NETSDK1004: Assets file 'project.assets.json' not found.`;
    const collecting = new RecordedWorkspace([...graph, outside], (args) => (args[0] === 'build' ? { exitCode: 1, output: assetsError } : passing(args)), options);
    const collected = checked(await collecting.verify({ scope: 'all' }));
    assert.equal(collected.status, 'missingPrerequisites', collected.summary);
    assert.deepEqual(collected.prerequisites.map((p) => [p.kind, p.project]), [['assets', 'shared/Shared/Shared.csproj']]);
    assert.deepEqual(collecting.events.filter((event) => event !== '--version'), ['offer', 'build', 'graph from the build']);
    assert.deepEqual(collected.steps.filter((step) => step.kind === 'build'), []);
  });

  it('the build\'s exit code decides: exit 1 without a diagnostic fails, and no test runs', async () => {
    const ws = new RecordedWorkspace(graph, (args) => (args[0] === 'build' ? { exitCode: 1, output: 'Build FAILED.' } : passing(args)));
    const report = checked(await ws.verify({ scope: 'all' }));
    assert.equal(report.status, 'failed');
    assert.equal(report.build?.reason, 'dotnet build exited with code 1 without printing any diagnostic.');
    assert.equal(report.tests?.status, 'notRun');
    assert.deepEqual(ws.commands(), ['--version', 'build']);
  });

  it('build errors that are all missing assets are prerequisites, not a failure; warnings are counted', async () => {
    const lines = [
      `${path.join('{workspace}', 'src', 'Lib', 'Lib.cs')}(3,13): warning CS0168: The variable 'x' is declared but never used [${path.join('{workspace}', 'src', 'Lib', 'Lib.csproj')}]`,
      `/usr/share/dotnet/sdk/10.0.100/Sdks/Microsoft.NET.Sdk/targets/Microsoft.PackageDependencyResolution.targets(266,5): error NETSDK1004: Assets file '${path.join('{workspace}', 'src', 'App', 'obj', 'project.assets.json')}' not found. Run a NuGet package restore to generate this file. [${path.join('{workspace}', 'src', 'App', 'App.csproj')}]`,
    ];
    const ws = new RecordedWorkspace(graph, (args) => (args[0] === 'build' ? { exitCode: 1, output: lines.join('\n') } : passing(args)));
    const report = checked(await ws.verify({ scope: 'build' }));
    assert.equal(report.status, 'missingPrerequisites', report.summary);
    assert.deepEqual(report.prerequisites.map((p) => [p.kind, p.project]), [['assets', 'src/App/App.csproj']]);
    assert.equal(report.build?.status, 'missingPrerequisites');
    assert.equal(report.build?.warnings, 1);
  });

  it('a build stopped by the timeout keeps its section and what it printed, and runs no test', async () => {
    const ws = new RecordedWorkspace(graph, (args) => (args[0] === 'build' ? { kind: 'timedOut', output: `${path.join('{workspace}', 'src', 'Lib', 'Lib.cs')}(1,1): warning CS1591: Missing XML comment [${path.join('{workspace}', 'src', 'Lib', 'Lib.csproj')}]` } : passing(args)));
    const report = checked(await ws.verify({ scope: 'all', timeoutSeconds: 5 }));
    assert.equal(report.status, 'timedOut');
    assert.match(report.summary, /Timed out after 5 s during the build/);
    assert.equal(report.build?.status, 'timedOut');
    assert.equal(report.build?.warnings, 1);
    assert.equal(report.tests?.status, 'notRun');
  });

  it('a failed test fails the run with its name, message and stack; a missing TRX of a framework is a failure', async () => {
    const multi = testNode('tests/Lib.Tests/Lib.Tests.csproj', { targetFrameworks: ['net8.0', 'net10.0'], projectReferences: ['src/Lib/Lib.csproj'] });
    const ws = new RecordedWorkspace([lib, multi], (args) =>
      args[0] === 'test' ? { exitCode: 1, trx: { 'Lib.Tests_net10.0_1.trx': trxOf({ 'Lib.Tests.Adds': 'Passed', 'Lib.Tests.Subtracts': 'Failed' }) } } : passing(args),
    );
    const report = checked(await ws.verify({ scope: 'all' }));
    assert.equal(report.status, 'failed');
    assert.deepEqual(report.tests?.failedTests.map((t) => [t.name, t.message, t.framework]), [['Lib.Tests.Subtracts', 'Assert.Equal() Failure', 'unknown']]);
    assert.match(report.tests!.projects[0]!.reason!, /^expected 2 TRX file\(s\) \(one per target framework\) and found 1; dotnet test exited with code 1/);
  });

  it('a VSTest framework whose runtime is missing is a named prerequisite per framework; the framework that ran counts', async () => {
    const multi = testNode('tests/Lib.Tests/Lib.Tests.csproj', { targetFrameworks: ['net8.0', 'net10.0'], projectReferences: ['src/Lib/Lib.csproj'] });
    const missing = "You must install or update .NET to run this application. Framework: 'Microsoft.NETCore.App', version '8.0.0' (x64) was not found.";
    const ws = new RecordedWorkspace([lib, multi], (args) =>
      args[0] === 'test'
        ? { exitCode: 1, output: missing, trx: { 'Lib.Tests_net10.0_1.trx': trxOf({ 'Lib.Tests.Adds': 'Passed' }), 'Lib.Tests_net8.0_1.trx': trxOf({}, missing) } }
        : passing(args),
    );
    const report = checked(await ws.verify({ scope: 'all' }));
    assert.equal(report.status, 'missingPrerequisites', report.summary);
    assert.deepEqual(report.prerequisites.map((p) => [p.kind, p.message]), [['runtime', 'tests/Lib.Tests/Lib.Tests.csproj (net8.0) needs a .NET runtime that is not installed; its tests did not run.']]);
    assert.equal(report.tests?.projects[0]?.reason, 'Not run on net8.0 (missing runtime); ran on net10.0: 1 passed.');
  });

  /** An MTP-mode workspace whose one test app (Lib.Tests) answers `--help` with `help` and passes its one test. */
  const mtpAppWorkspace = (help: string) =>
    new RecordedWorkspace(
      [lib, testNode('tests/Lib.Tests/Lib.Tests.csproj', { isTestingPlatformApplication: true, isTestProjectSource: 'testingPlatformApplication', projectReferences: ['src/Lib/Lib.csproj'] })],
      (args) => {
        if (args.includes('--help')) return { output: help };
        if (args[0] === 'test') return { trx: { 'Lib.Tests.trx': trxOf({ 'Lib.Tests.Adds': 'Passed' }) } };
        return passing(args);
      },
      { globalJson: '{ "test": { "runner": "Microsoft.Testing.Platform" } }' },
    );

  it('an MTP app is asked for its TRX option first, and the option it names is used', async () => {
    const ws = mtpAppWorkspace('  --report-xunit-trx   Enable generating xUnit TRX report.');
    const report = checked(await ws.verify({ scope: 'all' }));
    assert.equal(report.status, 'passed', report.summary);
    assert.deepEqual(ws.commands(), ['--version', 'build', 'test Lib.Tests --help', 'test Lib.Tests']);
    assert.ok(ws.calls[3]!.args.includes('--report-xunit-trx'));
    assert.equal(report.tests?.projects[0]?.runner, 'mtp');
    assert.equal(report.tests?.projects[0]?.trxOption, '--report-xunit-trx');
  });

  it('an MTP app\'s answer is kept while its build output is unchanged: the next run asks again only after a rebuild', async () => {
    const ws = mtpAppWorkspace('  --report-trx   Enable generating TRX report.');
    const output = path.join(ws.folder, 'tests', 'Lib.Tests', 'bin', 'Debug', 'net10.0', 'Lib.Tests.dll');
    fs.mkdirSync(path.dirname(output), { recursive: true });
    fs.writeFileSync(output, 'built once');
    const helps = () => ws.commands().filter((command) => command.endsWith('--help')).length;
    assert.equal(checked(await ws.verify({ scope: 'all' })).status, 'passed');
    const second = checked(await ws.verify({ scope: 'all' }));
    assert.equal(second.status, 'passed', second.summary);
    assert.equal(helps(), 1, 'the unchanged app was asked again');
    assert.ok(ws.calls.at(-1)!.args.includes('--report-trx'), 'the kept option is used');
    const reused = second.steps.find((step) => step.commandLine.endsWith('--help'))!;
    assert.equal(reused.log.text, "(reused: the app's build output is unchanged since it was asked; it offered --report-trx)\n");
    // A rebuild (another size) asks again; a missing output is never kept.
    fs.writeFileSync(output, 'built a second time');
    assert.equal(checked(await ws.verify({ scope: 'all' })).status, 'passed');
    assert.equal(helps(), 2);
    fs.rmSync(output);
    assert.equal(checked(await ws.verify({ scope: 'all' })).status, 'passed');
    assert.equal(checked(await ws.verify({ scope: 'all' })).status, 'passed');
    assert.equal(helps(), 4);
  });

  describe('Microsoft.Testing.Platform: a framework of a multi-targeted app that cannot start here (recorded: net472 on Linux without mono)', () => {
    // Recorded from fixtures/VerificationMtpMissingFramework: MTP-mode `dotnet test` wrote the net10.0
    // TRX and said it could not start `mono` for the net472 app; it exited with code 1.
    const shapes = node('src/Shapes/Shapes.csproj', { targetFrameworks: ['net10.0', 'net472'] });
    const shapesTests = testNode('tests/Shapes.Tests/Shapes.Tests.csproj', {
      targetFrameworks: ['net10.0', 'net472'],
      isTestingPlatformApplication: true,
      isTestProjectSource: 'testingPlatformApplication',
      packageReferences: [],
      projectReferences: ['src/Shapes/Shapes.csproj'],
      outputs: [
        { targetFramework: 'net10.0', targetPath: 'tests/Shapes.Tests/bin/Debug/net10.0/Shapes.Tests.dll', intermediateAssembly: null },
        { targetFramework: 'net472', targetPath: 'tests/Shapes.Tests/bin/Debug/net472/Shapes.Tests.exe', intermediateAssembly: null },
      ],
    });
    const run = (trx: string) => (args: readonly string[]): ScriptedRun => {
      if (args.includes('--help')) return { output: '  --report-trx              Enable generating TRX report.' };
      if (args[0] === 'test') return { exitCode: 1, output: recorded('mtp-net472-without-mono', 'output.txt'), trx: { 'Shapes.Tests_net10.0_x64.trx': trx } };
      return passing(args);
    };
    const mtpMode = { globalJson: '{ "test": { "runner": "Microsoft.Testing.Platform" } }' };

    it('names the missing prerequisite per framework, and the net10.0 tests that ran still count', async () => {
      const ws = new RecordedWorkspace([shapes, shapesTests], run(recorded('mtp-net472-without-mono', 'Shapes.Tests_net10.0_x64.trx')), mtpMode);
      const report = checked(await ws.verify({ scope: 'all' }));
      assert.equal(report.status, 'missingPrerequisites', report.summary);
      assert.deepEqual(report.prerequisites.map((p) => [p.kind, p.message]), [['runtime', 'tests/Shapes.Tests/Shapes.Tests.csproj (net472) needs mono (to run .NET Framework tests here); its tests did not run.']]);
      const project = report.tests!.projects[0]!;
      assert.equal(project.status, 'missingPrerequisites');
      assert.deepEqual(project.counters, { total: 2, passed: 2, failed: 0, skipped: 0, other: 0 });
      assert.equal(project.reason, 'Not run on net472 (missing runtime); ran on net10.0: 2 passed.');
    });

    it('a failing net10.0 test still fails the run, and the missing net472 prerequisite is still named', async () => {
      const failing = recorded('mtp-net472-without-mono', 'Shapes.Tests_net10.0_x64.trx').replace(/(testName="AreaOfThreeIsNine"[^>]*outcome=")Passed"/, '$1Failed"');
      assert.notEqual(failing, recorded('mtp-net472-without-mono', 'Shapes.Tests_net10.0_x64.trx'), 'the recorded TRX has the passing test to turn into a failure');
      const ws = new RecordedWorkspace([shapes, shapesTests], run(failing), mtpMode);
      const report = checked(await ws.verify({ scope: 'all' }));
      assert.equal(report.status, 'failed', report.summary);
      assert.deepEqual(report.tests!.failedTests.map((t) => t.name), ['Shapes.Tests.SquareTests.AreaOfThreeIsNine'], 'the TRX’s display name, qualified by its class');
      assert.equal(report.tests!.projects[0]!.reason, '1 test failed (exit code 1: an unknown error in the test platform).');
      assert.ok(report.prerequisites.some((p) => p.kind === 'runtime' && /\(net472\) needs mono/.test(p.message)), JSON.stringify(report.prerequisites));
    });
  });
});
