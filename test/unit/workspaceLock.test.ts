// The one workspace lock (src/engine/workspaceLock.ts) across processes: a live holder in another
// process makes a waiter wait; a dead holder's lock is taken over at once; a link in its place is
// refused and never written through. (Semantic writes use the same primitive in the host:
// server/tests/.../StateFolderTests.cs and test/e2e-cli/workspaceLockCli.test.ts.)
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acquireWorkspaceLock, LockWaitError, workspaceLockPath } from '../../src/engine/workspaceLock';

const lockModule = path.resolve(__dirname, '..', '..', 'src', 'engine', 'workspaceLock.js');

/** A node process that takes the lock and holds it until killed or told to release on stdin. */
async function holderProcess(stateDir: string): Promise<ChildProcess> {
  const script = `require(${JSON.stringify(lockModule)}).acquireWorkspaceLock(${JSON.stringify(stateDir)}, { timeoutMs: 5000, purpose: 'write' }).then((lock) => { console.log('locked'); process.stdin.on('data', () => lock.release().then(() => { console.log('released'); process.exit(0); })); })`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve()));
  return child;
}

describe('workspace lock across processes', () => {
  let stateDir: string;
  beforeEach(() => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-wslock-'));
  });
  afterEach(() => fs.rmSync(stateDir, { recursive: true, force: true }));

  it('makes a verification wait for a write held by another process, and names the holder', async () => {
    const holder = await holderProcess(stateDir);
    let announced = '';
    const waiting = acquireWorkspaceLock(stateDir, { timeoutMs: 20_000, pollMs: 20, onWait: (who) => (announced = who) });
    // A fixed wait, since what is asserted is that the waiter does not get the lock while it is held.
    await new Promise((resolve) => setTimeout(resolve, 500));
    holder.stdin!.write('release\n');
    const lock = await waiting;
    assert.match(announced, new RegExp(`a semantic write \\(process ${holder.pid}\\)`));
    assert.ok(lock.waitedMs >= 450, `waited ${lock.waitedMs} ms`);
    assert.equal(lock.compromised(), undefined);
    await lock.release();
    assert.equal(fs.existsSync(workspaceLockPath(stateDir)), false);
  });

  it('takes over at once the lock of a killed process', async () => {
    const holder = await holderProcess(stateDir);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    assert.ok(fs.existsSync(workspaceLockPath(stateDir)), 'the killed holder left its lock behind');
    const lock = await acquireWorkspaceLock(stateDir, { timeoutMs: 3000, pollMs: 20 });
    assert.ok(lock.waitedMs < 1000, `waited ${lock.waitedMs} ms`);
    assert.match(fs.readFileSync(workspaceLockPath(stateDir), 'utf8'), new RegExp(`^pid ${process.pid}\\n`));
    await lock.release();
  });

  it('does not take over a lock of a live process whose file is still being written', async () => {
    fs.writeFileSync(workspaceLockPath(stateDir), '');
    await assert.rejects(acquireWorkspaceLock(stateDir, { timeoutMs: 300, pollMs: 20 }), (error: unknown) => error instanceof LockWaitError && error.outcome === 'timedOut');
  });

  it('refuses a link in place of the lock and writes nothing through it', async function () {
    if (process.platform === 'win32') this.skip();
    const victim = path.join(stateDir, 'victim.txt');
    fs.writeFileSync(victim, 'precious');
    fs.symlinkSync(victim, workspaceLockPath(stateDir));
    await assert.rejects(acquireWorkspaceLock(stateDir, { timeoutMs: 300, pollMs: 20 }), /is a link/);
    assert.equal(fs.readFileSync(victim, 'utf8'), 'precious');
  });

  it('knows when its lock was taken away while held', async () => {
    const lock = await acquireWorkspaceLock(stateDir, { timeoutMs: 1000 });
    fs.rmSync(workspaceLockPath(stateDir));
    assert.match(lock.compromised()?.message ?? '', /removed or taken over/);
    await lock.release();
  });
});
