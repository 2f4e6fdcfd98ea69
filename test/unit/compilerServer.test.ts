// scripts/compiler-server.mjs, host-e2e's own C# compiler server: the layer stops only the server of its
// own pipe name, never another person's or another run's (no dotnet here: stand-in processes that carry
// a `-pipename:` argument as VBCSCompiler does), and SHARPCLAW_TEST_SHARED_COMPILER=0 leaves the machine's
// setting alone.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface CompilerServer {
  env: Record<string, string>;
  pipeName: string | undefined;
  pid: number | undefined;
}
interface CompilerServerModule {
  startCompilerServer(layer: string, options: { cwd: string; env: Record<string, string> }): CompilerServer;
  stopCompilerServer(server: CompilerServer): number;
}

const load = (): Promise<CompilerServerModule> => importEsm(path.join(repoRoot, 'scripts', 'compiler-server.mjs'));

/** A process whose command line names `pipeName` the way VBCSCompiler's does. */
function standIn(pipeName: string): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', `-pipename:${pipeName}`], { stdio: 'ignore' });
}

/** Polls until the process's command line (what the layer reads) carries its `-pipename:` argument. */
async function running(child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      if (fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').includes('-pipename:')) return;
    } catch {
      // Not there yet.
    }
    assert.ok(Date.now() < deadline, `process ${child.pid} never showed its command line`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

describe('scripts/compiler-server.mjs: the layer stops only its own compiler server', () => {
  const started: ChildProcess[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) child.kill('SIGKILL');
  });

  it('stops the processes that name its pipe, by id, and leaves a server of another pipe running', async function () {
    this.timeout(30_000); // three Node processes start on a machine that may be busy
    if (process.platform !== 'linux') this.skip(); // elsewhere it stops the one process it started, by id
    const { stopCompilerServer } = await load();
    const mine = standIn(`sharpclaw-test-unit-${process.pid}-mine`);
    const other = standIn(`sharpclaw-test-unit-${process.pid}-mine-not`);
    const defaultPipe = standIn('root.NotSharpClaw');
    started.push(mine, other, defaultPipe);
    for (const child of started) await running(child);
    const stopped = stopCompilerServer({ env: {}, pipeName: `sharpclaw-test-unit-${process.pid}-mine`, pid: undefined });
    assert.equal(stopped, 1);
    await exited(mine);
    assert.equal(mine.signalCode, 'SIGTERM');
    assert.equal(other.exitCode, null, 'a server of a pipe name that merely starts with ours was stopped');
    assert.equal(other.signalCode, null);
    assert.equal(defaultPipe.signalCode, null, "another person's server was stopped");
  });

  it('with SHARPCLAW_TEST_SHARED_COMPILER=0 starts nothing and sets no variables', async () => {
    const { startCompilerServer, stopCompilerServer } = await load();
    const previous = process.env.SHARPCLAW_TEST_SHARED_COMPILER;
    process.env.SHARPCLAW_TEST_SHARED_COMPILER = '0';
    try {
      const server = startCompilerServer('unit', { cwd: repoRoot, env: {} });
      assert.deepEqual(server, { env: {}, pipeName: undefined, pid: undefined });
      assert.equal(stopCompilerServer(server), 0);
    } finally {
      if (previous === undefined) delete process.env.SHARPCLAW_TEST_SHARED_COMPILER;
      else process.env.SHARPCLAW_TEST_SHARED_COMPILER = previous;
    }
  });
});
