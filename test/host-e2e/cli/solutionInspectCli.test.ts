// `sharpclaw tool dotnet_solution_inspect` end to end: the real CLI, the real host, a real
// restored copy of fixtures/Calculator, and permissions only from the flags.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');

describe('sharpclaw tool dotnet_solution_inspect', function () {
  this.timeout(240_000);
  let workspace: string;

  before(() => {
    assert.ok(fs.existsSync(cli), `${cli} is missing: run "npm run build"`);
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-inspect-'));
    fs.cpSync(path.join(repoRoot, 'fixtures', 'Calculator'), workspace, { recursive: true, filter: (p) => !['bin', 'obj'].includes(path.basename(p)) });
    execFileSync('dotnet', ['restore', 'Calculator.slnx', '-nologo'], { cwd: workspace, stdio: 'ignore' });
  });

  after(() => fs.rmSync(workspace, { recursive: true, force: true }));

  const run = (...args: string[]) => spawnSync(process.execPath, [cli, 'tool', 'dotnet_solution_inspect', '--cwd', workspace, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 200_000 });

  it('refuses to evaluate without --allow-evaluation when nobody can be asked', () => {
    const result = run('--input', '{}');
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /^error permission_denied: .*Pass --allow-evaluation to allow it\./m);
  });

  it('refuses in read-only mode even with --allow-evaluation', () => {
    const result = run('--input', '{}', '--permission-mode', 'read-only', '--allow-evaluation', '--output-format', 'json');
    assert.equal(result.status, 1);
    const envelope = JSON.parse(result.stdout);
    assert.equal(envelope.ok, false);
    assert.equal(envelope.error.code, 'permission_denied');
    assert.match(envelope.error.message, /read-only/);
  });

  it('loads with --allow-evaluation and returns the structure in the JSON envelope', () => {
    const result = run('--input', '{"configuration":"Debug"}', '--allow-evaluation', '--output-format', 'json');
    assert.equal(result.status, 0, result.stderr);
    const envelope = JSON.parse(result.stdout);
    assert.equal(envelope.ok, true);
    assert.equal(envelope.data.target, 'Calculator.slnx');
    assert.deepEqual(envelope.data.projects.map((p: { path: string }) => p.path).sort(), [
      'src/Calculator.App/Calculator.App.csproj',
      'src/Calculator.Core/Calculator.Core.csproj',
      'tests/Calculator.Tests/Calculator.Tests.csproj',
    ]);
    const tests = envelope.data.projects.find((p: { path: string }) => p.path.startsWith('tests/'));
    assert.equal(tests.isTestProject, true);
    assert.equal(tests.testProjectReason, 'IsTestProject');
    assert.match(envelope.text, /^target: Calculator\.slnx \(Debug\), 3 projects, load complete$/m);
    assert.match(result.stderr, /Loading Calculator\.slnx( \d+%)? \((evaluating|project \d of 3)/, 'progress goes to stderr');
  });

  it('names an ambiguous or missing target and rejects unknown arguments', () => {
    const missing = run('--input', '{"target":"Nope.slnx"}', '--allow-evaluation');
    assert.equal(missing.status, 2, 'a target that does not exist is a usage error');
    assert.match(missing.stderr, /^error invalid_request: The target 'Nope\.slnx' does not exist\./m);
    const unknown = run('--input', '{"project":"x"}');
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^error invalid_request: unknown argument "project"\. Valid arguments: target, configuration, targetFramework, offset\./m);
  });
});
