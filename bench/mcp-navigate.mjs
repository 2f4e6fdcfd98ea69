// `node bench/mcp-navigate.mjs [--iterations N] [--vscode min|latest]`: one warm `navigate` (callers of
// Calculator.Divide on a restored copy of fixtures/Calculator) through every surface, interleaved call
// by call in one run so all sides see the same machine load:
//   - MCP: the official client SDK over stdio against `node dist/cli.js mcp`;
//   - the VS Code LM tool: vscode.lm.invokeTool('csharp_navigate') in a real extension host (code-server
//     test bed, bench/lm-navigate-entry.cjs), driven through request files;
//   - Session.runTool in this process (what the LM tool adapter calls, without VS Code);
//   - direct Roslyn: FindCallersAsync on the member and the interface member it implements, on a bare
//     MSBuildWorkspace in SharpClaw.Bench (`direct-callers`), one question per stdin line.
// Needs `npm run build` and `npm run compile-tests`; the VS Code side installs the test bed.
import { execFileSync, spawn } from 'node:child_process';
import readline from 'node:readline';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { option, report, row } from './stats.mjs';
import { runSuiteInVsCode } from '../scripts/testbed/run-integration.mjs';
import { installTestBed } from '../scripts/testbed/install.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The direct Roslyn side: SharpClaw.Bench direct-callers, asked one question per line. */
async function startDirect(solution) {
  const project = path.join(repoRoot, 'bench', 'SharpClaw.Bench');
  execFileSync('dotnet', ['build', project, '-c', 'Release', '-nologo', '-v:q', '--tl:off'], { stdio: 'inherit' });
  const child = spawn('dotnet', ['run', '--no-build', '-c', 'Release', '--project', project, '--', 'direct-callers', '--solution', solution, '--type', 'Calculator.Core.Calculator', '--member', 'Divide'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error('direct-callers ended early');
    return value;
  };
  while ((await next()) !== 'ready');
  return {
    ask: async () => {
      child.stdin.write('go\n');
      const [ms, sites] = (await next()).split(' ').map(Number);
      return { ms, sites };
    },
    stop: () => child.stdin.end('quit\n'),
  };
}

/** The VS Code side: a code-server extension host running bench/lm-navigate-entry.cjs, driven through files. */
async function startVsCode(version, input) {
  installTestBed({ versions: [version] });
  const channel = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bench-lm-'));
  const run = runSuiteInVsCode({
    version,
    suiteEntry: path.join(repoRoot, 'bench', 'lm-navigate-entry.cjs'),
    fixture: path.join(repoRoot, 'fixtures', 'Calculator'),
    timeoutMs: 30 * 60_000,
    artifactsName: 'bench-lm-navigate',
    env: { SHARPCLAW_BENCH_CHANNEL: channel, SHARPCLAW_BENCH_INPUT: JSON.stringify(input) },
  });
  const waitFor = async (file) => {
    for (;;) {
      if (fs.existsSync(path.join(channel, file))) return fs.readFileSync(path.join(channel, file), 'utf8');
      const settled = await Promise.race([run.then(() => 'ended'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 2))]);
      if (settled === 'ended' && !fs.existsSync(path.join(channel, file))) throw new Error(`the VS Code side ended before ${file}; see test-results/integration/*/bench-lm-navigate`);
    }
  };
  const vscodeVersion = await waitFor('ready');
  let i = 0;
  return {
    vscodeVersion,
    ask: async () => {
      const n = i++;
      fs.writeFileSync(path.join(channel, `go-${n}`), '');
      return JSON.parse(await waitFor(`done-${n}.json`));
    },
    stop: async () => {
      fs.writeFileSync(path.join(channel, 'stop'), '');
      await run;
      fs.rmSync(channel, { recursive: true, force: true });
    },
  };
}

export async function benchMcpNavigate() {
  const iterations = Number(option('iterations', '30'));
  const { Session } = require(path.join(repoRoot, 'out', 'src', 'engine', 'session.js'));
  const { StdioHostTransport } = require(path.join(repoRoot, 'out', 'src', 'engine', 'host', 'hostProcess.js'));
  const { CliPermissionPolicy } = require(path.join(repoRoot, 'out', 'src', 'surfaces', 'cli', 'cliPermissionPolicy.js'));
  const { navigateTool } = require(path.join(repoRoot, 'out', 'src', 'engine', 'tools', 'navigation', 'navigationTools.js'));

  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bench-mcp-'));
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bench-mcp-state-'));
  fs.cpSync(path.join(repoRoot, 'fixtures', 'Calculator'), workspace, { recursive: true, filter: (p) => !['bin', 'obj'].includes(path.basename(p)) });
  execFileSync('dotnet', ['restore', 'Calculator.slnx', '-nologo'], { cwd: workspace, stdio: 'ignore' });
  const input = { action: 'callers', symbol: 'Calculator.Divide' };

  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(repoRoot, 'dist', 'cli.js'), 'mcp', '--cwd', workspace, '--allow-evaluation', '--load-wait', '3600'], env: { ...process.env, SHARPCLAW_STATE_DIR: state }, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  process.env.SHARPCLAW_STATE_DIR = state;
  const session = new Session({
    surface: 'vscode',
    workspaceFolder: () => workspace,
    permissions: new CliPermissionPolicy({ mode: 'workspace-write', allowEvaluation: true, allowShell: false, allowWrite: false }),
    transport: new StdioHostTransport({ serverDll: path.join(repoRoot, 'dist', 'server', 'SharpClaw.Server.dll') }),
  });
  const viaMcp = async () => {
    const started = performance.now();
    const result = await client.callTool({ name: 'navigate', arguments: input }, { timeout: 600_000 });
    if (result.isError) throw new Error(result.content[0].text);
    return { ms: performance.now() - started, text: result.content[0].text };
  };
  const inProcess = async () => {
    const started = performance.now();
    const outcome = await session.runTool(navigateTool, input, new AbortController().signal);
    if (!outcome.ok) throw new Error(outcome.text);
    return { ms: performance.now() - started, text: outcome.text };
  };
  let direct;
  let vscode;
  try {
    direct = await startDirect(path.join(workspace, 'Calculator.slnx'));
    vscode = await startVsCode(option('vscode', 'min'), input);
    // Cold loads first (not measured); the three product paths must answer the same text, and name as
    // many call sites as Roslyn finds directly.
    const answers = [await viaMcp(), await inProcess(), await vscode.ask()];
    await viaMcp();
    await inProcess();
    const { sites } = await direct.ask();
    await direct.ask();
    if (new Set(answers.map((a) => a.text)).size !== 1) throw new Error(`the paths answer differently:\n${answers.map((a) => a.text).join('\n---\n')}`);
    const answeredSites = (answers[0].text.match(/ \d+:\d+/g) ?? []).length;

    const samples = { mcp: [], lm: [], inProcess: [], direct: [] };
    const sides = [
      ['mcp', viaMcp],
      ['lm', () => vscode.ask()],
      ['inProcess', inProcess],
      ['direct', () => direct.ask()],
    ];
    for (let i = 0; i < iterations; i++) {
      // A different side goes first each time.
      for (let k = 0; k < sides.length; k++) {
        const [name, ask] = sides[(i + k) % sides.length];
        samples[name].push((await ask()).ms);
      }
    }
    const sameAnswer = { same_answer: true, answer_sites: answeredSites, direct_sites: sites };
    return report('mcp-navigate', {
      fixture: 'fixtures/Calculator',
      call: JSON.stringify(input),
      vscode: vscode.vscodeVersion,
      iterations,
      method: 'the four sides interleaved call by call (the first side rotates); each side answered twice before timing',
      direct: 'SymbolFinder.FindCallersAsync on Calculator.Divide and on ICalculator.Divide (which it implements), MSBuildWorkspace in SharpClaw.Bench, timed inside that process',
      rows: [
        row('warm navigate callers through MCP (stdio, official client SDK) vs direct Roslyn', samples.mcp, samples.direct, sameAnswer),
        row(`warm navigate callers through the VS Code LM tool (vscode.lm.invokeTool, VS Code ${vscode.vscodeVersion}) vs direct Roslyn`, samples.lm, samples.direct, sameAnswer),
        row('warm navigate callers through Session.runTool in process (the LM tool adapter without VS Code) vs direct Roslyn', samples.inProcess, samples.direct, sameAnswer),
        row('warm navigate callers: MCP vs the VS Code LM tool', samples.mcp, samples.lm),
      ],
    });
  } finally {
    direct?.stop();
    await vscode?.stop().catch(() => undefined);
    await client.close().catch(() => undefined);
    await session.close().catch(() => undefined);
    session.dispose();
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await benchMcpNavigate();
}
