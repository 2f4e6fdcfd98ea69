// The attacks of issue 36 through the doors the other attack files leave out: raw `lsp request`s
// (the MCP bridge's `lsp` tool, both eras) for identifiers, deep input and paths, and the
// CLI's `tool` command for deep input and paths outside the workspace. Each asserts what the agent
// reads: a typed error naming what was wrong, nothing written. The CLI cannot carry an oversized message (Linux caps one argument at 128 KiB, below the
// 4 MiB bound), so only its depth and path attacks run here. The refusals leave the workspace and the
// door as they were, so each surface's refusals share one copy of the fixture and one loaded door
// (DoorPool); the path attacks of pathAttacks.ts (case-only differences and .., through every door) run
// next on the same copy and door, since they need the same fixture and load, and last, since they end by
// renaming Alpha.cs: one cold load per door for both. The raw lsp approval attacks (an lsp request after an
// edit of Directory.Build.props asks again; a spent requestState replayed runs nothing) run in
// approvals.test.ts, on the servers of the same attacks through the other tools.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanUpCopies, tempStateRoot } from '../support';
import { DoorPool, everyDoor, type Door, type DoorName } from './doors';
import { pathAttacks, pathsBed } from './pathAttacks';

/** `{"a":{"a":…}}` nested `depth` levels. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('attacks through raw lsp and the CLI', function () {
  this.timeout(900_000);
  /** Each door's copy (made by pathsBed: `outside` beside it, the link `Linked` in it) and state folder: the refusals change nothing, the path attacks run last. */
  const beds = new Map<DoorName, { workspace: string; outside: string; stateDir: string }>();
  const bed = (name: DoorName) => {
    let found = beds.get(name);
    if (!found) beds.set(name, (found = { ...pathsBed(), stateDir: tempStateRoot() }));
    return found;
  };
  const pool = new DoorPool((name) => ({ workspace: bed(name).workspace, stateDir: bed(name).stateDir, allow: ['evaluation', 'write'] }));
  after(async () => {
    await pool.close();
    beds.clear();
    await cleanUpCopies();
  });

  const atGreet = (workspace: string) => ({ textDocument: { uri: pathToFileURL(path.join(workspace, 'Alpha', 'Alpha.cs')).href }, position: { line: 4, character: 26 } });

  /** The shared door of `name`, once it answers: the MCP doors' "still loading" answer waited out (polled; a loaded server answers at once). */
  async function loadedDoor(name: DoorName): Promise<Door> {
    const door = await pool.get(name);
    if (name !== 'mcp-2025' && name !== 'mcp-2026') return door;
    const deadline = Date.now() + 300_000;
    while ((await door.call('lsp', { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: atGreet(bed(name).workspace) })).code === 'loading' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return door;
  }

  // The refusals, grouped by door (a CLI door's resident host stays warm between its calls).
  for (const name of ['mcp-2025', 'mcp-2026'] as const) {
    // What a person's --allow-evaluation does (formerly its own test and DesignTimeMarker load in mcp/mcpServer.test.ts, whose
    // settings test asserts the refusal without a grant): the server's load ran the project's code.
    it(`${name}: with --allow-evaluation the server's load runs the project's code (Alpha's marker)`, async () => {
      const { workspace } = bed(name);
      assert.equal(fs.existsSync(path.join(workspace, 'Alpha', 'initial-marker.txt')), false, 'nothing ran before the first call');
      const door = await loadedDoor(name);
      const answer = await door.call('lsp', { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: atGreet(workspace) });
      assert.equal(answer.code, undefined, answer.text);
      assert.ok(fs.readFileSync(path.join(workspace, 'Alpha', 'initial-marker.txt'), 'utf8').trim().length > 0, "with --allow-evaluation the load ran the project's targets");
    });

    it(`${name}: lsp textDocument/rename to a name with U+202E is invalid_identifier, as the rename tool says; nothing is returned to apply`, async () => {
      const door = await loadedDoor(name);
      const workspace = bed(name).workspace;
      const reply = await door.call('lsp', { action: 'request', method: 'textDocument/rename', target: 'A.slnx', parameters: { ...atGreet(workspace), newName: 'Gre\u202Eet' } });
      assert.equal(reply.code, 'invalid_identifier', reply.text);
      assert.match(reply.text, /U\+202E RIGHT-TO-LEFT OVERRIDE at position 4/);
      const tool = await door.call('csharp_rename_symbol', { name: 'Greeter.Greet', newName: 'Gre\u202Eet', target: 'A.slnx' });
      assert.equal(tool.code, 'invalid_identifier', tool.text);
    });

    it(`${name}: lsp parameters nested 1,000 deep (10,000 as JSON text), or a file: URI outside the workspace, are invalid_request naming them`, async () => {
      const door = await loadedDoor(name);
      const workspace = bed(name).workspace;
      // 1,000 levels as an object (the client's own JSON.stringify overflows near 10,000), 10,000 as JSON text (50 KB, under the 100,000-character bound).
      const deep = await door.call('lsp', { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: { ...atGreet(workspace), context: nested(1_000) } });
      assert.equal(deep.code, 'invalid_request', deep.text);
      assert.match(deep.text, /nested deeper than 32 levels/);
      const deepText = await door.call('lsp', { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: '{"a":'.repeat(10_000) + '{}' + '}'.repeat(10_000) });
      assert.equal(deepText.code, 'invalid_request', deepText.text);
      assert.match(deepText.text, /^error invalid_request: parameters\.a\.a.*: nested deeper than 32 levels/);
      const outside = await door.call('lsp', { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: { textDocument: { uri: 'file:///etc/passwd' }, position: { line: 0, character: 0 } } });
      assert.equal(outside.code, 'invalid_request', outside.text);
      assert.doesNotMatch(outside.text, /root:/, 'the file outside the workspace was read');
      const next = await door.call('lsp', { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: atGreet(workspace) });
      assert.equal(next.code, undefined, `the server stopped serving: ${next.text}`);
    });

    renameToolAttack(name);
  }

  it('cli: an input nested 1,000 deep and a path outside the workspace are invalid_request naming them; nothing ran', async () => {
    const door = await loadedDoor('cli');
    const deep = await door.call('csharp_symbols', { query: 'Greet', target: 'A.slnx', extra: nested(1_000) });
    assert.equal(deep.code, 'invalid_request', deep.text);
    assert.match(deep.text, /nested deeper than 32 levels/);
    const outside = await door.call('csharp_symbols', { file: '../../../../../../etc/passwd', target: 'A.slnx' });
    assert.equal(outside.code, 'invalid_request', outside.text);
    assert.doesNotMatch(outside.text, /root:/);
  });

  for (const name of everyDoor.filter((door) => door !== 'mcp-2025' && door !== 'mcp-2026')) renameToolAttack(name);

  function renameToolAttack(name: DoorName): void {
    it(`${name}: csharp_rename_symbol to a name with U+202E is invalid_identifier and writes nothing`, async () => {
      const door = await loadedDoor(name);
      const workspace = bed(name).workspace;
      const before = fs.readFileSync(path.join(workspace, 'Alpha', 'Alpha.cs'), 'utf8');
      const reply = await door.call('csharp_rename_symbol', { name: 'Greeter.Greet', newName: 'Gre\u202Eet', target: 'A.slnx', apply: true });
      assert.equal(reply.code, 'invalid_identifier', reply.text);
      assert.equal(fs.readFileSync(path.join(workspace, 'Alpha', 'Alpha.cs'), 'utf8'), before);
    });
  }

  // The path attacks on the same copies and doors, last on each: they end by renaming Alpha.cs.
  pathAttacks(bed, loadedDoor);
});
