// The host's head start (src/engine/host/hostPrestart.ts), as the processes show it: `sharpclaw mcp` has its
// Roslyn host running before the client's first tool call, and that call is answered by that very host (one host
// log in the state folder, the pid `lsp status` names); `sharpclaw tool` on a fresh state folder starts one resident
// host, not two racing for the socket; and a call that ends before it asks (an unknown tool) exits at once and
// leaves no host of its own running (SHARPCLAW_RESIDENT_HOST=0).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { callOptions, connect, text, type Connected } from '../mcp/mcpClient';
import { alive, cleanUpCopies, commandLine, copyFixture, residentHosts, runCli, runningCommands, tempStateRoot, waitFor } from '../support';

/** The pids of the SharpClaw hosts running with this state folder (their command line names it). */
function hostsOf(stateDir: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const command = commandLine(Number(entry));
    if (command?.includes('SharpClaw.Server.dll') && command.includes(stateDir)) pids.push(Number(entry));
  }
  return pids.filter(alive);
}

const hostLogs = (stateDir: string) => fs.readdirSync(path.join(stateDir, 'logs')).filter((name) => name.startsWith('sharpclaw-host-'));

describe('the host starts while the CLI loads: sharpclaw mcp, tool', function () {
  this.timeout(300_000);
  let calculator: string;
  const open: Connected[] = [];

  before(function () {
    if (process.platform !== 'linux') this.skip(); // reads /proc
    calculator = copyFixture('Calculator', 'Calculator.slnx');
  });

  afterEach(async () => {
    for (const connected of open.splice(0)) await connected.client.close().catch(() => undefined);
  });

  after(cleanUpCopies);

  it('sharpclaw mcp: the host runs before the first tool call, and answers it', async () => {
    const stateDir = tempStateRoot();
    const connected = await connect({ workspace: calculator, stateDir, flags: ['--allow-evaluation'], env: { SHARPCLAW_RESIDENT_HOST: '0' } });
    open.push(connected);
    const [early] = await waitFor('a host started before any tool call', () => {
      const pids = hostsOf(stateDir);
      return pids.length > 0 && pids;
    }, 30_000);

    const answer = await connected.client.callTool({ name: 'navigate', arguments: { action: 'callers', symbol: 'Calculator.Core.ICalculator.Divide' } }, callOptions);
    assert.match(text(answer), /src\/Calculator\.App\/Program\.cs:\d+:\d+/, text(answer));
    const status = text(await connected.client.callTool({ name: 'lsp', arguments: { action: 'status' } }, callOptions));
    assert.match(status, new RegExp(`^running: yes \\(pid ${early}\\)`), status);
    assert.deepEqual(hostLogs(stateDir), [`sharpclaw-host-${early}.log`], 'one host for the session: the one started ahead');
  });

  it('sharpclaw tool: a fresh state folder gets one resident host, which answers', async () => {
    const stateDir = tempStateRoot();
    const result = await runCli(['tool', 'csharp_navigate', '--cwd', calculator, '--allow-evaluation', '--input', JSON.stringify({ action: 'callers', symbol: 'Calculator.Core.ICalculator.Divide' })], { cwd: calculator, env: { SHARPCLAW_STATE_DIR: stateDir } });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /src\/Calculator\.App\/Program\.cs:\d+:\d+/);
    const resident = residentHosts(stateDir);
    assert.equal(resident.length, 1, `resident hosts: ${resident.join(', ')}`);
    assert.deepEqual(hostLogs(stateDir), [`sharpclaw-host-${resident[0]}.log`], 'no second host raced the one started ahead');
  });

  it('sharpclaw tool with an unknown tool: exits at once, and the host it started ahead ends with it', async () => {
    const stateDir = tempStateRoot();
    const result = await runCli(['tool', 'csharp_no_such_tool', '--cwd', calculator, '--input', '{}'], { cwd: calculator, env: { SHARPCLAW_STATE_DIR: stateDir, SHARPCLAW_RESIDENT_HOST: '0' } });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /csharp_no_such_tool/);
    await waitFor('no host of that call left running', () => hostsOf(stateDir).length === 0, 10_000);
    assert.equal(runningCommands().filter((command) => command.includes(stateDir)).length, 0);
  });
});

// dist/cli.js loads dist/core.js through V8's code cache (src/surfaces/cli/bundleLoader.ts): the first call leaves the
// cache private in the state folder, and the next call's V8 accepts it — a rejected or missing cache is written again.
describe('the CLI loads its bundle with the code cache it keeps', function () {
  this.timeout(120_000);

  it('the first call leaves it (0600), the next one uses it and leaves it as it was', async function () {
    if (process.platform === 'win32') this.skip();
    const stateDir = tempStateRoot();
    const cacheFiles = () => (fs.existsSync(path.join(stateDir, 'code-cache')) ? fs.readdirSync(path.join(stateDir, 'code-cache')) : []);
    // --help starts no host ahead (one started for a call that ends at once would outlive the test's folder and write
    // its log into a new one); the state folder exists, so the bundle's cache is kept all the same.
    const call = () => runCli(['verify', '--help'], { cwd: stateDir, env: { SHARPCLAW_STATE_DIR: stateDir } });
    assert.equal((await call()).code, 0);
    const [file, ...more] = cacheFiles();
    assert.ok(file && more.length === 0, `one cache file: ${cacheFiles().join(', ')}`);
    assert.match(file, /^core-[0-9a-f]{16}\.bin$/);
    const written = fs.statSync(path.join(stateDir, 'code-cache', file));
    assert.equal(written.mode & 0o777, 0o600);
    assert.ok(written.size > 100_000, `${written.size} bytes of compiled code`);

    assert.equal((await call()).code, 0);
    const after = fs.statSync(path.join(stateDir, 'code-cache', file));
    assert.deepEqual(cacheFiles(), [file]);
    assert.deepEqual([after.mtimeMs, after.ino], [written.mtimeMs, written.ino], 'accepted, so not written again');
  });
});
