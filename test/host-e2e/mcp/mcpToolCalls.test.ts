// Every default MCP tool called through the official client over stdio against `node dist/cli.js
// mcp`, with the real Roslyn host: read tools on a restored copy of fixtures/ReadTools (typed errors
// of the bridge spec, paging, arrays sent as JSON strings), and on fixtures/EditTools the
// preview → stale_edit → preview → apply cycle and verify_workspace, in the 2026-07-28 era, with
// the refusals that name the flag when the server was not given it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { cleanUpCopies, copyFixture, tempStateRoot } from '../support';
import { callOptions, connect, text, type CallResult } from './mcpClient';

describe('sharpclaw mcp: every default tool through an MCP client', function () {
  this.timeout(900_000);
  const open: Client[] = [];
  let stateDir: string;

  before(() => (stateDir = tempStateRoot()));
  after(async () => {
    for (const client of open.splice(0)) await client.close().catch(() => undefined);
    await cleanUpCopies();
  });

  const ok = (result: CallResult): string => {
    assert.notEqual(result.isError, true, text(result));
    return text(result);
  };
  const failed = (result: CallResult): string => {
    assert.equal(result.isError, true, text(result));
    return text(result);
  };

  describe('read tools on fixtures/ReadTools (2025-11-25 era)', () => {
    let client: Client;
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }, callOptions);

    before(async () => {
      const workspace = copyFixture('ReadTools', 'ReadTools.slnx');
      ({ client } = await connect({ workspace, stateDir, flags: ['--allow-evaluation'] }));
      open.push(client);
    });

    it('diagnostics: a file, and ids sent as a JSON string', async () => {
      assert.match(ok(await call('diagnostics', { file: 'App/Broken.cs' })), /^App\/Broken\.cs\n {2}5:\d+ error CS0103 The name 'UndefinedThing' does not exist in the current context\n1 file checked, 1 diagnostic in 1 file$/m);
      const filtered = ok(await call('diagnostics', { path: 'App/Warn.cs', severity: 'hint', ids: '["CS0168"]' }));
      assert.equal(filtered, "App/Warn.cs\n  7:13 warning CS0168 The variable 'unused' is declared but never used\n1 file checked, 1 diagnostic in 1 file, filtered by ids");
    });

    it('navigate: pages with limit and offset (no overlap, totals kept, past the end says the total)', async () => {
      const first = ok(await call('navigate', { action: 'references', symbol: 'Many.Ping', limit: 5 }));
      assert.match(first, /^App\/Many\.cs 11:18 12:18 13:18 14:18 15:18$/m);
      assert.match(first, /^truncated: 100 locations in total, next offset: 5\. Raise limit or narrow the query\.$/m);
      const second = ok(await call('navigate', { action: 'references', symbol: 'Many.Ping', limit: 5, offset: 5 }));
      assert.match(second, /^App\/Many\.cs 16:18 17:18 18:18 19:18 20:18$/m);
      assert.match(second, /^truncated: 100 locations in total, next offset: 10\./m);
      assert.match(ok(await call('navigate', { action: 'references', symbol: 'Many.Ping', offset: 1000 })), /^offset 1000 is past the last of 100 locations$/m);
    });

    it('navigate: the typed errors of the bridge spec, each with isError', async () => {
      // Each candidate once (not its name and then its description), by a name that resolves to it alone.
      const ambiguous = failed(await call('navigate', { action: 'hover', symbol: 'Calculator.Add' }));
      assert.match(ambiguous, /^error ambiguous_symbol: 'Calculator\.Add' matches 2 symbols\. Ask again with one of these names, exactly as written\.\n {2}Calculator\.Add\(double, double\) \(method, Core\/Calculator\.cs:\d+:\d+\)\n {2}Calculator\.Add\(int, int\) \(method, Core\/Calculator\.cs:\d+:\d+\)$/);
      assert.match(ok(await call('navigate', { action: 'hover', symbol: 'Calculator.Add(int, int)' })), /ReadTools\.Core\.Calculator\.Add\(int/);
      assert.match(failed(await call('navigate', { action: 'hover', symbol: 'Nope.Missing' })), /^error symbol_not_found: No type matches the container 'Nope'\./);
      assert.match(failed(await call('navigate', { action: 'definition', file: 'Helpers.cs', line: 5, character: 30 })), /^error ambiguous_file: 'Helpers\.cs' matches 2 files\..*\n {2}Core\/A\/Helpers\.cs\n {2}Core\/B\/Helpers\.cs$/);
      assert.match(failed(await call('navigate', { symbol: 'Calculator.Sum' })), /^error invalid_request: action: .*Valid arguments: action, symbol, file/);
      assert.match(failed(await call('navigate', { action: 'references', symbol: 'Many.Ping', offset: -1 })), /^error invalid_request: offset: Too small/);
      assert.match(failed(await call('navigate', { action: 'teleport', symbol: 'Many.Ping' })), /^error invalid_request: action: /);
    });

    it('bulk_navigate: queries sent as a JSON string, one section per query, a failed query in its own section', async () => {
      const queries = JSON.stringify([
        { action: 'hover', symbol: 'Calculator.Sum' },
        { action: 'definition', file: 'Helpers.cs', line: 5, character: 30 },
      ]);
      const answer = ok(await call('bulk_navigate', { queries }));
      assert.match(answer, /^## 1 hover Calculator\.Sum\n\(method\) public int ReadTools\.Core\.Calculator\.Sum\(int first, int second\)$/m);
      assert.match(answer, /^## 2 definition Helpers\.cs:5:30\nerror ambiguous_file: 'Helpers\.cs' matches 2 files\./m);
      assert.match(failed(await call('bulk_navigate', { queries: [] })), /^error invalid_request: queries: /);
    });

    it('symbols: a file (resolved from a unique suffix), a query, and ambiguous_file', async () => {
      const document = ok(await call('symbols', { file: 'A/Helpers.cs' }));
      assert.match(document, /^resolved file: Core\/A\/Helpers\.cs$/m);
      assert.match(document, /^3:\d+-\d+:\d+ class ReadTools\.Core\.A\.Helpers$/m);
      const workspace = ok(await call('symbols', { query: 'Helpers', limit: 1 }));
      assert.match(workspace, /^Core\/[AB]\/Helpers\.cs:3:\d+ class ReadTools\.Core\.[AB]\.Helpers$/m);
      assert.match(workspace, /^truncated: .*next offset: 1\./m);
      assert.match(failed(await call('symbols', { file: 'Helpers.cs' })), /^error ambiguous_file: /);
      assert.match(failed(await call('symbols', {})), /^error invalid_request: .*Give exactly one of file or query\./);
    });

    it('dotnet_solution_inspect: the projects as MSBuild evaluates them', async () => {
      const answer = ok(await call('dotnet_solution_inspect', {}));
      assert.match(answer, /^target: ReadTools\.slnx \(Debug\), 2 projects, load complete(, cached)?$/m);
      assert.match(answer, /^App\/App\.csproj: library\n {2}frameworks: net10\.0\n {2}references: Core\/Core\.csproj$/m);
    });
  });

  describe('edit and verify_workspace on fixtures/EditTools (2026-07-28 era)', () => {
    let workspace: string;
    const read = (relative: string) => fs.readFileSync(path.join(workspace, relative), 'utf8');
    const era = { pin: '2026-07-28' };

    before(() => {
      workspace = copyFixture('EditTools', 'EditTools.slnx');
    });

    it('without --allow-write and --allow-shell, applying and verifying are refused naming the flag, and nothing is written', async () => {
      const { client } = await connect({ workspace, stateDir, flags: ['--allow-evaluation'], negotiation: era });
      open.push(client);
      const before = read('Lib/Calculator.cs');
      const refusedWrite = failed(await client.callTool({ name: 'edit', arguments: { action: 'rename', symbol: 'Calculator.Add', newName: 'Sum', apply: true } }, callOptions));
      assert.match(refusedWrite, /^error permission_denied: .*Pass --allow-write to allow it\./);
      assert.equal(read('Lib/Calculator.cs'), before);
      const refusedShell = failed(await client.callTool({ name: 'verify_workspace', arguments: { scope: 'build' } }, callOptions));
      assert.match(refusedShell, /Pass --allow-shell to allow it\./);
      // The load may create empty output folders; a build would put Lib.dll there.
      assert.equal(fs.existsSync(path.join(workspace, 'Lib', 'bin', 'Debug', 'net10.0', 'Lib.dll')), false, 'nothing was built');
      await client.close();
    });

    it('preview → a file changes → stale_edit → a new preview → apply writes it, then verify_workspace builds', async () => {
      const { client } = await connect({ workspace, stateDir, flags: ['--allow-evaluation', '--allow-write', '--allow-shell'], negotiation: era });
      open.push(client);
      assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
      const edit = (args: Record<string, unknown>) => client.callTool({ name: 'edit', arguments: args }, callOptions);
      const rename = { action: 'rename', symbol: 'Calculator.Add', newName: 'Sum' };

      const preview = ok(await edit(rename));
      const proposal = /^proposal ([0-9a-f]{6}): 4 files, not applied$/m.exec(preview)?.[1];
      assert.ok(proposal, preview);
      assert.match(preview, /^\+ {5}public int Sum\(int a, int b\) => a \+ b;$/m);
      assert.match(read('Lib/Calculator.cs'), /public int Add\(/, 'a preview writes nothing');

      // Someone edits a file the proposal changes.
      fs.appendFileSync(path.join(workspace, 'Lib', 'Calculator.cs'), '// touched\n');
      assert.match(failed(await edit({ action: 'rename', proposalId: proposal, apply: true })), /^error stale_edit: /);
      assert.match(read('Lib/Calculator.cs'), /public int Add\(/);

      const fresh = /^proposal ([0-9a-f]{6}): /m.exec(ok(await edit(rename)))?.[1];
      assert.ok(fresh);
      assert.notEqual(fresh, proposal);
      const receipt = ok(await edit({ action: 'rename', proposalId: fresh, apply: true }));
      assert.match(receipt, /^writes finished, Roslyn refreshed: 4 files$/m);
      assert.match(receipt, /^change Lib\/Calculator\.cs \(2 occurrences\)$/m);
      assert.match(read('Lib/Calculator.cs'), /public int Sum\(int a, int b\) => a \+ b;/);
      assert.match(read('App/Program.cs'), /calculator\.Sum\(2, 3\)/);

      const verified = ok(await client.callTool({ name: 'verify_workspace', arguments: { scope: 'build' } }, callOptions));
      assert.match(verified, /passed/);
      assert.doesNotMatch(verified, /error CS/);
    });
  });
});
