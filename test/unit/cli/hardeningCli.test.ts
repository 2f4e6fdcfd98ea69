// Attacks of issue 12 as a person running `sharpclaw tool` sees them: hostile arguments, invisible
// names, exponential globs, file modes and read-only files. The real CLI and the real host on a
// restored temporary copy of fixtures/EditTools.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');

describe('sharpclaw tool: hostile input (issue 12)', function () {
  this.timeout(300_000);
  let workspace: string;

  before(() => {
    assert.ok(fs.existsSync(cli), `${cli} is missing: run "npm run build"`);
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-harden-'));
    fs.cpSync(path.join(repoRoot, 'fixtures', 'EditTools'), workspace, { recursive: true, filter: (p) => !['bin', 'obj'].includes(path.basename(p)) });
    execFileSync('dotnet', ['restore', 'EditTools.slnx', '-nologo'], { cwd: workspace, stdio: 'ignore' });
  });

  after(() => fs.rmSync(workspace, { recursive: true, force: true }));

  const runRaw = (tool: string, input: string, ...args: string[]) =>
    spawnSync(process.execPath, [cli, 'tool', tool, '--cwd', workspace, '--input', input, '--allow-evaluation', ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 240_000,
    });
  const run = (tool: string, input: object, ...args: string[]) => runRaw(tool, JSON.stringify(input), ...args);
  const mode = (relative: string) => fs.statSync(path.join(workspace, relative)).mode & 0o777;

  it('answers unreadable arguments with invalid_request naming the argument, exit 2 (item 9)', () => {
    const offset = run('csharp_navigate', { action: 'references', symbol: 'Calculator.Add', offset: 2 ** 53 - 1 });
    assert.equal(offset.status, 2, offset.stderr);
    assert.match(offset.stderr, /^error invalid_request: offset: .*2147483647/m);

    const surrogate = runRaw('csharp_rename_symbol', '{"name":"Calculator.Add","newName":"Su\\ud800m"}');
    assert.equal(surrogate.status, 2, surrogate.stderr);
    assert.match(surrogate.stderr, /^error invalid_request: newName: contains a lone UTF-16 surrogate U\+D800 at position 3\.$/m);

    const nul = runRaw('csharp_symbols', '{"file":"Calc\\u0000ulator.cs"}');
    assert.equal(nul.status, 2, nul.stderr);
    assert.match(nul.stderr, /^error invalid_request: file: contains a NUL character at position 5\.$/m);
    assert.doesNotMatch(offset.stderr + surrogate.stderr + nul.stderr, /-32000|System\./);
  });

  it('refuses input nested 10,000 levels deep with invalid_request (item 12)', () => {
    const deep = `{"action":"hover","symbol":"Calculator.Add","context":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const result = runRaw('csharp_navigate', deep);
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /^error invalid_request: context(\.0)+: nested deeper than 32 levels\.$/m);
  });

  it('refuses format and bidi control characters in a new name, naming character and position (item 10)', () => {
    for (const [name, shown] of [
      ['Su\u202Em', /U\+202E RIGHT-TO-LEFT OVERRIDE at position 3/],
      ['Su\u200Bm', /U\+200B ZERO WIDTH SPACE at position 3/],
      ['S\u00ADum', /U\+00AD SOFT HYPHEN at position 2/],
    ] as const) {
      const result = run('csharp_rename_symbol', { name: 'Calculator.Add', newName: name });
      assert.equal(result.status, 1, result.stdout);
      assert.match(result.stderr, /^error invalid_identifier: /m);
      assert.match(result.stderr, shown);
      assert.doesNotMatch(result.stdout, /proposal/);
    }
  });

  it('matches a diagnostics glob of 28 ** segments in linear time, and bounds its length (item 7)', () => {
    const glob = `${'**/'.repeat(28)}Nothing*.cs`;
    const result = run('csharp_diagnostics', { path: glob });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /0 diagnostics/);
    const long = run('csharp_diagnostics', { path: `${'a/'.repeat(600)}*.cs` });
    assert.equal(long.status, 2, long.stderr);
    assert.match(long.stderr, /^error invalid_request: path: .*1024/m);
  });

  it('keeps file modes and owners through an apply, and refuses a read-only file before any write (item 4)', function () {
    if (process.platform === 'win32') this.skip();
    fs.chmodSync(path.join(workspace, 'Lib/Calculator.cs'), 0o600);
    fs.chmodSync(path.join(workspace, 'App/Program.cs'), 0o755);
    const canChown = process.getuid?.() === 0;
    if (canChown) fs.chownSync(path.join(workspace, 'Lib/Formatter.cs'), 65534, 65534);
    fs.chmodSync(path.join(workspace, 'Tests/CalculatorTests.cs'), 0o444);
    const before = fs.readFileSync(path.join(workspace, 'Lib/Calculator.cs'), 'utf8');

    const refused = run('csharp_rename_symbol', { name: 'Calculator.Add', newName: 'Sum', apply: true }, '--allow-write');
    assert.equal(refused.status, 1, refused.stdout);
    assert.match(refused.stderr, /^error read_only_file: 1 file\(s\) of the edit are read-only; nothing was written/m);
    assert.match(refused.stderr, /^ {2}Tests\/CalculatorTests\.cs$/m);
    assert.equal(fs.readFileSync(path.join(workspace, 'Lib/Calculator.cs'), 'utf8'), before);
    assert.deepEqual(fs.readdirSync(path.join(workspace, 'Lib')).filter((f) => f.endsWith('.tmp')), []);

    fs.chmodSync(path.join(workspace, 'Tests/CalculatorTests.cs'), 0o640);
    const applied = run('csharp_rename_symbol', { name: 'Calculator.Add', newName: 'Sum', apply: true }, '--allow-write');
    assert.equal(applied.status, 0, applied.stderr);
    assert.match(fs.readFileSync(path.join(workspace, 'Lib/Calculator.cs'), 'utf8'), /public int Sum\(/);
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
