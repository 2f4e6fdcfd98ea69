// `sharpclaw tool csharp_symbol_search` / `csharp_workspace_search` end to end: the real CLI and host
// on a copy of fixtures/DesignTimeMarker (whose MSBuild code writes marker files when it runs), in
// read-only mode with no --allow-* flag: both answer from the syntax-only store, ask nothing, run no
// project code, and keep the store in SHARPCLAW_STATE_DIR, never in the workspace.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');

describe('sharpclaw tool csharp_symbol_search / csharp_workspace_search', function () {
  this.timeout(120_000);
  let workspace: string;
  let stateDir: string;

  before(() => {
    assert.ok(fs.existsSync(cli), `${cli} is missing: run "npm run build"`);
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-search-'));
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-search-state-'));
    fs.cpSync(path.join(repoRoot, 'fixtures', 'DesignTimeMarker'), workspace, { recursive: true });
  });

  after(() => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  const run = (tool: string, input: object) =>
    spawnSync(process.execPath, [cli, 'tool', tool, '--cwd', workspace, '--input', JSON.stringify(input), '--permission-mode', 'read-only'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 100_000,
      env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir },
    });
  const markers = () => ['App/marker.txt', 'App/initial-marker.txt'].filter((file) => fs.existsSync(path.join(workspace, file)));

  it('answers in read-only mode, says it is syntax-only, and runs nothing of the project', () => {
    const symbols = run('csharp_symbol_search', { query: 'Greeter', kind: 'class' });
    assert.equal(symbols.status, 0, symbols.stderr);
    assert.match(symbols.stdout, /^syntax-only: /);
    assert.match(symbols.stdout, /^App\/Greeter\.cs:\d+:\d+ class Greeter$/m);

    const text = run('csharp_workspace_search', { query: 'class Greeter' });
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^syntax-only: /);
    assert.match(text.stdout, /^App\/Greeter\.cs:\d+:\d+ public static class Greeter$/m);

    assert.deepEqual(markers(), []);
    assert.doesNotMatch(symbols.stderr + text.stderr, /loading|permission/i);
    const stores = fs.readdirSync(path.join(stateDir, 'workspaces'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('store.db'));
    assert.equal(stores.length, 1);
    assert.deepEqual(fs.readdirSync(workspace, { recursive: true, encoding: 'utf8' }).filter((file) => /\.db/.test(file)), []);
  });

  it('rejects a bad regular expression as a typed error', () => {
    const result = run('csharp_workspace_search', { query: '(', regex: true });
    assert.equal(result.status, 2, 'invalid input exits 2');
    assert.match(result.stderr, /^error invalid_request: .*not a valid regular expression/m);
  });
});
