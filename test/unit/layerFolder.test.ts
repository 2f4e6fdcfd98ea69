// scripts/layer-folder.mjs, the server layer's own folder (its tests' state folder and temporary folder):
// removed only once no process the layer started is left, so a host's last background write cannot bring
// it back after the removal (as it did when the test process removed the state folder on its own exit).
// No dotnet here: Node processes that write into the folders the way a host's store and a build do
// (creating the folders on the way).
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface LayerFolder {
  root: string;
  state: string;
  env: Record<string, string>;
}
interface LayerFolderModule {
  createLayerFolder(layer: string): LayerFolder;
  processesMarked(mark: string): number[];
  removeLayerFolder(root: string, options: { mark: string; waitMs?: number }): Promise<string[]>;
}

const load = (): Promise<LayerFolderModule> => importEsm(path.join(repoRoot, 'scripts', 'layer-folder.mjs'));

/** A layer's mark, as scripts/test.mjs gives one to each layer's processes (one per layer and run). */
const markOf = (name: string) => `SHARPCLAW_TEST_CPU_LAYER=${name}@unit-${process.pid}`;

/**
 * A process of the layer (carrying its `mark`) that writes into its state folder and its temporary folder
 * (as Node and .NET find it: TMPDIR) every 50 ms, for `forMs` (or until killed).
 */
function writer(folder: LayerFolder, mark: string, forMs: number): ChildProcess {
  const [name, value] = [mark.slice(0, mark.indexOf('=')), mark.slice(mark.indexOf('=') + 1)];
  const script = `
    const fs = require('node:fs'), os = require('node:os'), path = require('node:path');
    const until = Date.now() + ${forMs};
    const tick = () => {
      const workspace = path.join(process.env.SHARPCLAW_TEST_STATE_DIR, 'workspaces', 'w1');
      fs.mkdirSync(workspace, { recursive: true });
      fs.writeFileSync(path.join(workspace, 'snapshot.bin'), String(Date.now()));
      fs.mkdirSync(path.join(os.tmpdir(), 'MSBuildTemp'), { recursive: true });
      if (Date.now() < until) setTimeout(tick, 50);
    };
    tick();`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore', env: { ...process.env, ...folder.env, SHARPCLAW_TEST_STATE_DIR: folder.state, [name]: value } });
}

async function waitUntil(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
const writing = (folder: LayerFolder) => fs.existsSync(path.join(folder.state, 'workspaces', 'w1', 'snapshot.bin')) && fs.existsSync(path.join(folder.env.TMPDIR!, 'MSBuildTemp'));

describe('scripts/layer-folder.mjs: the layer removes its folder once nothing it started can write into it', () => {
  const started: ChildProcess[] = [];
  const roots: string[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) child.kill('SIGKILL');
    for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });

  it('gives the layer a private state folder and temporary folder inside one folder of the temporary folder', async () => {
    const { createLayerFolder } = await load();
    const folder = createLayerFolder('unit');
    roots.push(folder.root);
    assert.equal(path.dirname(folder.root), os.tmpdir());
    assert.match(path.basename(folder.root), /^sc-unit-/);
    for (const dir of [folder.root, folder.state, folder.env.TMPDIR!]) {
      assert.ok(dir.startsWith(folder.root), dir);
      if (process.platform !== 'win32') assert.equal(fs.statSync(dir).mode & 0o777, 0o700, dir);
    }
  });

  it('waits for a process still writing into it, so the folder is gone and stays gone', async function () {
    this.timeout(30_000);
    if (process.platform !== 'linux') this.skip(); // elsewhere no process's environment can be read
    const { createLayerFolder, processesMarked, removeLayerFolder } = await load();
    const folder = createLayerFolder('unit');
    roots.push(folder.root);
    const mark = markOf('late');
    const late = writer(folder, mark, 1_500);
    started.push(late);
    await waitUntil('the writer to start writing', () => writing(folder) && processesMarked(mark).includes(late.pid!));
    assert.deepEqual(await removeLayerFolder(folder.root, { mark }), [], 'the writer ended on its own; nothing had to be ended');
    assert.ok(exited(late) || !processesMarked(mark).includes(late.pid!));
    assert.equal(fs.existsSync(folder.root), false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(fs.existsSync(folder.root), false, 'a late write brought the folder back');
  });

  it("ends a process that outlives the wait and names it, removes the folder, and leaves another run's process alone", async function () {
    this.timeout(30_000);
    if (process.platform !== 'linux') this.skip();
    const { createLayerFolder, processesMarked, removeLayerFolder } = await load();
    const folder = createLayerFolder('unit');
    const other = createLayerFolder('unit');
    roots.push(folder.root, other.root);
    const [mark, otherMark] = [markOf('stuck'), markOf('neighbour')];
    const stuck = writer(folder, mark, 600_000);
    const neighbour = writer(other, otherMark, 600_000);
    started.push(stuck, neighbour);
    await waitUntil('both writers to run', () => writing(folder) && writing(other) && processesMarked(mark).includes(stuck.pid!) && processesMarked(otherMark).includes(neighbour.pid!));
    const ended = await removeLayerFolder(folder.root, { mark, waitMs: 300 });
    assert.equal(ended.length, 1, ended.join('\n'));
    assert.match(ended[0]!, new RegExp(`^${stuck.pid}: .*node -e`), 'names the process it ended, to find the test that left it');
    await waitUntil('the stuck writer to be reaped', () => exited(stuck));
    assert.equal(stuck.signalCode, 'SIGKILL');
    assert.equal(fs.existsSync(folder.root), false);
    assert.equal(exited(neighbour), false, "another run's process was ended");
    assert.ok(writing(other), "another run's folder was touched");
  });
});
