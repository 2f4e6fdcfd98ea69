// The writing MCP tools called through the official client over stdio against `node dist/cli.js mcp`,
// with the real Roslyn host, on a restored copy of fixtures/EditTools in the 2026-07-28 era: the
// refusals that name the flag when the server was not given it, the preview → stale_edit → preview →
// apply cycle, and verify_workspace. (What the read tools answer through MCP — text, isError, structured
// content — is asserted on the recorded host answers in test/unit/recordedAnswers.test.ts.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { cleanUpCopies, copyFixture, tempStateRoot } from '../support';
import { callOptions, connect, text, type CallResult } from './mcpClient';

describe('sharpclaw mcp: edit and verify_workspace through an MCP client', function () {
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
