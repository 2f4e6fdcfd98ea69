// `sharpclaw mcp` end to end: the real bundled CLI (dist/cli.js) serving MCP over stdio, driven by
// the official client SDK in both protocol eras (a 2025-11-25 `initialize` session and a pinned
// 2026-07-28 one), on restored copies of fixtures/Calculator and fixtures/DesignTimeMarker, with
// the real Roslyn host. Answers must be exactly what `sharpclaw tool` prints for the same input.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { cleanUpCopies, cliPath, copyFixture, restore, runCli, tempStateRoot } from '../verification/support';

type CallResult = Awaited<ReturnType<Client['callTool']>>;

const defaultTools = ['diagnostics', 'navigate', 'bulk_navigate', 'symbols', 'edit', 'dotnet_solution_inspect', 'verify_workspace'];
const extraTools = ['csharp_symbol_resolve', 'csharp_find_references', 'csharp_type_hierarchy', 'csharp_rename_symbol'];
const callOptions = { timeout: 300_000 };

interface Connected {
  client: Client;
  stderr: () => string;
}

async function connect(workspace: string, stateDir: string, flags: string[], negotiation?: { pin: string }): Promise<Connected> {
  assert.ok(fs.existsSync(cliPath), `${cliPath} is missing: run "npm run build"`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', '--cwd', workspace, ...flags],
    env: { ...(process.env as Record<string, string>), SHARPCLAW_STATE_DIR: stateDir },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'sharpclaw-tests', version: '1.0.0' }, negotiation ? { versionNegotiation: { mode: negotiation } } : {});
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

function text(result: CallResult): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  assert.equal(content.length, 1);
  assert.equal(content[0]!.type, 'text');
  return content[0]!.text!;
}

describe('sharpclaw mcp (MCP server over stdio)', function () {
  this.timeout(600_000);
  let calculator: string;
  let stateDir: string;
  const open: Client[] = [];

  before(() => {
    calculator = copyFixture('Calculator');
    restore(calculator, 'Calculator.slnx');
    stateDir = tempStateRoot();
  });

  afterEach(async () => {
    for (const client of open.splice(0)) await client.close().catch(() => undefined);
  });

  after(cleanUpCopies);

  const navigateInput = { action: 'callers', symbol: 'Calculator.Divide' };
  const diagnosticsInput = { severity: 'hint' };

  it('2025-11-25 era: lists the default tools in order with annotations, and answers navigate and diagnostics exactly as `sharpclaw tool` does', async () => {
    const { client, stderr } = await connect(calculator, stateDir, ['--allow-evaluation']);
    open.push(client);
    assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), defaultTools);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.deepEqual(byName.get('navigate')!.annotations, { title: 'Navigate C#', readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    assert.equal(byName.get('edit')!.annotations!.destructiveHint, true);
    assert.equal(byName.get('edit')!.annotations!.readOnlyHint, false);
    assert.equal(byName.get('verify_workspace')!.annotations!.destructiveHint, true);
    assert.ok(Object.keys((byName.get('navigate')!.inputSchema as { properties: object }).properties).includes('symbol'));

    const navigate = await client.callTool({ name: 'navigate', arguments: navigateInput }, callOptions);
    assert.notEqual(navigate.isError, true, text(navigate));
    const navigateText = text(navigate);
    assert.match(navigateText, /Program\.cs:\d+:\d+ /, 'Program.cs calls Divide');
    assert.equal(typeof navigate.structuredContent, 'object');

    const diagnostics = await client.callTool({ name: 'diagnostics', arguments: diagnosticsInput }, callOptions);
    assert.notEqual(diagnostics.isError, true, text(diagnostics));
    const diagnosticsText = text(diagnostics);
    assert.match(diagnosticsText, /files? checked/);
    assert.match(stderr(), /serving 7 tools/, 'logs go to stderr');

    const cliNavigate = await runCli(['tool', 'csharp_navigate', '--cwd', calculator, '--allow-evaluation', '--input', JSON.stringify(navigateInput)], { cwd: calculator, env: { SHARPCLAW_STATE_DIR: stateDir } });
    assert.equal(cliNavigate.code, 0, cliNavigate.stderr);
    assert.equal(navigateText, cliNavigate.stdout.replace(/\n$/, ''));
    const cliDiagnostics = await runCli(['tool', 'csharp_diagnostics', '--cwd', calculator, '--allow-evaluation', '--input', JSON.stringify(diagnosticsInput)], { cwd: calculator, env: { SHARPCLAW_STATE_DIR: stateDir } });
    assert.equal(cliDiagnostics.code, 0, cliDiagnostics.stderr);
    assert.equal(diagnosticsText, cliDiagnostics.stdout.replace(/\n$/, ''));
  });

  it('2026-07-28 era (pinned): lists the tools and answers navigate', async () => {
    const { client } = await connect(calculator, stateDir, ['--allow-evaluation'], { pin: '2026-07-28' });
    open.push(client);
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), defaultTools);
    const navigate = await client.callTool({ name: 'navigate', arguments: navigateInput }, callOptions);
    assert.notEqual(navigate.isError, true, text(navigate));
    assert.match(text(navigate), /Program\.cs:\d+:\d+ /);
  });

  it('an unknown argument is invalid_request listing the valid names', async () => {
    const { client } = await connect(calculator, stateDir, ['--allow-evaluation']);
    open.push(client);
    const result = await client.callTool({ name: 'navigate', arguments: { ...navigateInput, colour: 'red' } }, callOptions);
    assert.equal(result.isError, true);
    assert.match(text(result), /^error invalid_request: unknown argument "colour"\. Valid arguments: action, symbol, file, line, character/);
  });

  it('--tools all lists the 11 tools, the default ones first', async () => {
    const { client } = await connect(calculator, stateDir, ['--tools', 'all']);
    open.push(client);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), [...defaultTools, ...extraTools]);
  });

  it('without --allow-evaluation a call is refused naming the flag, and nothing of the project runs', async () => {
    const marked = copyFixture('DesignTimeMarker');
    const { client } = await connect(marked, stateDir, []);
    open.push(client);
    const result = await client.callTool({ name: 'navigate', arguments: { action: 'definition', symbol: 'Greeter.Greet' } }, callOptions);
    assert.equal(result.isError, true);
    assert.match(text(result), /^error permission_denied: .*Pass --allow-evaluation to allow it\./);
    for (const marker of ['initial-marker.txt', 'marker.txt']) assert.equal(fs.existsSync(path.join(marked, 'App', marker)), false, `${marker} was written: project code ran`);
  });
});
