// `sharpclaw tool`, one contract test per tool family, on one shared fixture: a restored copy of
// fixtures/EditTools and one state folder, so one resident host loads it once for every call. What the
// CLI prints for a query is exactly what the recorded host answer of that query renders to
// (test/host-answers/EditTools: the server tests check each against a live host, the unit tests render
// them and assert their content), which joins the layers. This file asserts what only the CLI process
// shows: exit codes, where text goes (stdout, stderr, the JSON envelope), the permission flags, progress
// on stderr, and the attacks of issue 12 as a person running `sharpclaw tool` sees them (hostile
// arguments, invisible names, exponential globs, file modes and read-only files).
// The families run in order: nothing is loaded before the permission checks, the edits come last.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recording, replay } from '../../support/hostAnswers';
import { temporaryFolder } from '../../support/fixtures';
import { cleanUpCopies, cliPath, copyFixture, tempStateRoot } from '../support';

describe('sharpclaw tool: the contract of each tool family (fixtures/EditTools, one resident host)', function () {
  this.timeout(300_000);
  let workspace: string;
  let stateDir: string;

  before(() => {
    assert.ok(fs.existsSync(cliPath), `${cliPath} is missing: run "npm run build"`);
    workspace = copyFixture('EditTools', 'EditTools.slnx');
    stateDir = tempStateRoot();
  });
  after(cleanUpCopies);

  const runRaw = (tool: string, input: string, flags: string[] = [], cwd = workspace) =>
    spawnSync(process.execPath, [cliPath, 'tool', tool, '--cwd', cwd, '--input', input, ...flags], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 240_000,
      env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir },
    });
  const run = (tool: string, input: object, ...flags: string[]) => runRaw(tool, JSON.stringify(input), flags);
  /** The recorded query through the real CLI: its output must be what the recorded answer renders to. */
  const asRecorded = async (id: string, ...flags: string[]) => {
    const answer = recording(`EditTools/${id}`);
    const printed = run(answer.tool, answer.input, ...flags);
    const expected = await replay(answer, workspace);
    return { printed, expected };
  };
  const read = (relative: string) => fs.readFileSync(path.join(workspace, relative), 'utf8');
  const mode = (relative: string) => fs.statSync(path.join(workspace, relative)).mode & 0o777;

  describe('permissions, before anything is loaded', () => {
    it('a read tool is refused without --allow-evaluation when nobody can be asked, naming the flag (exit 1)', () => {
      const result = run('dotnet_solution_inspect', {});
      assert.equal(result.status, 1, result.stderr);
      assert.match(result.stderr, /^error permission_denied: .*Pass --allow-evaluation to allow it\./m);
      assert.equal(result.stdout, '');
    });

    it('read-only mode refuses even with --allow-evaluation; the JSON envelope carries the typed error', () => {
      const result = run('dotnet_solution_inspect', {}, '--permission-mode', 'read-only', '--allow-evaluation', '--output-format', 'json');
      assert.equal(result.status, 1);
      const envelope = JSON.parse(result.stdout) as { ok: boolean; error: { code: string; message: string } };
      assert.equal(envelope.ok, false);
      assert.equal(envelope.error.code, 'permission_denied');
      assert.match(envelope.error.message, /read-only/);
    });
  });

  describe('symbol_search / workspace_search (the syntax-only store)', () => {
    it('answers in read-only mode without any --allow-* flag, asking nothing: what the recorded answer renders to', async () => {
      const { printed, expected } = await asRecorded('symbol-search-calculator', '--permission-mode', 'read-only');
      assert.equal(printed.status, 0, printed.stderr);
      assert.equal(printed.stdout, expected.stdout);
      assert.match(printed.stdout, /^syntax-only: /);
      assert.equal(printed.stderr, '', 'no load, no question');
      const stores = (folder: string) => fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => /\.db/.test(file));
      assert.equal(stores(stateDir).filter((file) => file.endsWith('store.db')).length, 1, 'the store is in the state folder');
      assert.deepEqual(stores(workspace), [], 'never in the workspace');
    });

    it('shows the progress of a large first index on stderr, and none for a refresh', () => {
      const generated = temporaryFolder('generated');
      for (let i = 0; i < 520; i++) {
        const folder = path.join(generated, 'Generated', `Area${Math.floor(i / 100)}`);
        fs.mkdirSync(folder, { recursive: true });
        fs.writeFileSync(path.join(folder, `Type${i}.cs`), `namespace Generated;\n\npublic sealed class Type${i}\n{\n    public int Value${i} => ${i};\n}\n`);
      }
      const search = (query: string) => runRaw('csharp_symbol_search', JSON.stringify({ query }), ['--permission-mode', 'read-only'], generated);
      const first = search('Type519');
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stdout, /^Generated\/Area5\/Type519\.cs:3:21 class Type519$/m);
      const lines = first.stderr.trim().split('\n');
      const name = path.basename(generated);
      assert.match(lines[0]!, new RegExp(`^Building the syntax index of ${name} 0% \\(5\\d\\d files to parse\\)$`));
      assert.match(lines.find((line) => line.includes('parsed ')) ?? '', new RegExp(`^Building the syntax index of ${name} \\d+% \\(parsed [\\w/]+\\.cs\\)$`));
      assert.match(lines[lines.length - 1]!, new RegExp(`^Building the syntax index of ${name} 100% \\(stored [\\w/]+\\.cs\\)$`));

      fs.appendFileSync(path.join(generated, 'Generated', 'Area0', 'Type7.cs'), 'public sealed class Added7 { }\n');
      const again = search('Added7');
      assert.equal(again.status, 0, again.stderr);
      assert.match(again.stdout, /class Added7$/m);
      assert.equal(again.stderr, '');
    });
  });

  describe('navigate (and the other read tools of the loaded solution)', () => {
    it('loads with --allow-evaluation, progress on stderr, and prints what the recorded answer renders to', async () => {
      const { printed, expected } = await asRecorded('references-add', '--allow-evaluation');
      assert.equal(printed.status, 0, printed.stderr);
      assert.equal(printed.stdout, expected.stdout);
      assert.match(printed.stderr, /Loading EditTools\.slnx( \d+%)? \((evaluating|project \d of 3)/, 'load progress goes to stderr');
    });
  });

  describe('dotnet_solution_inspect', () => {
    it('returns the typed result and its text in the JSON envelope', async () => {
      const { printed, expected } = await asRecorded('inspect', '--allow-evaluation', '--output-format', 'json');
      assert.equal(printed.status, 0, printed.stderr);
      assert.ok(expected.outcome.ok);
      const envelope = JSON.parse(printed.stdout) as { ok: boolean; command: string; data: unknown; text: string };
      // The envelope's data is what an MCP client gets as structuredContent (structuredResult.ts), fitted with the text.
      assert.deepEqual(envelope, { ok: true, command: 'tool dotnet_solution_inspect', data: expected.outcome.structured ?? null, text: expected.outcome.text });
    });

    it('a host error is its typed error on stderr; invalid input exits 2, naming what is valid', async () => {
      const { printed, expected } = await asRecorded('inspect-missing-target', '--allow-evaluation');
      assert.equal(printed.status, 2, 'invalid_request is a usage error');
      assert.equal(printed.stderr, expected.stderr);
      const unknown = run('dotnet_solution_inspect', { project: 'x' });
      assert.equal(unknown.status, 2);
      assert.match(unknown.stderr, /^error invalid_request: unknown argument "project"\. Valid arguments: target, configuration, targetFramework, offset\./m);
    });
  });

  describe('csharp_diagnostics', () => {
    it('prints what the recorded answer renders to', async () => {
      const { printed, expected } = await asRecorded('diagnostics-lib', '--allow-evaluation');
      assert.equal(printed.status, 0, printed.stderr);
      assert.equal(printed.stdout, expected.stdout);
    });
  });

  describe('hostile input (issue 12)', () => {
    it('answers unreadable arguments with invalid_request naming the argument, exit 2 (item 9)', () => {
      const offset = run('csharp_navigate', { action: 'references', symbol: 'Calculator.Add', offset: 2 ** 53 - 1 }, '--allow-evaluation');
      assert.equal(offset.status, 2, offset.stderr);
      assert.match(offset.stderr, /^error invalid_request: offset: .*2147483647/m);
      const surrogate = runRaw('csharp_rename_symbol', '{"name":"Calculator.Add","newName":"Su\\ud800m"}', ['--allow-evaluation']);
      assert.equal(surrogate.status, 2, surrogate.stderr);
      assert.match(surrogate.stderr, /^error invalid_request: newName: contains a lone UTF-16 surrogate U\+D800 at position 3\.$/m);
      const nul = runRaw('csharp_symbols', '{"file":"Calc\\u0000ulator.cs"}', ['--allow-evaluation']);
      assert.equal(nul.status, 2, nul.stderr);
      assert.match(nul.stderr, /^error invalid_request: file: contains a NUL character at position 5\.$/m);
      assert.doesNotMatch(offset.stderr + surrogate.stderr + nul.stderr, /-32000|System\./);
    });

    it('refuses input nested 10,000 levels deep with invalid_request (item 12)', () => {
      const deep = `{"action":"hover","symbol":"Calculator.Add","context":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
      const result = runRaw('csharp_navigate', deep, ['--allow-evaluation']);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /^error invalid_request: context(\.0)+: nested deeper than 32 levels\.$/m);
    });

    it('matches a diagnostics glob of 28 ** segments in linear time, and bounds its length (item 7)', () => {
      const result = run('csharp_diagnostics', { path: `${'**/'.repeat(28)}Nothing*.cs` }, '--allow-evaluation');
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /0 diagnostics/);
      const long = run('csharp_diagnostics', { path: `${'a/'.repeat(600)}*.cs` }, '--allow-evaluation');
      assert.equal(long.status, 2, long.stderr);
      assert.match(long.stderr, /^error invalid_request: path: .*1024/m);
    });

    it('refuses format and bidi control characters in a new name, naming character and position (item 10)', () => {
      for (const [name, shown] of [
        ['Su\u202Em', /U\+202E RIGHT-TO-LEFT OVERRIDE at position 3/],
        ['Su\u200Bm', /U\+200B ZERO WIDTH SPACE at position 3/],
        ['S\u00ADum', /U\+00AD SOFT HYPHEN at position 2/],
      ] as const) {
        const result = run('csharp_rename_symbol', { name: 'Calculator.Add', newName: name }, '--allow-evaluation');
        assert.equal(result.status, 1, result.stdout);
        assert.match(result.stderr, /^error invalid_identifier: /m);
        assert.match(result.stderr, shown);
        assert.doesNotMatch(result.stdout, /proposal/);
      }
    });
  });

  describe('csharp_rename_symbol / csharp_edit (last: the apply changes the copy)', () => {
    it('previews without writing: what the recorded answer renders to (its proposal id aside)', async () => {
      const { printed, expected } = await asRecorded('rename-preview', '--allow-evaluation');
      assert.equal(printed.status, 0, printed.stderr);
      const id = /^proposal ([0-9a-f]{6}): /m;
      assert.match(printed.stdout, id);
      assert.equal(printed.stdout.replace(id, 'proposal ID: '), expected.stdout.replace(id, 'proposal ID: '));
      assert.match(read('Lib/Calculator.cs'), /public int Add\(/);
    });

    it('typed edit errors go to stderr with exit 1, as the recorded answers render them', async () => {
      for (const id of ['rename-keyword', 'rename-generated']) {
        const { printed, expected } = await asRecorded(id, '--allow-evaluation', '--allow-write');
        assert.equal(printed.status, 1, `${id}: ${printed.stdout}`);
        assert.equal(printed.stderr, expected.stderr, id);
      }
    });

    it('denies the write without --allow-write, naming the flag, and leaves the files alone', () => {
      const result = run('csharp_rename_symbol', { name: 'Calculator.Add', newName: 'Sum', apply: true }, '--allow-evaluation');
      assert.equal(result.status, 1, result.stdout);
      assert.match(result.stderr, /^error permission_denied: .*Pass --allow-write to allow it\./m);
      assert.match(read('Lib/Calculator.cs'), /public int Add\(/);
    });

    it('refuses a read-only file before any write (item 4), then applies with --allow-write: the receipt, file modes and owners kept', function () {
      if (process.platform === 'win32') this.skip();
      fs.chmodSync(path.join(workspace, 'Lib/Calculator.cs'), 0o600);
      fs.chmodSync(path.join(workspace, 'App/Program.cs'), 0o755);
      const canChown = process.getuid?.() === 0;
      if (canChown) fs.chownSync(path.join(workspace, 'Lib/Formatter.cs'), 65534, 65534);
      fs.chmodSync(path.join(workspace, 'Tests/CalculatorTests.cs'), 0o444);
      const before = read('Lib/Calculator.cs');
      const rename = { name: 'Calculator.Add', newName: 'Sum', apply: true };

      const refused = run('csharp_rename_symbol', rename, '--allow-evaluation', '--allow-write');
      assert.equal(refused.status, 1, refused.stdout);
      assert.match(refused.stderr, /^error read_only_file: 1 file\(s\) of the edit are read-only; nothing was written/m);
      assert.match(refused.stderr, /^ {2}Tests\/CalculatorTests\.cs$/m);
      assert.equal(read('Lib/Calculator.cs'), before);
      assert.deepEqual(fs.readdirSync(path.join(workspace, 'Lib')).filter((f) => f.endsWith('.tmp')), []);

      fs.chmodSync(path.join(workspace, 'Tests/CalculatorTests.cs'), 0o640);
      const applied = run('csharp_rename_symbol', rename, '--allow-evaluation', '--allow-write');
      assert.equal(applied.status, 0, applied.stderr);
      assert.match(applied.stdout, /^writes finished, Roslyn refreshed: 4 files$/m);
      assert.match(applied.stdout, /^change Lib\/Calculator\.cs \(2 occurrences\)$/m);
      assert.match(applied.stdout, /^4 files checked, \d+ diagnostics? in \d+ files?$/m);
      assert.match(read('Lib/Calculator.cs'), /public int Sum\(int a, int b\) => a \+ b;\r\n/);
      assert.match(read('App/Program.cs'), /calculator\.Sum\(2, 3\)/);
      assert.deepEqual(
        ['Lib/Calculator.cs', 'App/Program.cs', 'Tests/CalculatorTests.cs'].map((f) => `${f} ${mode(f).toString(8)}`),
        ['Lib/Calculator.cs 600', 'App/Program.cs 755', 'Tests/CalculatorTests.cs 640'],
      );
      if (canChown) {
        const stat = fs.statSync(path.join(workspace, 'Lib/Formatter.cs'));
        assert.deepEqual([stat.uid, stat.gid], [65534, 65534]);
      }
    });
  });
});
