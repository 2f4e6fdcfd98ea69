// What a user sees on a multi-targeted library (fixtures/MultiTargetHierarchy: netstandard2.0;netstandard2.1,
// consumed by net10.0 projects and a netstandard2.0 one), through the real CLI and host: the project line
// names the flavours once (searched both, or the default and why), and callers reached through an interface
// or base member say so.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');

describe('sharpclaw on a multi-targeted library', function () {
  this.timeout(240_000);
  let workspace: string;
  let state: string;

  before(() => {
    assert.ok(fs.existsSync(cli), `${cli} is missing: run "npm run build"`);
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-multitarget-'));
    state = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-multitarget-state-'));
    fs.cpSync(path.join(repoRoot, 'fixtures', 'MultiTargetHierarchy'), workspace, { recursive: true, filter: (p) => !['bin', 'obj'].includes(path.basename(p)) });
    execFileSync('dotnet', ['restore', 'MultiTargetHierarchy.slnx', '-nologo'], { cwd: workspace, stdio: 'ignore' });
  });

  after(() => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  });

  it('names the flavours on the project line and marks callers through an interface or base member', () => {
    const queries = [
      { action: 'definition', symbol: 'IShape' },
      { action: 'subtypes', symbol: 'IShape' },
      { action: 'callers', symbol: 'Circle.Area' },
    ];
    const result = spawnSync(process.execPath, [cli, 'tool', 'csharp_bulk_navigate', '--cwd', workspace, '--allow-evaluation', '--input', JSON.stringify({ queries })], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 200_000,
      env: { ...process.env, SHARPCLAW_STATE_DIR: state },
    });
    assert.equal(result.status, 0, result.stderr);
    const sections = result.stdout.split(/^## /m).filter(Boolean);
    assert.equal(sections.length, 3, result.stdout);
    // One-compilation answer: the default flavour is the one 3 of the 4 dependent projects compile against.
    assert.match(sections[0], /^project: Lib\/Lib\.csproj \(netstandard2\.1: 3 of 4 dependent projects compile against it; not searched: netstandard2\.0\)$/m);
    // Searched and merged: said once, compactly.
    assert.match(sections[1], /^project: Lib\/Lib\.csproj \(netstandard2\.0, netstandard2\.1; searched both\)$/m);
    assert.match(sections[1], /class Legacy\.Hexagon/);
    assert.match(sections[1], /class Shapes\.Square/);
    assert.equal(sections[1].match(/^project: /gm)?.length, 1);
    assert.match(sections[2], /^Transitive\/Report\.cs:8:26 method Transitive\.Report\.Total\(Lib\.IShape\) via Lib\.IShape\.Area\(\)$/m);
    assert.match(sections[2], /^Transitive\/Report\.cs:10:26 method Transitive\.Report\.Base\(Lib\.ShapeBase\) via Lib\.ShapeBase\.Area\(\)$/m);
  });
});
