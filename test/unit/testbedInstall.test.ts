// The test bed's install steps (scripts/testbed/install.mjs) on a fresh machine: a failing step
// shows its own output (postinstall included), is retried once, and is named when it fails again;
// code-server installs without the outer npm's variables, and links the system's SQLite when it can.
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

  /** code-server's install environment, from install.mjs, for an outer `npm start` on Node 20. */
  function codeServerInstallEnv(systemSqlite: boolean): Record<string, string> {
    const code = `import(${JSON.stringify(install)}).then((m) => console.log(JSON.stringify(m.codeServerInstallEnv({ node: '/cache/node24/bin/node', nodedir: '/cache/node24' }, {
      PATH: '/usr/bin', HOME: '/home/a', npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false', npm_lifecycle_event: 'start', npm_node_execpath: '/usr/bin/node',
    }, { systemSqlite: ${systemSqlite} }))));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    return JSON.parse(result.stdout) as Record<string, string>;
  }

  it("installs code-server without the outer npm's variables: under `npm start` on Node 20 its postinstall read Node 20 from them (issue 40)", () => {
    const env = codeServerInstallEnv(false);
    assert.deepEqual(Object.keys(env).filter((name) => /^npm_/i.test(name)).sort(), ['npm_config_nodedir', 'npm_config_unsafe_perm', 'npm_config_yes']);
    assert.equal(env.PATH, '/cache/node24/bin:/usr/bin');
    assert.equal(env.HOME, '/home/a');
  });

  it("links code-server's SQLite module against the system's SQLite when its headers are there, instead of compiling SQLite (74 of the install's 136 CPU-s, idle)", () => {
    assert.equal(codeServerInstallEnv(true).npm_config_sqlite, '/usr');
    assert.equal(codeServerInstallEnv(false).npm_config_sqlite, undefined);
  });
});
