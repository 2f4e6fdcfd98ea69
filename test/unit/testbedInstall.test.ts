// The test bed's install steps (scripts/testbed/install.mjs) on a fresh machine: a failing step
// shows its own output (postinstall included), is retried once, and is named when it fails again.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const install = path.join(repoRoot, 'scripts', 'testbed', 'install.mjs');

/** Runs runStep in a fresh Node (install.mjs is an ES module) and reports what a person sees. */
function runStep(step: string, script: string) {
  const code = `import(${JSON.stringify(install)}).then((m) => { try { m.runStep(${JSON.stringify(step)}, 'sh', ['-c', ${JSON.stringify(script)}]); console.log('step ok'); } catch (error) { m.reportStepFailure(error); } });`;
  return spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
}

describe('test bed install steps', () => {
  it('shows the output of a failing step, retries it once, then names it', () => {
    const result = runStep('install code-server 9.9.9', 'echo "postinstall: cannot download ripgrep" >&2; exit 7');
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.equal(result.stderr.match(/postinstall: cannot download ripgrep/g)?.length, 2, result.stderr);
    assert.match(result.stdout, /retrying "install code-server 9\.9\.9" once/);
    assert.match(result.stderr, /^\[testbed\] FAILED STEP: install code-server 9\.9\.9$/m);
    assert.match(result.stderr, /The test bed install step "install code-server 9\.9\.9" failed twice \(exit code 7\)/);
  });

  it('succeeds when the retry does', () => {
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sc-testbed-')), 'tried');
    const result = runStep('flaky postinstall', `if [ -e ${marker} ]; then echo fine; else touch ${marker}; echo "first attempt failed" >&2; exit 1; fi`);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /first attempt failed/);
    assert.match(result.stdout, /step ok/);
    fs.rmSync(path.dirname(marker), { recursive: true, force: true });
  });
});
