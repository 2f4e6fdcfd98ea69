// C# 14 extension members through the real CLI and host (fixtures/ExtensionMembers, restored copy): the name
// csharp_symbol_search prints for a member of an extension block is one csharp_navigate accepts, and its
// references and callers are the compiler's. Before, symbol_search printed "TextExtensions..Shout()" and no
// extension member resolved by any name.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');

describe('C# 14 extension members from symbol_search to csharp_navigate', function () {
  this.timeout(240_000);
  let workspace: string;
  let stateDir: string;

  before(() => {
    assert.ok(fs.existsSync(cli), `${cli} is missing: run "npm run build"`);
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-extension-'));
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-extension-state-'));
    fs.cpSync(path.join(repoRoot, 'fixtures', 'ExtensionMembers'), workspace, { recursive: true });
    execFileSync('dotnet', ['restore', 'ExtensionMembers.csproj', '-nologo'], { cwd: workspace, stdio: 'ignore' });
  });

  after(() => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  const tool = (name: string, input: object, ...flags: string[]) =>
    spawnSync(process.execPath, [cli, 'tool', name, '--cwd', workspace, '--input', JSON.stringify(input), ...flags], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 200_000,
      env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir },
    });

  it('the name symbol_search prints resolves in csharp_navigate to the member, its references and callers', () => {
    const search = tool('csharp_symbol_search', { query: 'Shout' });
    assert.equal(search.status, 0, search.stderr);
    const lines = search.stdout.split('\n').filter((line) => line.startsWith('TextExtensions.cs:'));
    assert.deepEqual(lines, [
      'TextExtensions.cs:11:23 method TextExtensions.extension(string).Shout()',
      'TextExtensions.cs:13:23 method TextExtensions.extension(string).Shout(int)',
    ]);
    const name = lines[0].split(' method ')[1];

    const references = tool('csharp_navigate', { action: 'references', symbol: name }, '--allow-evaluation');
    assert.equal(references.status, 0, references.stderr);
    assert.match(references.stdout, /^TextExtensions\.cs 13:80\nUsages\.cs 7:31 13:52\n/);

    const callers = tool('csharp_navigate', { action: 'callers', symbol: 'TextExtensions.Shout()' }, '--allow-evaluation');
    assert.equal(callers.status, 0, callers.stderr);
    assert.match(callers.stdout, /^Usages\.cs:13:26 method Shapes\.Usages\.Again\(\)\n {2}calls 13:52$/m);
  });
});
