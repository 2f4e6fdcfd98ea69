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

  const run = (tool: string, input: object, cwd = workspace) =>
    spawnSync(process.execPath, [cli, 'tool', tool, '--cwd', cwd, '--input', JSON.stringify(input), '--permission-mode', 'read-only'], {
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

  it('shows the progress of a large first index on stderr, and none for a refresh', () => {
    for (let i = 0; i < 520; i++) {
      const folder = path.join(workspace, 'Generated', `Area${Math.floor(i / 100)}`);
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, `Type${i}.cs`), `namespace Generated;\n\npublic sealed class Type${i}\n{\n    public int Value${i} => ${i};\n}\n`);
    }
    const first = run('csharp_symbol_search', { query: 'Type519' });
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /^Generated\/Area5\/Type519\.cs:3:21 class Type519$/m);
    const lines = first.stderr.trim().split('\n');
    const name = path.basename(workspace);
    assert.match(lines[0], new RegExp(`^Building the syntax index of ${name} 0% \\(5\\d\\d files to parse\\)$`));
    assert.match(lines.find((line) => line.includes('parsed ')) ?? '', new RegExp(`^Building the syntax index of ${name} \\d+% \\(parsed [\\w/]+\\.cs\\)$`));
    assert.match(lines[lines.length - 1], new RegExp(`^Building the syntax index of ${name} 100% \\(stored [\\w/]+\\.cs\\)$`));

    fs.appendFileSync(path.join(workspace, 'Generated', 'Area0', 'Type7.cs'), 'public sealed class Added7 { }\n');
    const again = run('csharp_symbol_search', { query: 'Added7' });
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /class Added7$/m);
    assert.equal(again.stderr, '');
  });

  it('keeps default answers under 8 KB on long lines and long declarations, shows each match, and pages on from where it cut (fixtures/StoreLongAnswers)', () => {
    const longAnswers = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-long-'));
    try {
      fs.cpSync(path.join(repoRoot, 'fixtures', 'StoreLongAnswers'), longAnswers, { recursive: true });
      const runIn = (tool: string, input: object) => run(tool, input, longAnswers);

      // 80 generated lines of 270 characters, each with its key past the 200th.
      const text = runIn('csharp_workspace_search', { query: 'LookupKey' });
      assert.equal(text.status, 0, text.stderr);
      assert.ok(Buffer.byteLength(text.stdout) < 8 * 1024, `${Buffer.byteLength(text.stdout)} bytes`);
      const matches = text.stdout.split('\n').filter((line) => line.startsWith('src/'));
      assert.ok(matches.length >= 10, text.stdout);
      matches.forEach((line, i) => assert.match(line, new RegExp(`^src/Generated/Messages\\.cs:${6 + i}:\\d+ ….*\\(see LookupKey${String(i).padStart(2, '0')} for the key that names it\\)";$`)));
      const cut = /^truncated: (\d+) of 80 matching lines in 1 file shown to stay under 8 KB, next offset: (\d+)\./m.exec(text.stdout);
      assert.ok(cut, text.stdout);
      assert.equal(Number(cut[1]), matches.length);
      const next = runIn('csharp_workspace_search', { query: 'LookupKey', offset: Number(cut[2]) });
      assert.match(next.stdout.split('\n')[1], new RegExp(`^src/Generated/Messages\\.cs:${6 + matches.length}:\\d+ .*LookupKey${String(matches.length).padStart(2, '0')} `));

      // 60 overloads whose names with their parameter types run past 200 characters.
      const symbols = runIn('csharp_symbol_search', { query: 'ConfigurePipelineRegistration' });
      assert.equal(symbols.status, 0, symbols.stderr);
      assert.ok(Buffer.byteLength(symbols.stdout) < 8 * 1024, `${Buffer.byteLength(symbols.stdout)} bytes`);
      const declarations = symbols.stdout.split('\n').filter((line) => line.startsWith('src/'));
      assert.ok(declarations.length >= 10, symbols.stdout);
      assert.match(symbols.stdout, new RegExp(`^truncated: ${declarations.length} of 60 declarations shown to stay under 8 KB, next offset: ${declarations.length}\\.`, 'm'));
    } finally {
      fs.rmSync(longAnswers, { recursive: true, force: true });
    }
  });

  it('rejects a bad regular expression as a typed error', () => {
    const result = run('csharp_workspace_search', { query: '(', regex: true });
    assert.equal(result.status, 2, 'invalid input exits 2');
    assert.match(result.stderr, /^error invalid_request: .*not a valid regular expression/m);
  });
});
