// Attacks of issue 12 on `sharpclaw verify`, as a person running it sees them: switches planted
// above the generated traversal project, a solution listing projects whose folders are gone.
// The real CLI, real dotnet and real Git on temporary copies of fixtures.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { cleanUpCopies, copyFixture, initRepository, restore, runCli, tempStateRoot } from './support';

const parse = (stdout: string) => JSON.parse(stdout) as { ok: boolean; data?: VerificationReport; text: string };

describe('sharpclaw verify: hardening (issue 12)', function () {
  this.timeout(300_000);
  after(cleanUpCopies);

  it('names the missing project files of a solution instead of "spawn dotnet ENOENT" (item 13)', async () => {
    const workspace = copyFixture('SolutionMissingProjects');
    const result = await runCli(['verify', '--scope', 'build', '--allow-shell', '--output-format', 'json'], { cwd: workspace, env: { SHARPCLAW_STATE_DIR: tempStateRoot() } });
    assert.equal(result.code, 1, result.stderr);
    const report = parse(result.stdout).data!;
    assert.equal(report.status, 'failed');
    assert.match(report.summary, /2 listed project files do not exist: Gone[\\/]Gone\.csproj, lib[\\/]Vanished[\\/]Vanished\.csproj\./);
    assert.doesNotMatch(result.stdout, /ENOENT|Could not start/);
  });

  it('builds the generated affected.proj without Directory.Build.rsp or Directory.Build.props from folders above it (item 2)', async () => {
    const workspace = copyFixture('VerifyTwoRoots');
    restore(workspace, 'VerifyTwoRoots.slnx');
    initRepository(workspace);
    const stateRoot = tempStateRoot();
    // A stranger's files in the folders above the generated project (like a world-writable /tmp).
    const marker = path.join(stateRoot, 'planted-code-ran.txt');
    const evil = path.join(stateRoot, 'evil.targets');
    fs.writeFileSync(evil, `<Project><Target Name="Planted" BeforeTargets="Build;CoreCompile"><WriteLinesToFile File="${marker}" Lines="$(MSBuildProjectFullPath)" /></Target></Project>\n`);
    fs.writeFileSync(path.join(stateRoot, 'Directory.Build.rsp'), `-p:CustomBeforeMicrosoftCommonTargets=${evil}\n-p:CustomAfterMicrosoftCommonTargets=${evil}\n`);
    fs.writeFileSync(path.join(stateRoot, 'Directory.Build.props'), `<Project><Import Project="${evil}" /></Project>\n`);
    fs.writeFileSync(path.join(stateRoot, 'Directory.Build.targets'), `<Project><Import Project="${evil}" /></Project>\n`);
    for (const name of ['Alpha', 'Beta']) fs.appendFileSync(path.join(workspace, name, `${name}.cs`), '// changed\n');

    const result = await runCli(['verify', '--scope', 'affected', '--allow-shell', '--output-format', 'json'], { cwd: workspace, env: { SHARPCLAW_STATE_DIR: stateRoot } });
    const report = parse(result.stdout).data!;
    assert.equal(report.build?.status, 'passed', result.stdout);
    const build = report.steps.find((step) => step.kind === 'build')!;
    assert.match(build.target, /affected\.proj$/);
    assert.match(build.commandLine, /-noAutoResponse/);
    assert.equal(fs.existsSync(marker), false, fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '');
  });
});
