// The settings apply: <workspace>/.sharpclaw/settings.jsonc changes what `sharpclaw verify` asks for
// (scope and timeout; the request is in the report of a run read-only mode refuses before any process,
// so nothing builds — that a timeout stops a build is runnerModes.test.ts'), flags still win, an invalid
// value is a clear error, and a workspace file cannot allow restoring. The real CLI; real dotnet on
// fixtures/VerificationUnrestored.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { cleanUpCopies, copyFixture, runCli, tempStateRoot } from '../support';

const report = (stdout: string) => (JSON.parse(stdout) as { data?: VerificationReport }).data!;

describe('sharpclaw verify reads the verification settings', function () {
  this.timeout(300_000);
  let workspace: string;
  const write = (settings: unknown) => {
    fs.mkdirSync(path.join(workspace, '.sharpclaw'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.sharpclaw', 'settings.jsonc'), `// workspace settings\n${JSON.stringify(settings)}\n`);
  };
  before(() => {
    workspace = copyFixture('VerificationSlow');
  });
  after(cleanUpCopies);

  it('a workspace timeoutSeconds and scope are what the run asks for', async () => {
    write({ verification: { scope: 'build', timeoutSeconds: 6 } });
    const result = await runCli(['verify', '--target', 'Slow/Slow.csproj', '--permission-mode', 'read-only', '--output-format', 'json'], { cwd: workspace, env: { SHARPCLAW_STATE_DIR: tempStateRoot() } });
    const run = report(result.stdout);
    assert.equal(run.status, 'denied', run.summary);
    assert.equal(run.scope, 'build');
    assert.equal(run.timeoutSeconds, 6);
  });

  it('a flag wins over the setting', async () => {
    write({ verification: { scope: 'build', timeoutSeconds: 6 } });
    const result = await runCli(['verify', '--target', 'Slow/Slow.csproj', '--timeout', '200', '--scope', 'tests', '--permission-mode', 'read-only', '--output-format', 'json'], { cwd: workspace, env: { SHARPCLAW_STATE_DIR: tempStateRoot() } });
    const run = report(result.stdout);
    assert.equal(run.timeoutSeconds, 200);
    assert.equal(run.scope, 'tests');
  });

  it('an invalid value fails with its key, value, file and the valid range', async () => {
    write({ verification: { timeoutSeconds: 0 } });
    const result = await runCli(['verify', '--target', 'Slow/Slow.csproj', '--allow-shell'], { cwd: workspace, env: { SHARPCLAW_STATE_DIR: tempStateRoot() } });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr + result.stdout, /sharpclaw\.verification\.timeoutSeconds = 0 in .*settings\.jsonc: expected a whole number from 1 to 3600/);
  });

  it('a workspace allowRestore cannot turn restore on: an unrestored project stays a prerequisite without --restore', async () => {
    const unrestored = copyFixture('VerificationUnrestored');
    fs.mkdirSync(path.join(unrestored, '.sharpclaw'));
    fs.writeFileSync(path.join(unrestored, '.sharpclaw', 'settings.jsonc'), '{"verification": {"allowRestore": true}}');
    const result = await runCli(['verify', '--scope', 'build', '--target', 'Unrestored/Unrestored.csproj', '--allow-shell', '--output-format', 'json'], { cwd: unrestored, env: { SHARPCLAW_STATE_DIR: tempStateRoot() } });
    const run = (JSON.parse(result.stdout) as { data?: VerificationReport }).data!;
    assert.equal(run.restore, false);
    assert.equal(run.status, 'missingPrerequisites', run.summary);
    assert.deepEqual(run.prerequisites.map((p) => p.kind), ['assets']);
    assert.ok(!run.steps.some((step) => step.kind === 'build'), 'nothing was built, so nothing was restored');
    assert.ok(!fs.existsSync(path.join(unrestored, 'Unrestored', 'obj', 'project.assets.json')), 'no restore wrote the assets file');
    assert.ok(run.notes.some((note) => /sets verification\.allowRestore, which only your own settings .* can: restore stays off/.test(note)), JSON.stringify(run.notes));
  });
});
