// The bridge's `lsp` tool through `sharpclaw mcp` and the official client over stdio, with the real
// Roslyn host on a restored copy of fixtures/Calculator: status before and after a load, the
// capabilities, raw requests answered with zero-based LSP JSON (definition, references, hover,
// documentSymbol), refusals of session methods and of unlisted methods without apply, and reload.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { answerWait, cleanUpCopies, cliPath, copyFixture, tempStateRoot } from '../support';

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const callOptions = { timeout: 300_000 };

function text(result: CallResult): string {
  return (result.content as Array<{ text: string }>)[0]!.text;
}

/** Zero-based line and character of the first `needle` in a file. */
function find(file: string, needle: string): { line: number; character: number } {
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
  const line = lines.findIndex((candidate) => candidate.includes(needle));
  assert.ok(line >= 0, `${needle} in ${file}`);
  return { line, character: lines[line]!.indexOf(needle) };
}

describe('sharpclaw mcp: the lsp tool', function () {
  this.timeout(600_000);
  let calculator: string;
  let client: Client;

  before(async () => {
    calculator = copyFixture('Calculator', 'Calculator.slnx');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, 'mcp', '--cwd', calculator, '--allow-evaluation', ...answerWait],
      env: { ...(process.env as Record<string, string>), SHARPCLAW_STATE_DIR: tempStateRoot() },
      stderr: 'pipe',
    });
    client = new Client({ name: 'sharpclaw-lsp-tests', version: '1.0.0' });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await cleanUpCopies();
  });

  const lsp = (args: Record<string, unknown>) => client.callTool({ name: 'lsp', arguments: args }, callOptions);

  it('status before any other call: the host started with the server (its pid once ready), nothing loading', async () => {
    // sharpclaw mcp starts its host as it starts serving (hostPrestart.ts, mcpCommand.ts): no tool call needed.
    let status = '';
    for (let attempt = 0; attempt < 300 && !status.startsWith('running: yes'); attempt++) {
      const answer = await lsp({ action: 'status' });
      assert.notEqual(answer.isError, true, text(answer));
      status = text(answer);
      assert.match(status, /^running: (yes \(pid \d+\)|no \(Host starting[^\n]*\))\nloading: no\nworkspace: /);
      if (!status.startsWith('running: yes')) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(status, /^running: yes \(pid \d+\)\n/);
  });

  it('capabilities are the host ServerCapabilities; requests answer with zero-based LSP JSON', async () => {
    const capabilities = JSON.parse(text(await lsp({ action: 'capabilities' }))) as Record<string, unknown>;
    assert.equal(capabilities.definitionProvider, true);
    assert.equal(capabilities.referencesProvider, true);
    assert.equal(capabilities.positionEncoding, 'utf-16');

    const program = path.join(calculator, 'src', 'Calculator.App', 'Program.cs');
    const iface = path.join(calculator, 'src', 'Calculator.Core', 'ICalculator.cs');
    const at = find(program, 'Divide(');
    const textDocument = { uri: pathToFileURL(program).href };

    const definition = await lsp({ action: 'request', method: 'textDocument/definition', parameters: { textDocument, position: at } });
    assert.notEqual(definition.isError, true, text(definition));
    const declared = find(iface, 'Divide(');
    assert.deepEqual(JSON.parse(text(definition)), [
      { uri: pathToFileURL(iface).href, range: { start: declared, end: { line: declared.line, character: declared.character + 6 } } },
    ]);

    // Parameters as JSON text, as some clients send them.
    const references = await lsp({ action: 'request', method: 'textDocument/references', parameters: JSON.stringify({ textDocument, position: at, context: { includeDeclaration: false } }) });
    const locations = JSON.parse(text(references)) as Array<{ uri: string; range: { start: { line: number } } }>;
    assert.deepEqual(locations.filter((l) => l.uri === textDocument.uri).map((l) => l.range.start.line), [7, 11]);

    const hover = JSON.parse(text(await lsp({ action: 'request', method: 'textDocument/hover', parameters: { textDocument, position: at } }))) as { contents: { value: string }; range: unknown };
    assert.match(hover.contents.value, /^\(method\) double Calculator\.Core\.ICalculator\.Divide\(double dividend, double divisor\)/);
    assert.deepEqual(hover.range, { start: at, end: { line: at.line, character: at.character + 6 } });

    const symbols = JSON.parse(text(await lsp({ action: 'request', method: 'textDocument/documentSymbol', parameters: { textDocument: { uri: pathToFileURL(iface).href } } }))) as Array<{ name: string; children: Array<{ name: string; kind: number; children: Array<{ name: string }> }> }>;
    assert.equal(symbols[0]!.children[0]!.name, 'ICalculator');
    assert.equal(symbols[0]!.children[0]!.kind, 11);
    assert.deepEqual(symbols[0]!.children[0]!.children.map((m) => m.name), ['Add', 'Subtract', 'Multiply', 'Divide']);

    // Call hierarchy: the item from prepare goes back as it came; Program's two calls reach Calculator.Divide through ICalculator.
    const implementation = path.join(calculator, 'src', 'Calculator.Core', 'Calculator.cs');
    const prepared = JSON.parse(text(await lsp({ action: 'request', method: 'textDocument/prepareCallHierarchy', parameters: { textDocument: { uri: pathToFileURL(implementation).href }, position: find(implementation, 'Divide(') } }))) as Array<Record<string, unknown>>;
    assert.equal(prepared.length, 1);
    assert.equal(prepared[0]!.detail, 'Calculator.Core.Calculator.Divide(double, double)');
    const incoming = JSON.parse(text(await lsp({ action: 'request', method: 'callHierarchy/incomingCalls', parameters: { item: prepared[0] } }))) as Array<{ from: { uri: string }; fromRanges: Array<{ start: { line: number } }> }>;
    const fromProgram = incoming.filter((call) => call.from.uri === textDocument.uri);
    assert.deepEqual(fromProgram.map((call) => call.fromRanges.map((r) => r.start.line)), [[7, 11]]);
    assert.ok(incoming.some((call) => call.from.uri.endsWith('/tests/Calculator.Tests/CalculatorTests.cs')), 'the tests call it directly');

    const status = text(await lsp({ action: 'status' }));
    assert.match(status, /^running: yes \(pid \d+\)\nloading: no\nworkspace: .*; loaded: Calculator\.slnx · Debug \(3 projects\)\nserver: SharpClaw host \S+, Roslyn \S+, \.NET /);
  });

  it('refuses session methods, and unlisted methods without apply: true, as typed errors', async () => {
    const didOpen = await lsp({ action: 'request', method: 'textDocument/didOpen', parameters: {} });
    assert.equal(didOpen.isError, true);
    assert.match(text(didOpen), /^error invalid_request: textDocument\/didOpen belongs to the LSP session SharpClaw runs itself/);
    const completion = await lsp({ action: 'request', method: 'textDocument/completion', parameters: {} });
    assert.equal(completion.isError, true);
    assert.match(text(completion), /^error invalid_request: 'textDocument\/completion' is not among the methods answered \(textDocument\/definition, .*needs apply: true\.$/);
    const noMethod = await lsp({ action: 'request' });
    assert.match(text(noMethod), /^error invalid_request: lsp request needs method/);
  });

  it('reload starts a new session: another host process with nothing loaded', async () => {
    const before = /pid (\d+)/.exec(text(await lsp({ action: 'status' })))?.[1];
    const reload = await lsp({ action: 'reload' });
    assert.notEqual(reload.isError, true, text(reload));
    assert.match(text(reload), /^Reloaded:/);
    const after = text(await lsp({ action: 'status' }));
    assert.match(after, /; nothing loaded yet\n/);
    assert.notEqual(/pid (\d+)/.exec(after)?.[1] ?? before, before, 'a new host process');
  });
});
