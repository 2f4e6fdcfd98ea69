// The MCP server through a load and a crash, as an agent's client sees them: a read call still
// waiting on a cold load when --load-wait runs out answers `error loading:` with the load's
// progress (and the load goes on, so a later call answers); the wait counts from the request's
// arrival, so a host slow to start (a real dotnet that sleeps before it runs the host) still gets
// the answer within the wait (one test: the slow host's start and then its cold load each outlast the
// wait); a host killed while a call is pending answers `error host_exited:`
// with its log, and the next call starts a new host and answers, its cold load's steps reaching
// that call (it has a progressToken) as notifications/progress.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { locateDotnet } from '../../../src/engine/host/dotnetLocator';
import { temporaryFolder } from '../../support/fixtures';
import { cleanUpCopies, copyFixture, tempStateRoot } from '../support';
import { callOptions, connect, text, type Connected } from './mcpClient';

/** Polls lsp status until the host reports a pid (it starts before the load it serves). */
async function hostPid(connected: Connected): Promise<number> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const status = text(await connected.client.callTool({ name: 'lsp', arguments: { action: 'status' } }, callOptions));
    const pid = /^running: yes \(pid (\d+)\)/.exec(status)?.[1];
    if (pid) return Number(pid);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the host never reported a pid');
}

/**
 * A dotnet root whose `dotnet` is the real one, except that it sleeps `seconds` before it starts the
 * SharpClaw host (a cold disk, a virus scanner) and `msbuildSeconds` before each `dotnet msbuild` (the load's
 * evaluation and design-time pass: a slow disk again). The second makes the load outlast a call's wait
 * wherever in that wait the host became ready: Calculator's own load (about 1.7 s on an idle machine) did not
 * when the host was ready as a call arrived, and that call then waited on the query, as a call after a load does.
 */
function slowStartingDotnet(seconds: number, msbuildSeconds: number): string {
  const real = locateDotnet();
  const root = temporaryFolder('slow-dotnet');
  for (const folder of ['sdk', 'shared', 'host', 'packs']) {
    if (fs.existsSync(path.join(real.root, folder))) fs.symlinkSync(path.join(real.root, folder), path.join(root, folder));
  }
  const script = `#!/bin/sh\ncase "$1" in *SharpClaw.Server.dll) sleep ${seconds};; msbuild) sleep ${msbuildSeconds};; esac\nexec '${real.executable}' "$@"\n`;
  fs.writeFileSync(path.join(root, 'dotnet'), script, { mode: 0o755 });
  return root;
}

describe('sharpclaw mcp: loading, progress and a host crash', function () {
  this.timeout(600_000);
  let calculator: string;
  const open: Connected[] = [];

  before(() => {
    calculator = copyFixture('Calculator', 'Calculator.slnx');
  });

  afterEach(async () => {
    for (const connected of open.splice(0)) await connected.client.close().catch(() => undefined);
  });

  after(cleanUpCopies);

  // One server and one cold load for both: the slow host's start, then its load, each outlasting --load-wait.
  it("answers error loading with the progress while a cold load runs past --load-wait, and the load goes on; the wait counts from the request's arrival: a host still starting when it runs out answers error loading within it", async function () {
    if (process.platform === 'win32') this.skip(); // The slow dotnet is a shell script.
    const slow = slowStartingDotnet(15, 4);
    const stateDir = tempStateRoot();
    const connected = await connect({
      workspace: calculator,
      stateDir,
      flags: ['--allow-evaluation', '--load-wait', '2'],
      env: { PATH: `${slow}${path.delimiter}${process.env.PATH ?? ''}`, DOTNET_ROOT: slow, SHARPCLAW_RESIDENT_HOST: '0' },
    });
    open.push(connected);
    let calls = 0;
    const navigate = () => {
      calls++;
      return connected.client.callTool({ name: 'navigate', arguments: { action: 'references', symbol: 'ICalculator.Divide' } }, callOptions);
    };

    const sent = Date.now();
    const first = await navigate();
    const waited = Date.now() - sent;
    // The client's clock: 2 s of wait plus the round trip, far from the host's 15 s start.
    assert.ok(waited < 9_000, `the answer came ${waited} ms after the request, past --load-wait 2: ${text(first)}`);
    assert.equal(first.isError, true, text(first));
    assert.match(text(first), /^error loading: The SharpClaw host is still starting \([2-9] s since this call arrived\); the workspace load comes next\. The start goes on; call again shortly/);

    // The start goes on; once the host runs, a call still waiting on its cold load when the wait runs out
    // answers the load's progress (each `dotnet msbuild` of the load sleeps 4 s first: twice the wait).
    // A wait that ends between the host's readiness and the load's first step answers that the host is still working
    // on the call (no load step to repeat yet); the load (8 s and more) reports its steps for most of its time.
    let loading = await navigate();
    for (let attempt = 0; /^error loading: (The SharpClaw host is still starting|SharpClaw is still working on this answer)/.test(text(loading)) && attempt < 30; attempt++) loading = await navigate();
    assert.equal(loading.isError, true, text(loading));
    assert.match(text(loading), /^error loading: Roslyn is still loading the workspace: Loading Calculator\.slnx( \d+%)? \((evaluating the projects|project \d of 3, \S+\.csproj)\)\. The load goes on; call again shortly/);
    const status = text(await connected.client.callTool({ name: 'lsp', arguments: { action: 'status' } }, callOptions));
    assert.match(status, /\nloading: yes\nprogress: Loading Calculator\.slnx/);

    // The same load finishes in the background: asking again until it has.
    let answer = await navigate();
    for (let attempt = 0; answer.isError && /^error loading:/.test(text(answer)) && attempt < 300; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      answer = await navigate();
    }
    assert.notEqual(answer.isError, true, text(answer));
    assert.match(text(answer), /src\/Calculator\.App\/Program\.cs \d+:\d+ \d+:\d+/);

    // Each call asked again joined the one left running (mcpRunningReads.ts) instead of sending the host the
    // question again: one navigate request in all — two if the one left running ended between two calls.
    const logs = path.join(stateDir, 'logs');
    const requests = fs.readdirSync(logs).flatMap((file) => fs.readFileSync(path.join(logs, file), 'utf8').match(/\[debug\] request sharpclaw\/navigate #/g) ?? []).length;
    assert.ok(calls >= 3, `calls made: ${calls}`);
    assert.ok(requests >= 1 && requests <= 2, `${requests} navigate requests reached the host for ${calls} calls`);
  });

  it('answers error host_exited when the host dies under a pending call, and the next call starts a new host, sending its cold load\'s steps as notifications/progress (the call has a progressToken)', async () => {
    const connected = await connect({ workspace: calculator, stateDir: tempStateRoot(), flags: ['--allow-evaluation'] });
    open.push(connected);
    const pending = connected.client.callTool({ name: 'diagnostics', arguments: { file: 'src/**/*.cs' } }, callOptions);
    const pid = await hostPid(connected);
    process.kill(pid, 'SIGKILL');

    const crashed = await pending;
    assert.equal(crashed.isError, true, text(crashed));
    assert.match(text(crashed), /^error host_exited: The SharpClaw host (was killed by SIGKILL|exited with code \S+) while a request was pending; its log: /);

    // The new host loads cold: a request with a progressToken gets the load's steps.
    const steps: Array<{ progress: number; total?: number; message?: string }> = [];
    const again = await connected.client.callTool({ name: 'diagnostics', arguments: { file: 'src/**/*.cs' } }, { ...callOptions, onprogress: (step) => steps.push(step) });
    assert.notEqual(again.isError, true, text(again));
    assert.match(text(again), /3 files checked/);
    assert.ok(steps.length > 0, 'progress during the cold load');
    assert.ok(steps.every((step, i) => i === 0 || step.progress > steps[i - 1]!.progress), `growing: ${JSON.stringify(steps)}`);
    assert.match(steps[0]!.message ?? '', /^Loading Calculator\.slnx/);
    assert.notEqual(await hostPid(connected), pid, 'a new host process');
  });
});
