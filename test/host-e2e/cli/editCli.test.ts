// `sharpclaw tool csharp_rename_symbol` / `csharp_edit` end to end: the real CLI, the real host, a
// restored temporary copy of fixtures/EditTools; writing only with --allow-write.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');

describe('sharpclaw tool csharp_rename_symbol / csharp_edit', function () {
  this.timeout(300_000);
  let workspace: string;

  before(() => {
    assert.ok(fs.existsSync(cli), `${cli} is missing: run "npm run build"`);
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-edit-'));
    fs.cpSync(path.join(repoRoot, 'fixtures', 'EditTools'), workspace, { recursive: true, filter: (p) => !['bin', 'obj'].includes(path.basename(p)) });
    execFileSync('dotnet', ['restore', 'EditTools.slnx', '-nologo'], { cwd: workspace, stdio: 'ignore' });
  });

  after(() => fs.rmSync(workspace, { recursive: true, force: true }));

  const run = (tool: string, input: object, ...args: string[]) =>
    spawnSync(process.execPath, [cli, 'tool', tool, '--cwd', workspace, '--input', JSON.stringify(input), '--allow-evaluation', ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 240_000,
    });
  const read = (relative: string) => fs.readFileSync(path.join(workspace, relative), 'utf8');

  it('previews a rename without writing anything', () => {
    const result = run('csharp_rename_symbol', { name: 'Calculator.Add', newName: 'Sum' });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^proposal [0-9a-f]{6}: 4 files, not applied$/m);
    assert.match(result.stdout, /^\+ {5}public int Sum\(int a, int b\) => a \+ b;$/m);
    assert.match(read('Lib/Calculator.cs'), /public int Add\(/);
  });

  it('denies the write without --allow-write, with a clear message, and leaves the files alone', () => {
    const result = run('csharp_rename_symbol', { name: 'Calculator.Add', newName: 'Sum', apply: true });
    assert.equal(result.status, 1, result.stdout);
    assert.match(result.stderr, /^error permission_denied: .*Pass --allow-write to allow it\./m);
    assert.match(read('Lib/Calculator.cs'), /public int Add\(/);
  });

  it('applies with --allow-write and prints the receipt with the diagnostics of the changed files', () => {
    const result = run('csharp_rename_symbol', { name: 'Calculator.Add', newName: 'Sum', apply: true }, '--allow-write');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^writes finished, Roslyn refreshed: 4 files$/m);
    assert.match(result.stdout, /^change Lib\/Calculator\.cs \(2 occurrences\)$/m);
    assert.match(result.stdout, /^4 files checked, \d+ diagnostics? in \d+ files?$/m);
    assert.match(read('Lib/Calculator.cs'), /public int Sum\(int a, int b\) => a \+ b;\r\n/);
    assert.match(read('App/Program.cs'), /calculator\.Sum\(2, 3\)/);
  });

  it('reports typed edit errors: invalid identifiers and generated files', () => {
    const invalid = run('csharp_edit', { action: 'rename', name: 'Formatter.Describe', newName: 'class', apply: true }, '--allow-write');
    assert.equal(invalid.status, 1);
    assert.match(invalid.stderr, /^error invalid_identifier: 'class' is a C# keyword; write '@class'/m);
    const generated = run('csharp_edit', { action: 'rename', name: 'Settings.Scale', newName: 'Factor' });
    assert.equal(generated.status, 1);
    assert.match(generated.stderr, /^error generated_document: .*Lib\/Settings\.Designer\.cs/m);
  });
});
