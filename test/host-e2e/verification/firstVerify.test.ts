// The first verify after the person's own build, through the real CLI process on a new state folder, in
// the .NET 8+ artifacts layout (fixtures/VerificationArtifactsLayout, the layout Polly uses): restore wrote
// artifacts/obj/<project>/project.assets.json and nothing beside the projects. The whole-target build must
// start at once instead of waiting for a cold evaluation (issue 39: on Polly it waited 3 s), collect the
// evaluation itself instead of a second MSBuild process beside it (the host's BuildCollection), recompile
// nothing the person's build compiled, and pass; the next verify uses the graph the host kept from it.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { cleanUpCopies, copyFixture, runCli, tempStateRoot } from '../support';

describe('the first verify after a build in the artifacts layout (real CLI, real dotnet)', function () {
  this.timeout(300_000);
  let workspace: string;
  let stateRoot: string;

  before(() => {
    workspace = copyFixture('VerificationArtifactsLayout', 'Layout.slnx');
    stateRoot = tempStateRoot();
    execFileSync('dotnet', ['build', 'Layout.slnx', '--no-restore', '-nologo', '-v:q'], { cwd: workspace, stdio: 'ignore' });
  });
  after(cleanUpCopies);

  it('builds at once, collecting the evaluation instead of evaluating beside it, recompiles nothing and passes; the next verify reuses that graph', async () => {
    assert.ok(fs.existsSync(path.join(workspace, 'artifacts', 'obj', 'Lib', 'project.assets.json')), 'restore wrote the artifacts layout');
    assert.ok(!fs.existsSync(path.join(workspace, 'src', 'Lib', 'obj')), 'nothing beside the project');
    const verify = async () => {
      const result = await runCli(['verify', '--scope', 'all', '--allow-shell', '--output-format', 'json', '--timeout', '240'], { cwd: workspace, env: { SHARPCLAW_STATE_DIR: stateRoot } });
      const report = (JSON.parse(result.stdout) as { data?: VerificationReport }).data;
      assert.ok(report, `no report: ${result.stdout}\n${result.stderr}`);
      assert.equal(report.status, 'passed', report.summary);
      assert.deepEqual(report.tests?.counters, { total: 1, passed: 1, failed: 0, skipped: 0, other: 0 });
      return report;
    };
    const report = await verify();
    assert.ok(report.notes.some((note) => /^Warnings not known for Lib \(net10\.0\), Lib\.Tests \(net10\.0\): the compiler did not run for them/.test(note)), `the person's compiles were recompiled: ${report.notes.join('\n')}`);
    assert.deepEqual(report.selection?.projects.map((p) => p.name).sort(), ['Lib', 'Lib.Tests']);

    // The host logs where its evaluation came from: the build's collection, read after the build; no MSBuild evaluation.
    const logs = fs.readdirSync(path.join(stateRoot, 'logs')).filter((name) => name.startsWith('sharpclaw-host-'));
    const lines = logs.flatMap((name) => fs.readFileSync(path.join(stateRoot, 'logs', name), 'utf8').split('\n'));
    const collected = lines.map((line) => /^(\S+) \[info \] Evaluation of Layout\.slnx taken from the build: 2 projects/.exec(line)?.[1]).find((stamp) => stamp !== undefined);
    assert.ok(collected, `the evaluation was not taken from the build: ${lines.filter((line) => /valuat/.test(line)).join('\n')}`);
    assert.deepEqual(lines.filter((line) => / Evaluated Layout\.slnx/.test(line)), [], 'an MSBuild evaluation ran');
    const build = report.steps.find((step) => step.kind === 'build')!;
    assert.ok(Date.parse(build.startedAt) < Date.parse(collected), `the build started at ${build.startedAt}, after the evaluation at ${collected}`);

    // The graph read from the build is kept like an evaluation: the next verify evaluates nothing.
    const again = await verify();
    assert.equal(again.selection?.evaluation?.evaluated, 0, JSON.stringify(again.selection?.evaluation));
    assert.equal(again.selection?.evaluation?.cached, 2, JSON.stringify(again.selection?.evaluation));
  });
});
