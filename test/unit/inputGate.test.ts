// The engine's one input gate: the message bound (input/inputLimits.ts) as the MCP stdio transport
// applies it while a message streams in, and the path checks (input/paths.ts) every surface's workspace
// folder and the lsp tool's file: URIs pass.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { ToolError } from '../../src/engine/errors';
import { maxMessageBytes } from '../../src/engine/input/inputLimits';
import { badUriIn, checkWorkspaceFolder, workspaceFolderOfUri } from '../../src/engine/input/paths';
import { parseToolInput } from '../../src/engine/tools/toolInput';
import { navigateTool } from '../../src/engine/tools/navigation/navigationTools';
import { BoundedStdioServerTransport, idOfTruncated } from '../../src/surfaces/mcp/mcpStdioTransport';

describe('the MCP stdio transport bounds each message before parsing it', () => {
  async function transport(limit: number) {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const received: unknown[] = [];
    const written: string[] = [];
    stdout.on('data', (chunk: Buffer) => written.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const t = new BoundedStdioServerTransport(stdin, stdout, limit);
    t.onmessage = (message) => received.push(message);
    let closed = false;
    t.onclose = () => (closed = true);
    await t.start();
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    return { stdin, received, written, closed: () => closed, settle };
  }

  it('refuses a line over the bound with its id and size, streamed in pieces, and reads the next line', async () => {
    const { stdin, received, written, closed, settle } = await transport(1000);
    const big = JSON.stringify({ method: 'tools/call', params: { name: 'navigate', arguments: { symbol: 'x'.repeat(5000) } }, jsonrpc: '2.0', id: 7 });
    for (let i = 0; i < big.length; i += 333) stdin.write(big.slice(i, i + 333));
    stdin.write('\n{"jsonrpc":"2.0","id":8,"method":"tools/list"}\n');
    await settle();
    assert.equal(closed(), false);
    assert.deepEqual(received, [{ jsonrpc: '2.0', id: 8, method: 'tools/list' }]);
    const answer = JSON.parse(written[0]!) as { id: number; error: { code: number; message: string } };
    assert.equal(answer.id, 7);
    assert.equal(answer.error.code, -32600);
    assert.match(answer.error.message, /^error invalid_request: the message is 5\.0 KiB; this server reads at most 1000 bytes in one message/);
  });

  it('a message exactly at the bound is read', async () => {
    const { stdin, received, settle } = await transport(60);
    const line = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: '' } });
    const padded = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'p'.repeat(60 - line.length) } });
    assert.equal(padded.length, 60);
    stdin.write(`${padded}\n`);
    await settle();
    assert.equal(received.length, 1);
  });

  it('finds the id at either end of a truncated message', () => {
    assert.equal(idOfTruncated('{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{', '"}}}'), 42);
    assert.equal(idOfTruncated('{"method":"tools/call","params":{"a":"', 'xx"}},"jsonrpc":"2.0","id":"abc"}'), 'abc');
    assert.equal(idOfTruncated('{"method":"x","params":{"', 'xx","id":5}}'), undefined, 'an id inside params is not the message\'s');
  });

  it('the tool input of every surface has the same bound', () => {
    assert.throws(
      () => parseToolInput(navigateTool, { action: 'definition', symbol: 'x'.repeat(maxMessageBytes) }),
      (error: unknown) => error instanceof ToolError && error.code === 'invalid_request' && /^The input is 4\.0 MiB; SharpClaw reads at most 4 MiB/.test(error.message),
    );
  });
});

describe('the path gate', () => {
  let folder: string;
  before(() => (folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-paths-'))));
  after(() => fs.rmSync(folder, { recursive: true, force: true }));

  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      assert.ok(error instanceof ToolError && error.code === 'invalid_request', String(error));
      return error.message;
    }
    assert.fail('not refused');
  };

  it('a workspace folder: absolute, an existing folder, no control characters', () => {
    assert.equal(checkWorkspaceFolder(folder, 'The workspace folder'), folder);
    assert.match(refusal(() => checkWorkspaceFolder(`${folder}\0/etc`, 'The workspace folder')), /contains a NUL character at position \d+/);
    assert.match(refusal(() => checkWorkspaceFolder(`${folder}\n`, 'The workspace folder')), /control character U\+000A/);
    assert.match(refusal(() => checkWorkspaceFolder('relative/dir', 'The workspace folder')), /not an absolute path/);
    assert.match(refusal(() => checkWorkspaceFolder(path.join(folder, 'missing'), 'The workspace folder')), /does not exist/);
  });

  it('a root URI: a local file: URI of a folder', () => {
    assert.equal(workspaceFolderOfUri(`file://${folder}`, 'The root'), folder);
    assert.match(refusal(() => workspaceFolderOfUri(`file://${folder}%00/etc`, 'The root')), /its path contains a NUL character/);
    assert.match(refusal(() => workspaceFolderOfUri(`file://${folder}%2Fetc`, 'The root')), /encoded separator/);
    assert.match(refusal(() => workspaceFolderOfUri(`file://elsewhere${folder}`, 'The root')), /another machine/);
  });

  it('the file: URIs of raw LSP params, at any depth', () => {
    assert.equal(badUriIn({ textDocument: { uri: `file://${folder}/A.cs` }, position: { line: 1 } }), undefined);
    assert.equal(badUriIn({ textDocument: { uri: `file://${folder}/A%00.cs` } }), 'parameters.textDocument.uri: its path contains a NUL character at position ' + (folder.length + 3));
    assert.match(badUriIn({ item: { uri: 'http://example.invalid/A.cs' } })!, /^parameters\.item\.uri: it is a http: URI/);
    assert.match(badUriIn({ items: [{ targetUri: 'file:///%0a' }] })!, /^parameters\.items\[0\]\.targetUri: its path contains the control character U\+000A/);
  });
});
