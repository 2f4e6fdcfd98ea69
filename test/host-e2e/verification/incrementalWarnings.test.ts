// Warnings survive incremental builds (issue 18, item 1), through the real CLI process on
// fixtures/VerificationIncrementalWarnings: a second verify with nothing changed finds Ledger up to
// date, MSBuild skips its compile and prints no CS0168, and the report still counts the warning
// (from the verifier's memory of Ledger's last compile, and says so). Output built outside
// SharpClaw is not recompiled (issue 39: that made the first verify a full rebuild): the report
// names its warnings as not known until its next compile (on the same state folder: its memory is of the compile
// before the person's build); fixing the warning makes it go away.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { cleanUpCopies, copyFixture, git, initRepository, runCli, tempStateRoot } from '../support';

describe('verify keeps the warnings of projects an incremental build skips (real CLI, real dotnet)', function () {
  this.timeout(300_000);
  let workspace: string;
  let stateRoot: string;

  const verify = async (scope: string): Promise<VerificationReport> => {
    const result = await runCli(['verify', '--scope', scope, '--allow-shell', '--output-format', 'json', '--timeout', '240'], { cwd: workspace, env: { SHARPCLAW_STATE_DIR: stateRoot } });
    const envelope = JSON.parse(result.stdout) as { data?: VerificationReport };
    assert.ok(envelope.data, `no report: ${result.stdout}\n${result.stderr}`);
    return envelope.data;
  };
  const cs0168 = (report: VerificationReport) => report.build?.diagnostics.filter((d) => d.code === 'CS0168') ?? [];
  const buildLog = (report: VerificationReport) => report.steps.filter((s) => s.kind === 'build').map((s) => s.log.text).join('\n');

  before(() => {
    workspace = copyFixture('VerificationIncrementalWarnings', 'Warnings.slnx');
    initRepository(workspace);
    stateRoot = tempStateRoot();
  });
  after(cleanUpCopies);

  it('the first build compiles and reports the CS0168 warning', async () => {
    const report = await verify('build');
    assert.equal(report.status, 'passed', report.summary);
    assert.equal(report.build?.warnings, 1, report.summary);
    assert.match(buildLog(report), /CS0168/);
    assert.match(report.summary, /1 warning\(s\)/);
  });

  it('a second build with nothing changed still reports it, and says it comes from the last compile', async () => {
    const report = await verify('build');
    assert.doesNotMatch(buildLog(report), /CS0168/, 'MSBuild recompiled Ledger, so this run does not exercise the skipped compile');
    assert.equal(report.build?.warnings, 1, report.summary);
    const [warning] = cs0168(report);
    assert.ok(warning, JSON.stringify(report.build?.diagnostics));
    assert.match(warning.file ?? '', /Balance\.cs$/);
    assert.equal(warning.line, 11);
    assert.ok(report.notes.some((note) => /Ledger was up to date, so MSBuild did not recompile it; its 1 compiler diagnostic\(s\) are from its last compile/.test(note)), report.notes.join('\n'));
  });

  it('affected after an edit to the app only: the app compiles, Ledger is skipped and its warning still counts', async () => {
    fs.appendFileSync(path.join(workspace, 'src/Ledger.App/Program.cs'), '// touched\n');
    const report = await verify('affected');
    assert.deepEqual(report.selection?.projects.map((p) => p.name), ['Ledger.App']);
    assert.equal(report.build?.status, 'passed', report.summary);
    assert.doesNotMatch(buildLog(report), /CS0168/);
    assert.equal(report.build?.warnings, 1, report.summary);
    git(workspace, 'commit', '-qam', 'app touched');
  });

  it('output built outside SharpClaw is not recompiled: the report says its warnings are not known, until its next compile', async () => {
    fs.appendFileSync(path.join(workspace, 'src/Ledger/Balance.cs'), '// touched\n');
    execFileSync('dotnet', ['build', 'Warnings.slnx', '--no-restore', '-nologo', '--tl:off', '-v:q'], { cwd: workspace, stdio: 'pipe' });
    // The same state folder (and resident host): the memory's entry for Ledger is of the compile before the person's build.
    const report = await verify('build');
    assert.doesNotMatch(buildLog(report), /CS0168/, 'the verifier made the compiler run again');
    assert.equal(report.build?.warnings, 0, report.summary);
    assert.ok(report.build?.warningsUnknownFor?.includes('Ledger (net10.0)'), JSON.stringify(report.build?.warningsUnknownFor));
    assert.match(report.summary, /build passed \(0 error\(s\), 0 warning\(s\); warnings of [12] compile\(s\) not known, see the note\)/);
    assert.ok(report.notes.some((note) => /^Warnings not known for Ledger \(net10\.0\)(, Ledger\.App \(net10\.0\))?: the compiler did not run for (it|them) in this build, and SharpClaw has not seen the compile that produced (its|their) current output/.test(note)), report.notes.join('\n'));
    fs.appendFileSync(path.join(workspace, 'src/Ledger/Balance.cs'), '// touched again\n');
    const next = await verify('build');
    assert.match(buildLog(next), /CS0168/);
    assert.equal(next.build?.warnings, 1, next.summary);
    assert.ok(!next.build?.warningsUnknownFor?.includes('Ledger (net10.0)'), JSON.stringify(next.build?.warningsUnknownFor));
  });

  // That the memory is then replaced, so the next up-to-date build replays no warning, is asserted over the memory's
  // files in test/unit/verification/compileMemory.test.ts.
  it('fixing the warning makes it go away', async () => {
    const file = path.join(workspace, 'src/Ledger/Balance.cs');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('        int roundingMode;\n', ''));
    const fixed = await verify('build');
    assert.equal(fixed.build?.warnings, 0, fixed.summary);
  });
});
