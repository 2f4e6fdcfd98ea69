// Warm calls end to end: the real CLI and host on a copy of fixtures/DesignTimeMarker (whose MSBuild code
// writes marker files whenever it runs). The first call loads with --allow-evaluation on the resident host
// (engine/host/residentHost.ts); a second CLI call in read-only mode, with no --allow-* flag, answers the
// same without running project code: on the resident host, which still holds the solution, and with
// SHARPCLAW_RESIDENT_HOST=0 in a new host process answering from the approved snapshot in
// SHARPCLAW_STATE_DIR (which the host saves whichever process runs it), leaving no resident host. After a
// project file changes, what was loaded no longer counts and the read-only call is refused again, on both.
// Then the resident host's own ends: `sharpclaw host stop` (on that loaded host), idleness, and its state
// folder removed; and `sharpclaw verify` on it, holding its connection while other calls are answered.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { alive, cliPath as cli, copyFixture, repoRoot, residentHosts, tempStateRoot } from '../support';
import { removeTemporaryFolders } from '../../support/fixtures';

async function until(what: string, condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(100);
  }
}

// One copy, one state folder and one cold load for both warm paths and `host stop` on the loaded host, in
// order: the load on the resident host, its warm call, a call in a new host process from the snapshot that
// load approved (the host saves it whichever process runs it), the refusals once a project file changed (on
// the resident host still holding the solution, and in a new process), then `host stop`.
describe('sharpclaw tool csharp_find_references: a second call on the resident host, and in a new host process (approved snapshot, SHARPCLAW_RESIDENT_HOST=0)', function () {
  this.timeout(240_000);
  let workspace: string;
  let stateDir: string;
  /** The first call's output and the markers after it. */
  let cold: { stdout: string; markers: number[] } | undefined;

  before(() => {
    assert.ok(fs.existsSync(cli), `${cli} is missing: run "npm run build"`);
    workspace = copyFixture('DesignTimeMarker', 'DesignTimeMarker.slnx');
    stateDir = tempStateRoot();
    fs.writeFileSync(path.join(workspace, 'App', 'Caller.cs'), 'namespace App;\n\npublic static class Caller\n{\n    public static string Run() => Greeter.Greet("warm");\n}\n');
    for (const marker of markerFiles) fs.rmSync(path.join(workspace, marker), { force: true }); // restore runs InitialTargets
  });

  after(async () => {
    const pids = residentHosts(stateDir);
    removeTemporaryFolders();
    // The resident host ends once its socket file is gone with the state folder.
    await until('the resident host to exit with its state folder', () => pids.every((pid) => !alive(pid)), 10_000);
  });

  const markerFiles = ['App/marker.txt', 'App/initial-marker.txt'];
  const markerLines = () => markerFiles.map((file) => (fs.existsSync(path.join(workspace, file)) ? fs.readFileSync(path.join(workspace, file), 'utf8').split('\n').filter((l) => l.trim()).length : 0));
  const run = (resident: boolean, ...flags: string[]) =>
    spawnSync(process.execPath, [cli, 'tool', 'csharp_find_references', '--cwd', workspace, '--input', JSON.stringify({ name: 'Greeter.Greet' }), ...flags], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 200_000,
      env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir, SHARPCLAW_RESIDENT_HOST: resident ? '1' : '0' },
    });
  /** The approved cold load on the resident host (once, by whichever test runs first). */
  const coldLoad = () => {
    if (cold) return cold;
    const first = run(true, '--allow-evaluation');
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /^App\/Caller\.cs 5:\d+$/m);
    const markers = markerLines();
    assert.ok(markers[0]! >= 1 && markers[1]! >= 1, `the approved load ran the project's targets (${markers})`);
    return (cold = { stdout: first.stdout, markers });
  };
  const answeredWarm = (warm: ReturnType<typeof run>) => {
    assert.equal(warm.status, 0, warm.stderr);
    assert.equal(warm.stdout, cold!.stdout);
    assert.deepEqual(markerLines(), cold!.markers, 'no MSBuild ran in the second process');
    assert.doesNotMatch(warm.stderr, /permission|evaluat/i);
    assert.deepEqual(fs.readdirSync(workspace, { recursive: true, encoding: 'utf8' }).filter((file) => /\.db/.test(file)), [], 'the store is never in the workspace');
  };

  it('on the resident host: answers the second call without approval and without project code, the same as the first', () => {
    coldLoad();
    const hosts = residentHosts(stateDir);
    assert.equal(hosts.length, 1, `resident hosts after the first call: ${hosts}`);
    answeredWarm(run(true, '--permission-mode', 'read-only'));
    assert.ok(alive(hosts[0]!) && residentHosts(stateDir)[0] === hosts[0], 'the same resident host answered and still runs');
  });

  it('in a new host process (SHARPCLAW_RESIDENT_HOST=0): answers the second call from the approved snapshot without approval and without project code, the same as the first; it leaves no resident host', () => {
    coldLoad();
    const before = residentHosts(stateDir);
    answeredWarm(run(false, '--permission-mode', 'read-only'));
    assert.deepEqual(residentHosts(stateDir), before, 'the call started a resident host (it starts and ends a host of its own)');
  });

  it('refuses again once a project file changed (what was loaded no longer matches): on the resident host, and in a new host process', () => {
    coldLoad();
    const project = path.join(workspace, 'App', 'App.csproj');
    fs.writeFileSync(project, fs.readFileSync(project, 'utf8').replace('</PropertyGroup>', '  <Deterministic>true</Deterministic>\n  </PropertyGroup>'));
    const before = markerLines();
    for (const resident of [true, false]) {
      const refused = run(resident, '--permission-mode', 'read-only');
      assert.equal(refused.status, 1, `${resident ? 'resident' : 'new process'}: ${refused.stdout}`);
      assert.match(refused.stderr, /^error permission_denied: /m);
      assert.deepEqual(markerLines(), before);
    }
  });

  it('the resident host ends with sharpclaw host stop, which names it', async () => {
    coldLoad();
    const [pid] = residentHosts(stateDir);
    assert.ok(pid && alive(pid), 'a resident host runs after the call');
    const stopped = spawnSync(process.execPath, [cli, 'host', 'stop'], { encoding: 'utf8', env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir } });
    assert.equal(stopped.status, 0, stopped.stderr);
    assert.match(stopped.stdout, new RegExp(`^Stopped 1 resident host \\(pid ${pid}\\)\\.$`, 'm'));
    await until('the stopped host to exit', () => !alive(pid), 10_000);
    assert.deepEqual(fs.readdirSync(path.join(stateDir, 'hosts')), [], 'its socket and info file are removed');
    const again = spawnSync(process.execPath, [cli, 'host', 'stop'], { encoding: 'utf8', env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir } });
    assert.match(again.stdout, /^No resident host was running\.$/m);
  });
});

describe('the resident host ends', function () {
  this.timeout(120_000);
  let stateDir: string;
  const workspace = path.join(repoRoot, 'fixtures', 'SyntaxIndexWorkspace');
  // A syntax-only call: it starts the resident host without loading anything.
  const search = (env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [cli, 'tool', 'csharp_symbol_search', '--cwd', workspace, '--input', JSON.stringify({ query: 'Calculator' }), '--permission-mode', 'read-only'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir, SHARPCLAW_RESIDENT_HOST: '1', ...env },
    });

  beforeEach(() => {
    stateDir = tempStateRoot();
  });

  afterEach(() => {
    for (const pid of residentHosts(stateDir)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    removeTemporaryFolders();
  });

  it('after SHARPCLAW_RESIDENT_IDLE_SECONDS without a call', async () => {
    // 8 s, not less: the host must still be there when the call has returned and the test looks (a loaded CI
    // machine took over 2 s between the host's answer and that look).
    assert.equal(search({ SHARPCLAW_RESIDENT_IDLE_SECONDS: '8' }).status, 0);
    const [pid] = residentHosts(stateDir);
    assert.ok(pid && alive(pid), 'the call left a resident host running');
    await until('the idle host to exit', () => !alive(pid), 30_000);
    assert.deepEqual(fs.readdirSync(path.join(stateDir, 'hosts')), []);
  });
});

describe('sharpclaw verify on the resident host', function () {
  this.timeout(240_000);
  let stateDir: string;
  afterEach(() => {
    for (const pid of residentHosts(stateDir)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    removeTemporaryFolders();
  });

  it('asks the resident host for its project graph, and a tool call while the verify runs is answered before it ends', async () => {
    stateDir = tempStateRoot();
    const workspace = copyFixture('VerificationSlow', 'Slow/Slow.csproj');
    const env = { ...process.env, SHARPCLAW_STATE_DIR: stateDir, SHARPCLAW_RESIDENT_HOST: '1', SlowSeconds: '8' };
    const verifyArgs = [cli, 'verify', '--scope', 'build', '--target', 'Slow/Slow.csproj', '--allow-shell', '--allow-evaluation', '--output-format', 'json', '--timeout', '180'];
    const verified = spawnSync(process.execPath, verifyArgs, { cwd: workspace, encoding: 'utf8', env: { ...env, SlowSeconds: '0' }, timeout: 180_000 });
    assert.equal(verified.status, 0, verified.stdout + verified.stderr);
    const [pid] = residentHosts(stateDir);
    assert.ok(pid && alive(pid), 'the verify left a resident host running (it did not start a host of its own)');

    // A verify whose build sleeps 8 s holds its connection all that time; a call meanwhile does not wait for it.
    const slow = spawn(process.execPath, verifyArgs.map((arg) => (arg === 'json' ? 'text' : arg)), { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let slowOutput = '';
    slow.stdout.on('data', (chunk) => (slowOutput += chunk));
    slow.stderr.on('data', (chunk) => (slowOutput += chunk));
    const slowEnded = new Promise<number | null>((resolve) => slow.on('close', (code) => resolve(code)));
    let verifyDone = false;
    void slowEnded.then(() => (verifyDone = true));
    // Its progress says it builds once the host answered its graph: its connection is open from then to its end.
    await until('the slow verify to start its build', () => /^Building /m.test(slowOutput) || verifyDone, 60_000);
    assert.equal(verifyDone, false, slowOutput);
    const search = spawnSync(process.execPath, [cli, 'tool', 'csharp_symbol_search', '--cwd', path.join(repoRoot, 'fixtures', 'SyntaxIndexWorkspace'), '--input', JSON.stringify({ query: 'Calculator' }), '--permission-mode', 'read-only'], { encoding: 'utf8', timeout: 60_000, env });
    assert.equal(search.status, 0, search.stderr);
    assert.match(search.stdout, /Calculator/);
    assert.equal(verifyDone, false, 'the tool call was answered only after the verify ended');
    assert.deepEqual(residentHosts(stateDir), [pid], 'both calls used the one resident host');
    assert.equal(await slowEnded, 0, slowOutput);
  });
});
