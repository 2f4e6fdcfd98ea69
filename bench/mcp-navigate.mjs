// `node bench/mcp-navigate.mjs [--iterations N]`: a warm `navigate` (callers of Calculator.Divide on
// a restored copy of fixtures/Calculator) through the MCP server — the official client SDK over
// stdio against `node dist/cli.js mcp` — beside the same call through Session.runTool in this
// process (what the VS Code LM tool adapter calls, without VS Code's transport), interleaved in one
// run so both sides see the same machine load. Needs `npm run build` and `npm run compile-tests`.
// Not here yet: the VS Code LM tool path itself (needs the code-server test bed) and a direct
// Roslyn call (the C# benches, SharpClaw.Bench, measure host against direct Roslyn).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { option, report, row } from './stats.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

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

  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(repoRoot, 'dist', 'cli.js'), 'mcp', '--cwd', workspace, '--allow-evaluation'], env: { ...process.env, SHARPCLAW_STATE_DIR: state }, stderr: 'ignore' });
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
  try {
    // Cold loads first (not measured); the answers must be the same text.
    const [first, second] = [await viaMcp(), await inProcess()];
    if (first.text !== second.text) throw new Error(`the two paths answer differently:\n${first.text}\n---\n${second.text}`);
    const mcp = [];
    const direct = [];
    for (let i = 0; i < iterations; i++) {
      if (i % 2 === 0) {
        mcp.push((await viaMcp()).ms);
        direct.push((await inProcess()).ms);
      } else {
        direct.push((await inProcess()).ms);
        mcp.push((await viaMcp()).ms);
      }
    }
    return report('mcp-navigate', {
      fixture: 'fixtures/Calculator',
      call: JSON.stringify(input),
      rows: [row('warm navigate through MCP (stdio, official client) vs Session.runTool in process', mcp, direct, { baseline_is: 'Session.runTool in process (the LM tool adapter path without VS Code)' })],
    });
  } finally {
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
