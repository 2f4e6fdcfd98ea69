// csharp_navigate and csharp_bulk_navigate on large code (fixtures/LongSource: a class of 400
// properties, 38 KB of source, and 60 generated lines of 250 characters that read one of them past
// their 200th character): the real CLI and host on a restored copy. Every answer stays under 8 KB and
// says where to go on — the file and line the left-out source starts at, the next offset of a page
// of references with context, the bulk section to ask for alone.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');

describe('csharp_navigate answers on large code stay under 8 KB', function () {
  this.timeout(240_000);
  let workspace: string;
  let stateDir: string;

  before(() => {
    assert.ok(fs.existsSync(cli), `${cli} is missing: run "npm run build"`);
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-source-'));
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-source-state-'));
    fs.cpSync(path.join(repoRoot, 'fixtures', 'LongSource'), workspace, { recursive: true });
    execFileSync('dotnet', ['restore', 'LongSource.csproj', '-nologo'], { cwd: workspace, stdio: 'ignore' });
  });

  after(() => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  const navigate = (input: object) =>
    spawnSync(process.execPath, [cli, 'tool', 'csharp_navigate', '--cwd', workspace, '--input', JSON.stringify(input), '--allow-evaluation'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 200_000,
      env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir },
    });

  it('cuts the class under 8 KB, naming where the rest starts; a member comes whole', () => {
    const whole = navigate({ action: 'source', symbol: 'LongSource.Settings' });
    assert.equal(whole.status, 0, whole.stderr);
    assert.ok(Buffer.byteLength(whole.stdout) < 8 * 1024, `${Buffer.byteLength(whole.stdout)} bytes`);
    const lines = whole.stdout.split('\n');
    assert.equal(lines[0], 'Settings.cs:3-1205 class LongSource.Settings');
    assert.equal(lines[1], '/// <summary>A settings class as large as real ones get: its source is far past 8 KB.</summary>');
    const cut = /^truncated: (\d+) lines of source left out to stay under 8 KB; read Settings\.cs from line (\d+), or ask members for the outline\.$/m.exec(whole.stdout);
    assert.ok(cut, whole.stdout);
    const from = Number(cut[2]);
    assert.equal(Number(cut[1]), 1205 - from + 1);
    const shown = lines.slice(1, lines.findIndex((line) => line.startsWith('truncated: ')));
    assert.equal(shown.length, from - 3);
    const file = fs.readFileSync(path.join(workspace, 'Settings.cs'), 'utf8').split('\n');
    assert.deepEqual(shown, file.slice(2, from - 1));

    const member = navigate({ action: 'source', symbol: 'LongSource.Settings.Setting399' });
    assert.equal(member.status, 0, member.stderr);
    assert.match(member.stdout, /^Settings\.cs:1203-1204 property LongSource\.Settings\.Setting399\n {4}\/\/\/ <summary>Setting number 399\.<\/summary>\n {4}public int Setting399 \{ get; set; \} = 399;\n/);
    assert.doesNotMatch(member.stdout, /truncated/);
  });

  it('references with context: each long line cut around the reference, the page stopped under 8 KB with its next offset', () => {
    const first = navigate({ action: 'references', symbol: 'LongSource.Settings.Setting001', context: true });
    assert.equal(first.status, 0, first.stderr);
    assert.ok(Buffer.byteLength(first.stdout) < 8 * 1024, `${Buffer.byteLength(first.stdout)} bytes`);
    const lines = first.stdout.split('\n').filter((line) => line.startsWith('Usages.cs:'));
    assert.ok(lines.length >= 10, first.stdout);
    lines.forEach((line, i) => assert.match(line, new RegExp(`^Usages\\.cs:${6 + i}:\\d+ ….*settings\\.Setting001 \\* ${i};$`)));
    // Cut by the text's own budget, or by the whole result's (text and structure: wholeResult.ts).
    const cut = new RegExp(`^truncated: (?:${lines.length} of 60 locations shown to stay under 8 KB \\(each with its source line\\)|60 locations in total), next offset: ${lines.length}\\.`, 'm');
    assert.match(first.stdout, cut);
    const next = navigate({ action: 'references', symbol: 'LongSource.Settings.Setting001', context: true, offset: lines.length });
    assert.match(next.stdout.split('\n')[0], new RegExp(`^Usages\\.cs:${6 + lines.length}:\\d+ `));
  });

  it('impact with context: a section whose lines pass 8 KB is named with the ones the host left out', () => {
    const impact = navigate({ action: 'impact', symbol: 'LongSource.Settings.Setting001', context: true });
    assert.equal(impact.status, 0, impact.stderr);
    assert.ok(Buffer.byteLength(impact.stdout) < 8 * 1024, `${Buffer.byteLength(impact.stdout)} bytes`);
    assert.match(impact.stdout, /^omitted to fit: .*references \(60 lines\).*\. Request those alone\.$/m);
    assert.doesNotMatch(impact.stdout, /^## references$/m);
  });

  it('bulk: a section that does not fit beside the others is named with its size, the others answered', () => {
    const result = spawnSync(process.execPath, [cli, 'tool', 'csharp_bulk_navigate', '--cwd', workspace, '--allow-evaluation', '--input', JSON.stringify({
      queries: [{ action: 'source', symbol: 'LongSource.Settings.Setting001' }, { action: 'source', symbol: 'LongSource.Settings' }, { action: 'hover', symbol: 'LongSource.Settings.Setting399' }],
    })], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 200_000, env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir } });
    assert.equal(result.status, 0, result.stderr);
    assert.ok(Buffer.byteLength(result.stdout) < 8 * 1024, `${Buffer.byteLength(result.stdout)} bytes`);
    assert.match(result.stdout, /^## 1 source LongSource\.Settings\.Setting001\nSettings\.cs:9-10 property LongSource\.Settings\.Setting001\n/);
    assert.match(result.stdout, /\n## 2 source LongSource\.Settings\nomitted to fit under 8 KB \(\d+ lines, \d+ bytes\): ask for this query alone\.\n## 3 hover LongSource\.Settings\.Setting399\n.*Setting399/);
  });
});
