// scripts/layer-state.mjs, the server layer's state folder: removed only once no process that carries it
// can write into it, so a host's last background write cannot bring it back after the removal (as it did
// when the test process removed it on its own exit). No dotnet here: Node processes that write into the
// folder the way a host's store does (creating the folders on the way).
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface LayerStateModule {
  layerStateVariable: string;
  createLayerState(layer: string): string;
  processesUsing(folder: string): number[];
  removeLayerState(folder: string, options?: { waitMs?: number }): Promise<string[]>;
}

const load = (): Promise<LayerStateModule> => importEsm(path.join(repoRoot, 'scripts', 'layer-state.mjs'));

/** A process of the layer that writes into its folder every 50 ms, for `forMs` (or until killed). */
function writer(variable: string, folder: string, forMs: number): ChildProcess {
  const script = `
    const fs = require('node:fs'), path = require('node:path');
    const folder = process.env[${JSON.stringify(variable)}], until = Date.now() + ${forMs};
    const tick = () => {
      fs.mkdirSync(path.join(folder, 'workspaces', 'w1'), { recursive: true });
      fs.writeFileSync(path.join(folder, 'workspaces', 'w1', 'snapshot.bin'), String(Date.now()));
      if (Date.now() < until) setTimeout(tick, 50);
    };
    tick();`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore', env: { ...process.env, [variable]: folder } });
}

async function waitUntil(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

describe('scripts/layer-state.mjs: the layer removes its state folder once nothing can write into it', () => {
  const started: ChildProcess[] = [];
  const folders: string[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) child.kill('SIGKILL');
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('waits for a process still writing into it, so the folder is gone and stays gone', async function () {
    this.timeout(30_000);
    if (process.platform !== 'linux') this.skip(); // elsewhere no process's environment can be read
    const { createLayerState, layerStateVariable, processesUsing, removeLayerState } = await load();
    const folder = createLayerState('unit');
    folders.push(folder);
    assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
    const late = writer(layerStateVariable, folder, 1_500);
    started.push(late);
    await waitUntil('the writer to start writing', () => fs.existsSync(path.join(folder, 'workspaces', 'w1', 'snapshot.bin')) && processesUsing(folder).includes(late.pid!));
    assert.deepEqual(await removeLayerState(folder), [], 'the writer ended on its own; nothing had to be ended');
    assert.ok(exited(late) || !processesUsing(folder).includes(late.pid!));
    assert.equal(fs.existsSync(folder), false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(fs.existsSync(folder), false, 'a late write brought the folder back');
  });

  it('ends a process that outlives the wait, removes the folder, and leaves another run\'s process alone', async function () {
    this.timeout(30_000);
    if (process.platform !== 'linux') this.skip();
    const { createLayerState, layerStateVariable, processesUsing, removeLayerState } = await load();
    const folder = createLayerState('unit');
    const other = createLayerState('unit');
    folders.push(folder, other);
    const stuck = writer(layerStateVariable, folder, 600_000);
    const neighbour = writer(layerStateVariable, other, 600_000);
    started.push(stuck, neighbour);
    await waitUntil('both writers to run', () => processesUsing(folder).includes(stuck.pid!) && processesUsing(other).includes(neighbour.pid!));
    const ended = await removeLayerState(folder, { waitMs: 300 });
    assert.equal(ended.length, 1, ended.join('\n'));
    assert.match(ended[0]!, new RegExp(`^${stuck.pid}: .*node -e`), 'names the process it ended, to find the test that left it');
    await waitUntil('the stuck writer to be reaped', () => exited(stuck));
    assert.equal(stuck.signalCode, 'SIGKILL');
    assert.equal(fs.existsSync(folder), false);
    assert.equal(exited(neighbour), false, "another run's process was ended");
    assert.ok(fs.existsSync(path.join(other, 'workspaces', 'w1', 'snapshot.bin')), "another run's folder was touched");
  });
});
