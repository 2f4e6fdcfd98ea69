// Issue 12 item 1: a host that dies mid-request must not read as success. The real CLI starts the
// real host on a restored copy of fixtures/VerificationSlow, whose design-time build sleeps, and the
// test SIGKILLs the host while the CLI waits for its answer.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanUpCopies, cliPath, copyFixture, restore, tempStateRoot, waitFor } from '../unit/verification/support';

/** The pid of the SharpClaw host started by process `parent`, if it runs yet (Linux /proc). */
function hostPid(parent: number): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('SharpClaw.Server.dll')) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

describe('a host that dies mid-request (real CLI, real host)', function () {
  this.timeout(300_000);
  let workspace: string;
  let stateRoot: string;

  before(function () {
    if (process.platform !== 'linux') this.skip();
    assert.ok(fs.existsSync(cliPath), `${cliPath} is missing: run "npm run build"`);
    workspace = copyFixture('VerificationSlow');
    restore(workspace, 'Slow/Slow.csproj');
    stateRoot = tempStateRoot();
  });
  after(cleanUpCopies);

  it('fails with a typed host_exited error naming the signal and the log, and exits 1', async () => {
    const child = spawn(process.execPath, [cliPath, 'tool', 'dotnet_solution_inspect', '--cwd', workspace, '--input', JSON.stringify({ target: 'Slow/Slow.csproj' }), '--allow-evaluation'], {
      env: { ...process.env, SHARPCLAW_STATE_DIR: stateRoot, SlowSeconds: '60' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    const pid = await waitFor('the host to start', () => hostPid(child.pid!), 60_000);
    // Let the request reach the host (it is loading: the design-time build sleeps 60 s).
    await waitFor('the host log', () => fs.readdirSync(path.join(stateRoot, 'logs')).some((name) => name.includes(String(pid))), 60_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    process.kill(pid, 'SIGKILL');
    const code = await closed;

    assert.equal(code, 1, `exit ${code}\nstdout: ${stdout}\nstderr: ${stderr}`);
    assert.equal(stdout, '');
    const log = path.join(stateRoot, 'logs', `sharpclaw-host-${pid}.log`);
    assert.match(stderr, /^error host_exited: The SharpClaw host was killed by SIGKILL while a request was pending; its log: /m);
    assert.ok(stderr.includes(log), stderr);
    assert.ok(fs.existsSync(log), `${log} exists`);
  });
});
