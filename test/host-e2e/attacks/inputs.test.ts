// Attacks on input bounds and paths, through every door that takes them (doors.ts). The outcome is the
// same everywhere: a typed `error invalid_request` naming what was wrong, and a server that keeps serving.
// Doors left out, and why: the CLI takes its input as one argument, which Linux caps at 128 KiB
// (MAX_ARG_STRLEN), so an oversized message cannot reach it, and its --cwd cannot hold a NUL; the
// 2026-07-28 era has no roots (no server→client requests).
// Each MCP era's size attacks and %00 URI attack share one server (DoorPool): the 11 MB message goes to it
// fresh, its next call loads the copy, the 20 MB message then reaches a loaded server, and the %00 URI
// (refused before any file is read) leaves it as it was; so a file pays one cold load per era, not two.
// The 2025 era's FIFO attack runs last on its shared server (its source put back after), the CLI's on a copy
// of its own.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanUpCopies, copyFixture, tempStateRoot } from '../support';
import { DoorPool, openDoor, type Door, type DoorName } from './doors';

const navigate = { action: 'definition', symbol: 'Calculator.Divide' };

describe('attacks on input bounds and paths', function () {
  this.timeout(600_000);
  let calculator: string;
  const doors: Door[] = [];

  before(() => {
    calculator = copyFixture('Calculator', 'Calculator.slnx');
  });

  afterEach(async () => {
    for (const door of doors.splice(0)) await door.close().catch(() => undefined);
  });

  /** One server per MCP era on the shared copy, for the attacks that leave it serving as it was. */
  const shared = new DoorPool(() => ({ workspace: calculator, stateDir: tempStateRoot(), allow: ['evaluation'] }));

  after(async () => {
    await shared.close();
    await cleanUpCopies();
  });

  async function open(name: DoorName, options: Partial<Parameters<typeof openDoor>[1]> = {}): Promise<Door> {
    const door = await openDoor(name, { workspace: calculator, stateDir: tempStateRoot(), allow: ['evaluation'], ...options });
    doors.push(door);
    return door;
  }

  /** A call that fails fast if the server went mute (instead of the client's 300 s). */
  async function answered(door: Door, tool: string, input: Record<string, unknown>, seconds: number) {
    // The deadline is cleared once answered: a pending timer kept this file's mocha process alive for 5 minutes after its tests.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${door.name}: no answer within ${seconds} s`)), seconds * 1000)));
    try {
      return await Promise.race([door.call(tool, input), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  for (const name of ['mcp-2025', 'mcp-2026'] as const) {
    // First on the era's shared server, while it is fresh (nothing called yet); its last call loads the copy.
    it(`${name}: an 11 MB message to a fresh server is refused, and the server goes on serving`, async () => {
      const door = await shared.get(name);
      assert.equal(door.log().match(/^SharpClaw host ready/m), null, 'the server is fresh: no host started yet');
      const huge = await answered(door, 'csharp_symbols', { query: 'y'.repeat(11 * 1024 * 1024) }, 60);
      assert.equal(huge.code, 'invalid_request', huge.text);
      const tools = await door.client!.listTools();
      assert.ok(tools.tools.length > 0);
      const next = await answered(door, 'csharp_navigate', navigate, 300);
      assert.equal(next.code, undefined, next.text);
    });

    it(`${name}: a 20 MB tools/call to a loaded server is refused naming its size, and the next call is answered`, async () => {
      const door = await shared.get(name);
      // Loaded by the test above (or now, when this test runs alone): a warm call.
      assert.equal((await answered(door, 'csharp_navigate', navigate, 300)).code, undefined, 'loaded');
      const huge = await answered(door, 'csharp_navigate', { ...navigate, symbol: 'x'.repeat(20 * 1024 * 1024) }, 60);
      assert.equal(huge.code, 'invalid_request', huge.text);
      assert.match(huge.text, /the message is 20\.0 MiB; this server reads at most 4 MiB in one message/);
      const next = await answered(door, 'csharp_navigate', navigate, 60);
      assert.equal(next.code, undefined, next.text);
      assert.match(next.text, /Calculator\.cs \d+:\d+/);
    });
  }

  it('vscode-adapter: a 5 MB tool input is refused by the same bound, naming its size', async () => {
    const door = await open('vscode-adapter');
    const huge = await door.call('csharp_navigate', { ...navigate, symbol: 'x'.repeat(5 * 1024 * 1024) });
    assert.equal(huge.code, 'invalid_request', huge.text);
    assert.match(huge.text, /^error invalid_request: The input is 5\.0 MiB; SharpClaw reads at most 4 MiB in one message/);
  });

  describe('a workspace path with a NUL', () => {
    it('mcp-2025: a client root file:///…%00/etc is a typed error naming the root and --cwd, on every call', async () => {
      const root = `${pathToFileURL(calculator).href}%00/etc`;
      const door = await open('mcp-2025', { roots: [root] });
      for (let i = 0; i < 2; i++) {
        const reply = await door.call('csharp_navigate', navigate);
        assert.equal(reply.code, 'invalid_request', reply.text);
        assert.match(reply.text, /^error invalid_request: The client's first root ".*%00\/etc" cannot be the workspace: its path contains a NUL character at position \d+\. .*--cwd DIR/);
      }
    });

    it('mcp-2025: a client root that is a file is a typed error (not a silent fall back to the start folder)', async () => {
      const door = await open('mcp-2025', { roots: [pathToFileURL(path.join(calculator, 'Calculator.slnx')).href] });
      const reply = await door.call('csharp_navigate', navigate);
      assert.equal(reply.code, 'invalid_request', reply.text);
      assert.match(reply.text, /cannot be the workspace: it is not a folder/);
    });

    it('vscode-adapter: a workspace folder with a NUL is a typed error', async () => {
      const door = await open('vscode-adapter', { workspace: `${calculator}\0/etc` });
      const reply = await door.call('csharp_navigate', navigate);
      assert.equal(reply.code, 'invalid_request', reply.text);
      assert.match(reply.text, /^error invalid_request: The workspace folder ".*\\u0000\/etc" cannot be the workspace: it contains a NUL character/);
    });
  });

  describe('lsp request with a file: URI that is no local path', () => {
    for (const name of ['mcp-2025', 'mcp-2026'] as const) {
      it(`${name}: a %00 in textDocument.uri is invalid_request naming the field`, async () => {
        const door = await shared.get(name);
        const uri = `${pathToFileURL(path.join(calculator, 'src', 'Calculator.Core', 'Calculator.cs')).href}%00.cs`;
        const reply = await door.call('lsp', { action: 'request', method: 'textDocument/hover', parameters: { textDocument: { uri }, position: { line: 5, character: 20 } } });
        assert.equal(reply.code, 'invalid_request', reply.text);
        assert.match(reply.text, /^error invalid_request: parameters\.textDocument\.uri: its path contains a NUL character/);
        assert.ok(fs.existsSync(calculator));
      });
    }
  });

  describe('a source replaced by a FIFO after the load (opening a FIFO blocks until a writer comes)', () => {
    /** Opens a writer on the FIFO without blocking, so a reader stuck on it (a regression) returns and the door can close. */
    function release(fifo: string): void {
      try {
        fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
      } catch {
        // No reader is blocked on it (ENXIO), or it is gone.
      }
    }

    for (const name of ['cli', 'mcp-2025'] as const) {
      it(`${name}: rename_file of it is invalid_request naming the file within 60 s, and the next call is answered`, async function () {
        if (process.platform === 'win32') this.skip();
        // mcp-2025: on the era's shared server and copy (loaded: one cold load fewer), last on it, the source put back after.
        const workspace = name === 'mcp-2025' ? calculator : copyFixture('Calculator', 'Calculator.slnx');
        const door = name === 'mcp-2025' ? await shared.get(name) : await open(name, { workspace });
        const source = path.join(workspace, 'src', 'Calculator.Core', 'ICalculator.cs');
        const original = fs.readFileSync(source);
        const renameFile = { action: 'rename_file', path: 'src/Calculator.Core/ICalculator.cs', newName: 'ICalc.cs' };
        const preview = await answered(door, 'csharp_edit', renameFile, 300);
        assert.equal(preview.code, undefined, preview.text);
        fs.rmSync(source);
        execFileSync('mkfifo', [source]);
        try {
          const refused = await answered(door, 'csharp_edit', renameFile, 60);
          assert.equal(refused.code, 'invalid_request', refused.text);
          assert.match(refused.text, /src\/Calculator\.Core\/ICalculator\.cs is not a regular file \(a FIFO, device or socket is never opened\); nothing was changed\./);
          const next = await answered(door, 'csharp_navigate', navigate, 60);
          assert.equal(next.code, undefined, next.text);
          assert.match(next.text, /Calculator\.cs \d+:\d+/);
        } finally {
          release(source);
          fs.rmSync(source, { force: true });
          fs.writeFileSync(source, original);
        }
      });
    }
  });
});
