// The MCP server through a load and a crash, as an agent's client sees them: a read call still
// waiting on a cold load when --load-wait runs out answers `error loading:` with the load's
// progress (and the load goes on, so a later call answers); a request with a progressToken gets
// the load's steps as notifications/progress; a host killed while a call is pending answers
// `error host_exited:` with its log, and the next call starts a new host and answers.
import * as assert from 'node:assert/strict';
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

  it('answers error loading with the progress while a cold load runs past --load-wait, and the load goes on', async () => {
    const connected = await connect({ workspace: calculator, stateDir: tempStateRoot(), flags: ['--allow-evaluation', '--load-wait', '1'] });
    open.push(connected);
    const navigate = () => connected.client.callTool({ name: 'navigate', arguments: { action: 'references', symbol: 'ICalculator.Divide' } }, callOptions);

    const first = await navigate();
    assert.equal(first.isError, true, text(first));
    assert.match(text(first), /^error loading: Roslyn is still loading the workspace: Loading Calculator\.slnx( \d+%)? \((evaluating the projects|project \d of 3, \S+\.csproj)\)\. The load goes on; call again shortly/);
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
  });

  it('sends the load steps as notifications/progress to a request with a progressToken', async () => {
    const connected = await connect({ workspace: calculator, stateDir: tempStateRoot(), flags: ['--allow-evaluation'] });
    open.push(connected);
    const steps: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = await connected.client.callTool({ name: 'symbols', arguments: { query: 'Calculator' } }, { ...callOptions, onprogress: (step) => steps.push(step) });
    assert.notEqual(result.isError, true, text(result));
    assert.ok(steps.length > 0, 'progress during the cold load');
    assert.ok(steps.every((step, i) => i === 0 || step.progress > steps[i - 1]!.progress), `growing: ${JSON.stringify(steps)}`);
    assert.match(steps[0]!.message ?? '', /^Loading Calculator\.slnx/);
  });

  it('answers error host_exited when the host dies under a pending call, and the next call starts a new host', async () => {
    const connected = await connect({ workspace: calculator, stateDir: tempStateRoot(), flags: ['--allow-evaluation'] });
    open.push(connected);
    const pending = connected.client.callTool({ name: 'diagnostics', arguments: { file: 'src/**/*.cs' } }, callOptions);
    const pid = await hostPid(connected);
    process.kill(pid, 'SIGKILL');

    const crashed = await pending;
    assert.equal(crashed.isError, true, text(crashed));
    assert.match(text(crashed), /^error host_exited: The SharpClaw host (was killed by SIGKILL|exited with code \S+) while a request was pending; its log: /);

    const again = await connected.client.callTool({ name: 'diagnostics', arguments: { file: 'src/**/*.cs' } }, callOptions);
    assert.notEqual(again.isError, true, text(again));
    assert.match(text(again), /3 files checked/);
    assert.notEqual(await hostPid(connected), pid, 'a new host process');
  });
});
