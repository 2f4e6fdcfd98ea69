// The issue-36 attack "a path differing only in case, or climbing out with ..": the same file arguments
// sent through every door (doors.ts) against the host's file rule (Symbols/FileResolver.cs), its write
// containment (SolutionDiff.CheckInsideWorkspace, which rename_file and every planned edit pass) and the apply
// journal (Edits/InterruptedEdits.cs: an apply-*.json record in the workspace's state folder, written before
// the first write). On a copy of fixtures/TwoMarkedSolutions (A.slnx: Alpha/Alpha.cs declares Greeter) with
// a folder `outside` beside the workspace and a link `Linked -> ../outside` at its root. Linux file systems
// are case-sensitive: `ALPHA/Alpha.cs` names no file there, and the host must not answer for Alpha/Alpha.cs.
// Each asserts what the agent reads (a typed error naming the path as it was sent, never a machine path
// outside the workspace), that nothing was written inside or outside, and that no apply record was left.
// Not a test file of its own: rawLspAndCli.test.ts registers these tests after its refusals, on the same
// copy and loaded door per surface (its DoorPool; the copy has `outside` and `Linked` from the start), so the
// two files' attacks pay one cold load per door, not two. The raw lsp test only reads; the containment test
// ends by renaming Alpha.cs, so it runs last on its door.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyFixture } from '../support';
import { everyDoor, type Door, type DoorName } from './doors';

/** Every apply record in a state root's journals (none: no apply is running or was interrupted). */
function applyRecords(stateDir: string): string[] {
  const workspaces = path.join(stateDir, 'workspaces');
  if (!fs.existsSync(workspaces)) return [];
  return fs.readdirSync(workspaces).flatMap((key) => {
    const journal = path.join(workspaces, key, 'journal');
    return fs.existsSync(journal) ? fs.readdirSync(journal).filter((name) => name.startsWith('apply-')) : [];
  });
}

/** A restored copy of TwoMarkedSolutions (A.slnx) with a folder `outside` beside it (holding Evil.cs), a link `Linked -> ../outside` at its root and no Alpha/initial-marker.txt (every MSBuild run of Alpha adds a line to it). */
export function pathsBed(): { workspace: string; outside: string } {
  const workspace = copyFixture('TwoMarkedSolutions', 'A.slnx');
  const outside = path.join(path.dirname(workspace), 'outside');
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'Evil.cs'), 'namespace Outside;\n\npublic static class Evil\n{\n}\n');
  fs.symlinkSync(path.join('..', 'outside'), path.join(workspace, 'Linked'));
  // Restore ran Alpha's InitialTargets: from here on, a line in its marker is a load's.
  fs.rmSync(path.join(workspace, 'Alpha', 'initial-marker.txt'), { force: true });
  return { workspace, outside };
}

/**
 * The path attacks, as tests of the describe that calls this: `bed(name)` is the door's copy (made by
 * pathsBed) and state folder, `door(name)` its loaded door, which these tests leave with Alpha.cs renamed.
 */
export function pathAttacks(bed: (name: DoorName) => { workspace: string; outside: string; stateDir: string }, door: (name: DoorName) => Promise<Door>): void {
  for (const name of ['mcp-2025', 'mcp-2026'] as const) {
    it(`${name}: a raw lsp request on ALPHA/Alpha.cs, or on a URI climbing out with .., answers for no file`, async () => {
      const { workspace } = bed(name);
      const loaded = await door(name);
      const alpha = path.join(workspace, 'Alpha', 'Alpha.cs');
      const hover = (file: string) => ({ action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: { textDocument: { uri: pathToFileURL(file).href }, position: { line: 2, character: 22 } } });
      // Polled while the server answers "still loading" (a loaded server answers at once).
      let real = await loaded.call('lsp', hover(alpha));
      for (const deadline = Date.now() + 300_000; real.code === 'loading' && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        real = await loaded.call('lsp', hover(alpha));
      }
      assert.equal(real.code, undefined, real.text);
      assert.match(real.text, /Greeter/);
      const caseVariant = await loaded.call('lsp', hover(path.join(workspace, 'ALPHA', 'Alpha.cs')));
      assert.equal(caseVariant.code, 'invalid_request', `ALPHA/Alpha.cs answered for Alpha/Alpha.cs: ${caseVariant.text}`);
      assert.match(caseVariant.text, /ALPHA\/Alpha\.cs is not a C# document of a loaded project/);
      const climbing = await loaded.call('lsp', { ...hover(alpha), parameters: { textDocument: { uri: `${pathToFileURL(workspace).href}/Alpha/../../outside/Evil.cs` }, position: { line: 2, character: 22 } } });
      assert.equal(climbing.code, 'invalid_request', climbing.text);
      assert.match(climbing.text, /is outside the workspace/);
      assert.doesNotMatch(climbing.text, /contents|\(class\)/, 'a hover was answered');
    });
  }

  for (const name of everyDoor) {
    it(`${name}: ALPHA/Alpha.cs and Alpha/../../outside are refused as files to read or rename, a new name climbing out or through a link is outside_workspace naming it as sent; nothing is written or journalled; the file's own case-only rename applies`, async () => {
      const { workspace, outside, stateDir } = bed(name);
      const loaded = await door(name);
      const alpha = path.join(workspace, 'Alpha', 'Alpha.cs');
      const machinePath = path.dirname(workspace);
      const original = fs.readFileSync(alpha, 'utf8');

      // Reads: the real file answers; its case variant and a path out of the workspace name no workspace file.
      const real = await loaded.call('csharp_symbols', { file: 'Alpha/Alpha.cs', target: 'A.slnx' });
      assert.equal(real.code, undefined, real.text);
      assert.match(real.text, /class Alpha\.Greeter/);
      for (const file of ['ALPHA/Alpha.cs', 'alpha/alpha.cs', 'Alpha/../../outside/Evil.cs']) {
        const reply = await loaded.call('csharp_symbols', { file, target: 'A.slnx' });
        assert.equal(reply.code, 'invalid_request', `${file}: ${reply.text}`);
        assert.ok(reply.text.includes(`No workspace file matches '${file}'`), `${file}: ${reply.text}`);
        assert.doesNotMatch(reply.text, /class |project:/, 'a declaration was listed');
      }

      // rename_file of a file named in another case, or out of the workspace: no such document.
      for (const file of ['ALPHA/Alpha.cs', 'Alpha/../../outside/Evil.cs']) {
        const reply = await loaded.call('csharp_edit', { action: 'rename_file', path: file, newName: 'Hello.cs', target: 'A.slnx', apply: true });
        assert.equal(reply.code, 'invalid_request', `${file}: ${reply.text}`);
        assert.ok(reply.text.includes(`No workspace file matches '${file}'`), `${file}: ${reply.text}`);
      }

      // A new name in a folder that differs only in case: not created.
      const caseFolder = await loaded.call('csharp_edit', { action: 'rename_file', path: 'Alpha/Alpha.cs', newName: 'ALPHA/Greeter.cs', target: 'A.slnx', apply: true });
      assert.equal(caseFolder.code, 'invalid_request', caseFolder.text);
      assert.match(caseFolder.text, /The folder of ALPHA\/Greeter\.cs does not exist; rename_file does not create folders\./);
      assert.equal(fs.existsSync(path.join(workspace, 'ALPHA')), false);

      // A new name climbing out with .., or through a link below the root: outside_workspace, named as sent.
      const climbing = await loaded.call('csharp_edit', { action: 'rename_file', path: 'Alpha/Alpha.cs', newName: 'Alpha/../../outside/Greeter.cs', target: 'A.slnx', apply: true });
      assert.equal(climbing.code, 'outside_workspace', climbing.text);
      assert.match(climbing.text, /^error outside_workspace: The edit would write \.\.\/outside\/Greeter\.cs, which is outside the workspace; nothing was changed\./);
      const linked = await loaded.call('csharp_edit', { action: 'rename_file', path: 'Alpha/Alpha.cs', newName: 'Linked/Greeter.cs', target: 'A.slnx', apply: true });
      assert.equal(linked.code, 'outside_workspace', linked.text);
      assert.match(linked.text, /^error outside_workspace: The edit would write Linked\/Greeter\.cs through the symbolic link Linked below the workspace, which leads outside the workspace; nothing was changed\./);
      for (const reply of [climbing, linked]) assert.ok(!reply.text.includes(machinePath), `a machine path outside the workspace in: ${reply.text}`);

      assert.deepEqual(fs.readdirSync(outside), ['Evil.cs'], 'a file was written outside the workspace');
      assert.equal(fs.readFileSync(alpha, 'utf8'), original);
      assert.deepEqual(applyRecords(stateDir), [], 'a refused edit left an apply record');

      // The file's own case-only rename is a rename: applied, the receipt names both paths, no record is left.
      const own = await loaded.call('csharp_edit', { action: 'rename_file', path: 'Alpha/Alpha.cs', newName: 'alpha.cs', target: 'A.slnx', apply: true });
      assert.equal(own.code, undefined, own.text);
      assert.match(own.text, /Alpha\/Alpha\.cs -> Alpha\/alpha\.cs|Alpha\/Alpha\.cs to Alpha\/alpha\.cs/);
      assert.deepEqual(fs.readdirSync(path.join(workspace, 'Alpha')).filter((file) => file.endsWith('.cs')), ['alpha.cs']);
      assert.equal(fs.readFileSync(path.join(workspace, 'Alpha', 'alpha.cs'), 'utf8'), original);
      assert.deepEqual(applyRecords(stateDir), [], 'a finished apply left its record');
      const renamed = await loaded.call('csharp_symbols', { file: 'Alpha/alpha.cs', target: 'A.slnx' });
      assert.equal(renamed.code, undefined, renamed.text);
      const old = await loaded.call('csharp_symbols', { file: 'Alpha/Alpha.cs', target: 'A.slnx' });
      assert.equal(old.code, 'invalid_request', `the old name still answers: ${old.text}`);
    });
  }
}
