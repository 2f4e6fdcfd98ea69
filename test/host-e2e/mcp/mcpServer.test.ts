// `sharpclaw mcp` end to end: the real bundled CLI (dist/cli.js) serving MCP over stdio, driven by
// the official client SDK (a 2025-11-25 `initialize` session) and by raw JSON-RPC in both eras, on
// restored copies of fixtures/Calculator and fixtures/DesignTimeMarker, with the real Roslyn host: the
// tool list (each tool as recorded in test/host-answers/mcp-tools-list.json, in both eras), one warm host and its restart after a crash, stdout for protocol messages only, the
// workspace it works in, and who may let it run project code (flags, the user's settings file,
// elicitation in both eras). That its answers are what `sharpclaw tool` prints for the same host answer
// is asserted on the recorded host answers (test/unit/recordedAnswers.test.ts); the SDK client in the
// 2026-07-28 era: mcpToolCalls.test.ts.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { alive, cleanUpCopies, cliPath, copyFixture, runCli, tempStateRoot, waitFor } from '../support';
import { callOptions, connect as connectWith, text, type Connected } from './mcpClient';
import { checkMcpListing } from '../../support/hostAnswers';

const defaultTools = ['diagnostics', 'navigate', 'bulk_navigate', 'symbols', 'edit', 'lsp', 'dotnet_solution_inspect', 'verify_workspace'];
const extraTools = ['csharp_symbol_resolve', 'csharp_find_references', 'csharp_type_hierarchy', 'csharp_rename_symbol', 'symbol_search', 'workspace_search'];

function connect(workspace: string, stateDir: string, flags: string[], negotiation?: { pin: string }): Promise<Connected> {
  return connectWith({ workspace, stateDir, flags, ...(negotiation ? { negotiation } : {}) });
}

/** The JSON nesting depth of a schema's properties (1: its fields have no fields of their own). */
function propertyDepth(schema: unknown): number {
  if (typeof schema !== 'object' || schema === null) return 0;
  let deepest = 0;
  for (const [key, value] of Object.entries(schema)) {
    const below = propertyDepth(value);
    deepest = Math.max(deepest, key === 'properties' ? 1 + Math.max(0, ...Object.values(value as object).map(propertyDepth)) : below);
  }
  return deepest;
}

describe('sharpclaw mcp (MCP server over stdio)', function () {
  this.timeout(600_000);
  let calculator: string;
  let stateDir: string;
  const open: Client[] = [];

  before(() => {
    calculator = copyFixture('Calculator', 'Calculator.slnx');
    stateDir = tempStateRoot();
  });

  afterEach(async () => {
    for (const client of open.splice(0)) await client.close().catch(() => undefined);
  });

  after(cleanUpCopies);

  const navigateInput = { action: 'callers', symbol: 'Calculator.Divide' };
  
  it('2025-11-25 era: lists the default tools in order with annotations and schemas, answers with text and the typed record, keeps one warm host and starts a new one on the next call after a crash', async () => {
    const { client, stderr } = await connect(calculator, stateDir, ['--allow-evaluation']);
    open.push(client);
    assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), defaultTools);
    // Each tool as the unit tests' in-memory server lists it (test/host-answers/mcp-tools-list.json), so the wire changes nothing.
    checkMcpListing(tools, 'stdio, 2025-11-25');
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.equal(byName.get('navigate')!.title, 'Navigate C#');
    assert.deepEqual(byName.get('navigate')!.annotations, { readOnlyHint: true, openWorldHint: false });
    assert.equal(byName.get('edit')!.annotations!.destructiveHint, true);
    assert.equal(byName.get('edit')!.annotations!.readOnlyHint, false);
    assert.equal(byName.get('verify_workspace')!.annotations!.destructiveHint, true);
    assert.ok(Object.keys((byName.get('navigate')!.inputSchema as { properties: object }).properties).includes('symbol'));
    // The read tools publish the structure they send (structuredResult.ts); the others' text says it all.
    for (const name of defaultTools) assert.equal(byName.get(name)!.outputSchema?.type, ['diagnostics', 'navigate', 'symbols', 'dotnet_solution_inspect'].includes(name) ? 'object' : undefined, name);
    assert.match(stderr(), /serving 8 tools/, 'logs go to stderr');

    // (That the text is what `sharpclaw tool` prints for the same answer: test/unit/recordedAnswers.test.ts.)
    const ready = () => [...stderr().matchAll(/^SharpClaw host ready in \d+ ms: pid (\d+)/gm)].map((match) => Number(match[1]));
    for (let i = 0; i < 2; i++) {
      const navigate = await client.callTool({ name: 'navigate', arguments: navigateInput }, callOptions);
      assert.notEqual(navigate.isError, true, text(navigate));
      assert.match(text(navigate), /Program\.cs:\d+:\d+ /, 'Program.cs calls Divide');
      // The typed record, checked by the client SDK against the published output schema.
      assert.equal((navigate.structuredContent as { omittedGenerated?: unknown }).omittedGenerated, 0);
    }
    assert.equal(ready().length, 1, 'two calls, one host');

    const [first] = ready();
    process.kill(first!, 'SIGKILL');
    await waitFor('the killed host to be gone', () => !alive(first!), 30_000);
    const after = await client.callTool({ name: 'navigate', arguments: navigateInput }, callOptions);
    assert.notEqual(after.isError, true, text(after));
    assert.match(text(after), /Program\.cs:\d+:\d+ /);
    assert.equal(ready().length, 2, stderr());
    assert.notEqual(ready()[1], first);
  });

  it('writes protocol messages only to stdout (logs go to stderr) and exits when stdin closes', async () => {
    const child = spawn(process.execPath, [cliPath, 'mcp', '--cwd', calculator, '--allow-evaluation'], { env: { ...process.env, SHARPCLAW_STATE_DIR: tempStateRoot() }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // lsp capabilities starts the host (its logs must reach stderr) without loading the workspace.
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'lsp', arguments: { action: 'capabilities' } } });
    const deadline = Date.now() + 300_000;
    while (!/"id":2[,}]/.test(stdout) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    child.stdin.end();
    assert.equal(await exited, 0, stderr);
    const lines = stdout.split('\n').filter((line) => line.length > 0);
    assert.equal(lines.length, 2, stdout);
    for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, '2.0', line);
    const answer = JSON.parse(lines[1]!) as { id: number; result: { content: Array<{ text: string }>; isError?: boolean } };
    assert.equal(answer.id, 2);
    assert.notEqual(answer.result.isError, true, answer.result.content[0]!.text);
    assert.match(stderr, /^SharpClaw host ready in \d+ ms/m, 'the host log goes to stderr');
    assert.match(stderr, /^SharpClaw host \(pid \d+\) exited with code 0 after a stop request\.$/m, 'closing stdin stops the host');
  });

  it('2026-07-28 era, raw: server/discover, then stateless requests carrying the protocol version in _meta (resultType, ttlMs/cacheScope, fixed order)', async () => {
    const child = spawn(process.execPath, [cliPath, 'mcp', '--cwd', calculator, '--allow-evaluation'], { env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'server/discover', params: { _meta: meta } });
    send({ id: 2, method: 'tools/list', params: { _meta: meta } });
    send({ id: 3, method: 'tools/call', params: { _meta: meta, name: 'lsp', arguments: { action: 'status' } } });
    send({ id: 4, method: 'tools/call', params: { _meta: meta, name: 'navigate', arguments: { action: 'hover' } } });
    const deadline = Date.now() + 300_000;
    while ([1, 2, 3, 4].some((id) => !new RegExp(`"id":${id}[,}]`).test(stdout)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    child.stdin.end();
    assert.equal(await exited, 0);
    const answers = new Map<number, { result: Record<string, unknown> }>();
    for (const line of stdout.split('\n').filter((entry) => entry.length > 0)) {
      const message = JSON.parse(line) as { jsonrpc: string; id: number; result: Record<string, unknown> };
      assert.equal(message.jsonrpc, '2.0', line);
      answers.set(message.id, message);
    }
    const discover = answers.get(1)!.result as { supportedVersions: string[]; capabilities: { tools?: unknown } };
    assert.ok(discover.supportedVersions.includes('2026-07-28'));
    assert.deepEqual(discover.capabilities.tools, { listChanged: false });
    const list = answers.get(2)!.result as { tools: Array<{ name: string }>; resultType: string; ttlMs: number; cacheScope: string };
    assert.deepEqual(list.tools.map((tool) => tool.name), defaultTools);
    checkMcpListing(list.tools, 'stdio, 2026-07-28');
    assert.equal(list.resultType, 'complete');
    assert.equal(list.ttlMs, 3_600_000);
    assert.equal(list.cacheScope, 'private');
    const called = answers.get(3)!.result as { content: Array<{ text: string }>; structuredContent?: unknown; resultType: string; isError?: boolean };
    assert.equal(called.resultType, 'complete');
    assert.notEqual(called.isError, true, called.content[0]!.text);
    assert.match(called.content[0]!.text, /^running: no .*\nloading: no\nworkspace: /);
    // lsp publishes no structure (structuredResult.ts): its text says it all.
    assert.equal(called.structuredContent, undefined);
    const invalid = answers.get(4)!.result as { content: Array<{ text: string }>; isError: boolean };
    assert.equal(invalid.isError, true);
    assert.match(invalid.content[0]!.text, /^error invalid_request: /);
  });

  it('--tools all lists the 14 tools, the default ones first', async () => {
    const { client } = await connect(calculator, stateDir, ['--tools', 'all']);
    open.push(client);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), [...defaultTools, ...extraTools]);
    checkMcpListing(tools, 'stdio, --tools all');
  });

  it('keeps the tools/list answer small: under 24 KB by default (eight tools), output schemas only one level deep', async () => {
    // Every client downloads the listing (and many put it into the agent's context): it was 45 KB,
    // 26 KB of it nested output schemas. Inputs keep every argument with its description; verify_workspace's
    // output schema (its report's 20 fields) costs about 1 KB.
    const { client } = await connect(calculator, stateDir, []);
    open.push(client);
    const listing = await client.listTools();
    const bytes = Buffer.byteLength(JSON.stringify(listing), 'utf8');
    assert.ok(bytes < 24_000, `tools/list is ${bytes} bytes`);
    let outputBytes = 0;
    for (const tool of listing.tools) {
      if (!tool.outputSchema) continue;
      outputBytes += JSON.stringify(tool.outputSchema).length;
      assert.equal(propertyDepth(tool.outputSchema), 1, `${tool.name}: the output schema lists the record's fields, not their fields`);
    }
    assert.ok(outputBytes < 5_000, `output schemas take ${outputBytes} bytes`);
    const navigate = listing.tools.find((tool) => tool.name === 'navigate')!;
    const input = navigate.inputSchema as { properties: Record<string, { description?: string; maximum?: number }>; additionalProperties?: boolean };
    assert.equal(input.additionalProperties, false);
    for (const name of ['action', 'symbol', 'file', 'line', 'character', 'offset', 'limit']) assert.ok(input.properties[name]?.description, `navigate documents ${name}`);
    assert.equal(input.properties.limit!.maximum, 200, 'real bounds stay');
    assert.equal(input.properties.line!.maximum, undefined, "the host's int bound is implied");
    const bulk = listing.tools.find((tool) => tool.name === 'bulk_navigate')!.inputSchema as unknown as { properties: { queries: { items: { properties: Record<string, { description?: string }> } } } };
    assert.deepEqual(Object.values(bulk.properties.queries.items.properties).filter((property) => property.description), [], "a query's fields are navigate's, documented there");
  });

  it('`mcp setup --client claude-code` writes .mcp.json with the picked flags, and the server it names answers (--print writes nothing)', async () => {
    const printed = await runCli(['mcp', 'setup', '--client', 'cursor', '--print', '--cwd', calculator], { cwd: calculator });
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /"mcpServers"/);
    assert.equal(fs.existsSync(path.join(calculator, '.cursor')), false, '--print writes nothing');

    const wrote = await runCli(['mcp', 'setup', '--client', 'claude-code', '--cwd', calculator, '--allow-evaluation'], { cwd: calculator });
    assert.equal(wrote.code, 0, wrote.stderr);
    assert.equal(wrote.stdout, `added the sharpclaw server in ${path.join(calculator, '.mcp.json')}\n`);
    const config = JSON.parse(fs.readFileSync(path.join(calculator, '.mcp.json'), 'utf8')) as { mcpServers: { sharpclaw: { command: string; args: string[] } } };
    assert.deepEqual(config.mcpServers.sharpclaw, { type: 'stdio', command: 'sharpclaw', args: ['mcp', '--allow-evaluation'] });
    const unknown = await runCli(['mcp', 'setup', '--client', 'emacs'], { cwd: calculator });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^error invalid_request: --client "emacs" is unknown: claude-code, codex, cursor, vscode, copilot-cli\./m);

    // Claude Code starts the server in the project with those arguments (`sharpclaw` is this bundle): it
    // answers, working in the project. lsp status says so without starting a host or loading: that
    // --allow-evaluation lets a load run is asserted by attacks/rawLspAndCli.test.ts (each MCP era's server with
    // it runs the project's code), and the server above loads and answers navigate on this copy.
    const transport = new StdioClientTransport({ command: process.execPath, args: [cliPath, ...config.mcpServers.sharpclaw.args], cwd: calculator, env: { ...(process.env as Record<string, string>), SHARPCLAW_STATE_DIR: stateDir }, stderr: 'pipe' });
    const client = new Client({ name: 'as-configured', version: '1' });
    await client.connect(transport);
    open.push(client);
    const answer = await client.callTool({ name: 'lsp', arguments: { action: 'status' } }, callOptions);
    assert.notEqual(answer.isError, true, text(answer));
    assert.equal(/^workspace: (.*)$/m.exec(text(answer))?.[1], fs.realpathSync(calculator), text(answer));
    fs.rmSync(path.join(calculator, '.mcp.json'));
  });

  it('grants from the user\'s ~/.sharpclaw/settings.jsonc like the flags; the same keys in the workspace file grant nothing', async () => {
    const marked = copyFixture('DesignTimeMarker', 'DesignTimeMarker.slnx');
    const markers = ['initial-marker.txt', 'marker.txt'].map((name) => path.join(marked, 'App', name));
    for (const marker of markers) fs.rmSync(marker, { force: true });
    const call = { name: 'navigate', arguments: { action: 'definition', symbol: 'Greeter.Greet' } };
    const grant = '{\n  // what the MCP server may do\n  "mcp": { "allowEvaluation": true }\n}\n';
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-mcp-home-'));
    try {
      // The project's own settings file tries to grant: refused naming the flag, and nothing of the project ran
      // (what a server without any grant answers too; that --allow-evaluation lets the load run its code:
      // attacks/rawLspAndCli.test.ts).
      fs.mkdirSync(path.join(marked, '.sharpclaw'));
      fs.writeFileSync(path.join(marked, '.sharpclaw', 'settings.jsonc'), grant);
      const refused = await connectWith({ workspace: marked, stateDir, env: { HOME: home } });
      open.push(refused.client);
      assert.match(text(await refused.client.callTool(call, callOptions)), /^error permission_denied: .*Pass --allow-evaluation to allow it\./);
      await refused.client.close();
      for (const marker of markers) assert.equal(fs.existsSync(marker), false, `${marker} was written: a workspace file granted evaluation`);

      // The person's own file grants it.
      fs.mkdirSync(path.join(home, '.sharpclaw'));
      fs.writeFileSync(path.join(home, '.sharpclaw', 'settings.jsonc'), grant);
      const allowed = await connectWith({ workspace: marked, stateDir, env: { HOME: home } });
      open.push(allowed.client);
      const answer = await allowed.client.callTool(call, callOptions);
      assert.notEqual(answer.isError, true, text(answer));
      assert.ok(markers.some((marker) => fs.existsSync(marker)), 'the user settings file allowed the load');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('without a grant, asks the person through a client with elicitation: Deny refuses (nothing ran), Allow once loads', async () => {
    const marked = copyFixture('DesignTimeMarker', 'DesignTimeMarker.slnx');
    const markers = ['initial-marker.txt', 'marker.txt'].map((name) => path.join(marked, 'App', name));
    for (const marker of markers) fs.rmSync(marker, { force: true });
    const call = { name: 'navigate', arguments: { action: 'definition', symbol: 'Greeter.Greet' } };
    const asked: string[] = [];
    // One server: the person answers Deny to the first question and Allow once to the second.
    const decisions = ['deny', 'allow_once'];

    const connected = await connectWith({ workspace: marked, stateDir, elicit: ({ message }) => (asked.push(message), { action: 'accept', content: { decision: decisions.shift()! } }) });
    open.push(connected.client);
    assert.match(text(await connected.client.callTool(call, callOptions)), /^error permission_denied: .*The person declined to let SharpClaw evaluate/);
    for (const marker of markers) assert.equal(fs.existsSync(marker), false, `${marker} was written after Deny`);
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /^SharpClaw wants to .*\nWhy: .*\nAsked by: /);

    const answer = await connected.client.callTool(call, callOptions);
    assert.notEqual(answer.isError, true, text(answer));
    assert.match(text(answer), /App\/Greeter\.cs \d+:\d+/);
    assert.equal(asked.length, 2);
    assert.ok(markers.some((marker) => fs.existsSync(marker)), 'Allow once let the load run');
  });

  it('2026-07-28 era: asks with an input_required result (elicitation), and the retry with Allow once loads; Deny refuses', async () => {
    const marked = copyFixture('DesignTimeMarker', 'DesignTimeMarker.slnx');
    const markers = ['initial-marker.txt', 'marker.txt'].map((name) => path.join(marked, 'App', name));
    for (const marker of markers) fs.rmSync(marker, { force: true });
    const call = { name: 'navigate', arguments: { action: 'definition', symbol: 'Greeter.Greet' } };
    const freshState = tempStateRoot();
    const asked: string[] = [];
    const era = { pin: '2026-07-28' };
    // One server: the person answers Deny to the first question and Allow once to the second.
    const decisions = ['deny', 'allow_once'];

    const connected = await connectWith({ workspace: marked, stateDir: freshState, negotiation: era, elicit: ({ message }) => (asked.push(message), { action: 'accept', content: { decision: decisions.shift()! } }) });
    open.push(connected.client);
    assert.equal(connected.client.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.match(text(await connected.client.callTool(call, callOptions)), /^error permission_denied: The person declined to let SharpClaw evaluate/);
    assert.equal(asked.length, 1, 'the client asked the person once');
    assert.match(asked[0]!, /^SharpClaw wants to .*\nWhy: .*\nAsked by: /);
    for (const marker of markers) assert.equal(fs.existsSync(marker), false, `${marker} was written after Deny`);

    const answer = await connected.client.callTool(call, callOptions);
    assert.notEqual(answer.isError, true, text(answer));
    assert.match(text(answer), /App\/Greeter\.cs \d+:\d+/);
    assert.equal(asked.length, 2);
    assert.ok(markers.some((marker) => fs.existsSync(marker)), 'Allow once let the retried call load');
  });

  it('a broken mcp section in the user settings file stops the server with invalid_request naming the key', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-mcp-home-'));
    try {
      fs.mkdirSync(path.join(home, '.sharpclaw'));
      fs.writeFileSync(path.join(home, '.sharpclaw', 'settings.jsonc'), '{ "mcp": { "allowWrite": "yes" } }');
      const result = await runCli(['mcp', '--cwd', calculator], { cwd: calculator, env: { HOME: home } });
      assert.equal(result.code, 2);
      assert.match(result.stderr, /^error invalid_request: Invalid setting mcp\.allowWrite = "yes" in .*settings\.jsonc: expected true or false\./m);
      assert.equal(result.stdout, '', 'stdout carries protocol messages only');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  describe('the workspace: --cwd, else the client\'s first root, else the start folder', () => {
    // lsp status names the workspace a call works in without starting a host or loading anything.
    const status = { name: 'lsp', arguments: { action: 'status' } };
    const workspaceOf = async (connected: Connected) => {
      const answer = await connected.client.callTool(status, callOptions);
      assert.notEqual(answer.isError, true, text(answer));
      // The status line adds "; nothing loaded yet" (or what is loaded) once the host is ready: the workspace ends before it.
      return /^workspace: ([^;\n]*)/m.exec(text(answer))?.[1];
    };
    let elsewhere: string;
    before(() => (elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-mcp-elsewhere-'))));
    after(() => fs.rmSync(elsewhere, { recursive: true, force: true }));

    it('without --cwd, a client that offers roots gets its first root as the workspace, chosen once', async () => {
      const connected = await connectWith({ startFolder: elsewhere, stateDir, flags: ['--allow-evaluation'], roots: [calculator, elsewhere] });
      open.push(connected.client);
      assert.equal(await workspaceOf(connected), calculator);
      assert.equal(connected.rootRequests(), 1);
      assert.match(connected.stderr(), new RegExp(`workspace ${calculator.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(the client's first root\\)`));
      // Chosen once: the second call does not ask again.
      assert.equal(await workspaceOf(connected), calculator);
      assert.equal(connected.rootRequests(), 1);
    });

    it('--cwd wins over the client\'s roots (they are never asked for)', async () => {
      const connected = await connectWith({ workspace: calculator, startFolder: elsewhere, stateDir, flags: ['--allow-evaluation'], roots: [elsewhere] });
      open.push(connected.client);
      assert.equal(await workspaceOf(connected), calculator);
      assert.equal(connected.rootRequests(), 0);
    });

    it('without --cwd and without roots, the workspace is the folder the server started in', async () => {
      const started = await connectWith({ startFolder: elsewhere, stateDir, flags: ['--allow-evaluation'] });
      open.push(started.client);
      assert.equal(await workspaceOf(started), fs.realpathSync(elsewhere));
    });
  });
});
