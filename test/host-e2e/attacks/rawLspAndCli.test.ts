// The attacks of issue 36 through the doors the other attack files leave out: raw `lsp request`s
// (the MCP bridge's `lsp` tool, both eras) for identifiers, approvals, deep input and paths, and the
// CLI's `tool` command for deep input and paths outside the workspace. Each asserts what the agent
// reads: a typed error naming what was wrong, nothing written, no project code run without a new
// approval. The CLI cannot carry an oversized message (Linux caps one argument at 128 KiB, below the
// 4 MiB bound), so only its depth and path attacks run here. The refusals leave the workspace and the
// door as they were, so they share one copy of the fixture and one loaded door per surface (DoorPool);
// the approval attacks edit Directory.Build.props and count project runs, so each gets its own copy.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanUpCopies, copyFixture, tempStateRoot } from '../support';
import { DoorPool, everyDoor, openDoor, type Door, type DoorName } from './doors';

/** Lines in Alpha's marker: how many MSBuild runs executed its code. */
function alphaRuns(workspace: string): number {
  const marker = path.join(workspace, 'Alpha', 'initial-marker.txt');
  return fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n').filter((line) => line.trim()).length : 0;
}

/** `{"a":{"a":…}}` nested `depth` levels. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('attacks through raw lsp and the CLI', function () {
  this.timeout(900_000);
  /** The copy the refusals share: nothing may change it. */
  let shared: string;
  let pool: DoorPool;
  const doors: Door[] = [];

  before(() => {
    shared = copyFixture('TwoMarkedSolutions', 'A.slnx');
    pool = new DoorPool(() => ({ workspace: shared, stateDir: tempStateRoot(), allow: ['evaluation', 'write'] }));
  });

  afterEach(async () => {
    for (const door of doors.splice(0)) await door.close().catch(() => undefined);
  });

  after(async () => {
    await pool.close();
    await cleanUpCopies();
  });

  /** A copy of its own, for an attack that edits the workspace or counts Alpha's project runs. */
  const freshCopy = (): string => {
    const workspace = copyFixture('TwoMarkedSolutions', 'A.slnx');
    fs.rmSync(path.join(workspace, 'Alpha', 'initial-marker.txt'), { force: true });
    return workspace;
  };
  const atGreet = (workspace: string) => ({ textDocument: { uri: pathToFileURL(path.join(workspace, 'Alpha', 'Alpha.cs')).href }, position: { line: 4, character: 26 } });

  /** The shared door of `name`, once it answers: the MCP doors' "still loading" answer waited out (polled; a loaded server answers at once). */
  async function loadedDoor(name: DoorName): Promise<Door> {
    const door = await pool.get(name);
    if (name !== 'mcp-2025' && name !== 'mcp-2026') return door;
    const deadline = Date.now() + 300_000;
    while ((await door.call('lsp', { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: atGreet(shared) })).code === 'loading' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return door;
  }

  // The refusals, grouped by door (a CLI door's resident host stays warm between its calls).
  for (const name of ['mcp-2025', 'mcp-2026'] as const) {
    it(`${name}: lsp textDocument/rename to a name with U+202E is invalid_identifier, as the rename tool says; nothing is returned to apply`, async () => {
      const door = await loadedDoor(name);
      const reply = await door.call('lsp', { action: 'request', method: 'textDocument/rename', target: 'A.slnx', parameters: { ...atGreet(shared), newName: 'Gre\u202Eet' } });
      assert.equal(reply.code, 'invalid_identifier', reply.text);
      assert.match(reply.text, /U\+202E RIGHT-TO-LEFT OVERRIDE at position 4/);
      const tool = await door.call('csharp_rename_symbol', { name: 'Greeter.Greet', newName: 'Gre\u202Eet', target: 'A.slnx' });
      assert.equal(tool.code, 'invalid_identifier', tool.text);
    });

    it(`${name}: lsp parameters nested 1,000 deep (10,000 as JSON text), or a file: URI outside the workspace, are invalid_request naming them`, async () => {
      const door = await loadedDoor(name);
      // 1,000 levels as an object (the client's own JSON.stringify overflows near 10,000), 10,000 as JSON text (50 KB, under the 100,000-character bound).
      const deep = await door.call('lsp', { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: { ...atGreet(shared), context: nested(1_000) } });
      assert.equal(deep.code, 'invalid_request', deep.text);
      assert.match(deep.text, /nested deeper than 32 levels/);
      const deepText = await door.call('lsp', { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: '{"a":'.repeat(10_000) + '{}' + '}'.repeat(10_000) });
      assert.equal(deepText.code, 'invalid_request', deepText.text);
      assert.match(deepText.text, /^error invalid_request: parameters\.a\.a.*: nested deeper than 32 levels/);
      const outside = await door.call('lsp', { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: { textDocument: { uri: 'file:///etc/passwd' }, position: { line: 0, character: 0 } } });
      assert.equal(outside.code, 'invalid_request', outside.text);
      assert.doesNotMatch(outside.text, /root:/, 'the file outside the workspace was read');
      const next = await door.call('lsp', { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: atGreet(shared) });
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
      const before = fs.readFileSync(path.join(shared, 'Alpha', 'Alpha.cs'), 'utf8');
      const reply = await door.call('csharp_rename_symbol', { name: 'Greeter.Greet', newName: 'Gre\u202Eet', target: 'A.slnx', apply: true });
      assert.equal(reply.code, 'invalid_identifier', reply.text);
      assert.equal(fs.readFileSync(path.join(shared, 'Alpha', 'Alpha.cs'), 'utf8'), before);
    });
  }

  // The approval attacks, each on a copy of its own.
  for (const name of ['mcp-2025', 'mcp-2026'] as const) {
    it(`${name}: after one allowed load and an edit of Directory.Build.props, an lsp request runs nothing without a new approval`, async () => {
      const workspace = freshCopy();
      const door = await openDoor(name, { workspace, stateDir: tempStateRoot(), answer: ['allow_once', 'deny'] });
      doors.push(door);
      const hover = { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: atGreet(workspace) };
      const allowed = await door.call('lsp', hover);
      assert.equal(allowed.code, undefined, allowed.text);
      const loaded = alphaRuns(workspace);
      assert.ok(loaded > 0, 'Allow once let the load run');

      const props = path.join(workspace, 'Directory.Build.props');
      fs.writeFileSync(props, fs.readFileSync(props, 'utf8').replace(/<\/PropertyGroup>/, '  <AttackMarker>lsp</AttackMarker>\n  </PropertyGroup>'));
      const refused = await door.call('lsp', hover);
      assert.equal(refused.code, 'permission_denied', refused.text);
      assert.equal(alphaRuns(workspace), loaded, 'project code ran again without an approval');
      assert.equal(door.asked.length, 2, 'the person was asked again');
    });
  }

  it('mcp-2026: an lsp request\'s answered requestState replayed after an edit of Directory.Build.props runs nothing', async () => {
    const workspace = freshCopy();
    const door = await openDoor('mcp-2026', { workspace, stateDir: tempStateRoot(), manualRounds: true });
    doors.push(door);
    type Round = { resultType?: string; requestState?: string; isError?: boolean; content?: Array<{ text?: string }> };
    const send = async (retry?: object) =>
      (await door.client!.callTool(
        { name: 'lsp', arguments: { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: atGreet(workspace) }, ...(retry ?? {}) } as never,
        { allowInputRequired: true, timeout: 300_000 } as never,
      )) as Round;
    const allowOnce = { permission: { action: 'accept', content: { decision: 'allow_once' } } };
    const question = await send();
    assert.equal(question.resultType, 'input_required', JSON.stringify(question));
    const answered = await send({ requestState: question.requestState, inputResponses: allowOnce });
    assert.notEqual(answered.isError, true, JSON.stringify(answered));
    const loaded = alphaRuns(workspace);
    assert.ok(loaded > 0);

    const props = path.join(workspace, 'Directory.Build.props');
    fs.writeFileSync(props, fs.readFileSync(props, 'utf8').replace(/<\/PropertyGroup>/, '  <AttackMarker>replay</AttackMarker>\n  </PropertyGroup>'));
    const replay = await send({ requestState: question.requestState, inputResponses: allowOnce });
    assert.equal(replay.isError, true, `the replay was answered: ${JSON.stringify(replay)}`);
    assert.match((replay.content ?? []).map((c) => c.text ?? '').join('\n'), /^error invalid_request: This approval was already used/);
    assert.equal(alphaRuns(workspace), loaded, 'the replay ran project code');
  });
});
