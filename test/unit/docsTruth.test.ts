// What the READMEs state about the code, checked against the code (issue 40 item 7: the READMEs had
// said "six layers" beside seven, four `--tools all` extras where there were six, a .NET 8 SDK where the
// host needs the .NET 10 runtime, and named a Refactor Preview box VS Code 1.139 does not show).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mcpTools } from '../../src/surfaces/mcp/mcpTools';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const read = (file: string): string => fs.readFileSync(path.join(repoRoot, file), 'utf8');
const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

describe('the READMEs say what the code does', () => {
  it('every command a person can run is documented by its title', () => {
    const manifest = JSON.parse(read('package.json')) as { contributes: { commands: { command: string; title: string }[] } };
    const docs = read('docs/using.md') + read('docs/user-readme.md');
    const missing = manifest.contributes.commands.filter((c) => !docs.includes(c.title)).map((c) => `${c.command} ("${c.title}")`);
    assert.deepEqual(missing, [], 'commands docs/using.md and docs/user-readme.md do not name');
  });

  it('docs/testing.md counts the layers npm test runs, and the README table lists each', () => {
    const options = /\/\/ Options: --only (\S+)/.exec(read('scripts/test.mjs'))?.[1];
    assert.ok(options, 'scripts/test.mjs names its layers in its Options line');
    const layers = options.split(',');
    const stated = /runs (\w+) layers/.exec(read('docs/testing.md'))?.[1];
    assert.equal(stated, words[layers.length], `docs/testing.md says "${stated} layers"; npm test runs ${layers.join(', ')}`);
    const readme = read('README.md');
    for (const layer of layers) assert.match(readme, new RegExp(`^\\| \`${layer}\` \\|`, 'm'), `the README's test table has a row for ${layer}`);
  });

  it("`--tools all`'s line names exactly the tools it adds, and counts the whole list", () => {
    const line = read('docs/cli-and-mcp.md').split('\n').find((l) => l.startsWith('| `--tools all` |'));
    assert.ok(line, 'docs/cli-and-mcp.md has a `--tools all` row');
    const named = [...line.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).filter((name) => name !== 'all');
    assert.deepEqual(named.sort(), mcpTools.filter((t) => t.set === 'all').map((t) => t.name).sort());
    assert.match(line, new RegExp(`\\(${mcpTools.length} tools\\)`));
  });

  it('the npm package README and the user README ask for the .NET 10 runtime the host runs on', () => {
    assert.match(read('server/Directory.Build.props'), /<HostTargetFramework>net10\.0<\/HostTargetFramework>/, 'the host targets net10.0');
    assert.match(read('scripts/npm-pack.mjs'), /\.NET 10\s+runtime/);
    assert.match(read('docs/user-readme.md'), /\.NET 10 runtime/);
    assert.match(read('docs/cli-and-mcp.md'), /\.NET 10 runtime/);
  });

  it('the rename hints name only what the Refactor Preview shows on every supported VS Code', () => {
    for (const file of ['docs/user-readme.md', 'src/surfaces/vscode/edits/renameSymbolCommand.ts']) {
      assert.doesNotMatch(read(file), /own box/, `${file} names a box VS Code 1.139 does not show`);
    }
  });
});
