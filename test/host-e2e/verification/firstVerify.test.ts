// The first verify after the person's own build, through the real CLI process on a new state folder, in
// the .NET 8+ artifacts layout (fixtures/VerificationArtifactsLayout, the layout Polly uses): restore wrote
// artifacts/obj/<project>/project.assets.json and nothing beside the projects. The whole-target build must
// still start beside the host's cold evaluation instead of waiting for it (issue 39: on Polly it waited
// 3 s), recompile nothing the person's build compiled, and pass.
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

  it('starts the build beside the cold evaluation, recompiles nothing and passes', async () => {
    assert.ok(fs.existsSync(path.join(workspace, 'artifacts', 'obj', 'Lib', 'project.assets.json')), 'restore wrote the artifacts layout');
    assert.ok(!fs.existsSync(path.join(workspace, 'src', 'Lib', 'obj')), 'nothing beside the project');
    const result = await runCli(['verify', '--scope', 'all', '--allow-shell', '--output-format', 'json', '--timeout', '240'], { cwd: workspace, env: { SHARPCLAW_STATE_DIR: stateRoot } });
    const report = (JSON.parse(result.stdout) as { data?: VerificationReport }).data;
    assert.ok(report, `no report: ${result.stdout}\n${result.stderr}`);
    assert.equal(report.status, 'passed', report.summary);
    assert.deepEqual(report.tests?.counters, { total: 1, passed: 1, failed: 0, skipped: 0, other: 0 });
    assert.ok(report.notes.some((note) => /^Warnings not known for Lib \(net10\.0\), Lib\.Tests \(net10\.0\): the compiler did not run for them/.test(note)), `the person's compiles were recompiled: ${report.notes.join('\n')}`);

    // The host logs when its evaluation ended; the build step says when it started.
    const logs = fs.readdirSync(path.join(stateRoot, 'logs')).filter((name) => name.startsWith('sharpclaw-host-'));
    const evaluated = logs
      .flatMap((name) => fs.readFileSync(path.join(stateRoot, 'logs', name), 'utf8').split('\n'))
      .map((line) => /^(\S+) \[info \] Evaluated Layout\.slnx: 2 projects/.exec(line)?.[1])
      .find((stamp) => stamp !== undefined);
    assert.ok(evaluated, `no evaluation in the host logs: ${logs.join(', ')}`);
    const build = report.steps.find((step) => step.kind === 'build')!;
    assert.ok(Date.parse(build.startedAt) < Date.parse(evaluated), `the build started at ${build.startedAt}, after the evaluation ended at ${evaluated}`);
  });
});
