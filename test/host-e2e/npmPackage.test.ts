// The npm package of the CLI and MCP server (`npm run pack:cli`), installed the way a user without
// VS Code installs it: `npm install -g` of the tarball into a fresh prefix, offline (it must have no
// dependencies). Its `sharpclaw` bin then answers a tool call with the Roslyn host inside the package —
// what the recorded host answer of that call renders to, as the repository's CLI prints it
// (cli/cliContract.test.ts) — and serves MCP, on a restored copy of fixtures/EditTools.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { recording, replay } from '../support/hostAnswers';
import { cleanUpCopies, copyFixture, tempStateRoot } from './support';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;

async function npm(args: string[], cwd: string): Promise<string> {
  const { npmCli } = await importEsm<{ npmCli(): string }>(path.join(repoRoot, 'scripts', 'npm-cli.mjs'));
  return execFileSync(process.execPath, [npmCli(), ...args], { cwd, encoding: 'utf8' });
}

describe('the npm package of the CLI (npm run pack:cli, npm install -g)', function () {
  this.timeout(600_000);
  let root: string;
  let bin: string;
  let workspace: string;
  let stateDir: string;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-npm-'));
    // The bundles and the host are built by `npm test` before this layer runs.
    const { packCli } = await importEsm<{ packCli(options: { outDir: string; skipBuild: boolean }): Promise<string> }>(path.join(repoRoot, 'scripts', 'npm-pack.mjs'));
    const tarball = await packCli({ outDir: path.join(root, 'pack'), skipBuild: true });
    const prefix = path.join(root, 'prefix');
    await npm(['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball], root);
    bin = path.join(prefix, 'bin', 'sharpclaw');
    workspace = copyFixture('EditTools', 'EditTools.slnx');
    stateDir = tempStateRoot();
  });

  after(async () => {
    await cleanUpCopies();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('has no dependencies, and carries the bundled CLI, the Roslyn host for every OS and the agent skill', () => {
    const installed = path.join(path.dirname(bin), '..', 'lib', 'node_modules', 'sharpclaw');
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.dependencies, undefined);
    assert.deepEqual(manifest.bin, { sharpclaw: 'dist/cli.js' });
    assert.ok(!fs.existsSync(path.join(installed, 'node_modules')), 'nothing was installed beside it');
    for (const file of ['dist/cli.js', 'dist/server/SharpClaw.Server.dll', 'dist/server/BuildHost-netcore', 'dist/server/BuildHost-net472', 'skills/sharpclaw/SKILL.md', 'README.md', 'LICENSE']) {
      assert.ok(fs.existsSync(path.join(installed, file)), `${file} is in the package`);
    }
    assert.ok(!fs.readdirSync(path.join(installed, 'dist', 'server')).some((file) => file.endsWith('.pdb')), 'no debug symbols');
  });

  it('its sharpclaw bin prints its version and answers a tool call as the repository CLI does (what the recorded answer renders to)', async () => {
    const version = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    assert.equal(version.status, 0, version.stderr);
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    assert.equal(version.stdout, `sharpclaw ${manifest.version}\n`);

    const answer = recording('EditTools/references-add');
    const installed = spawnSync(bin, ['tool', answer.tool, '--cwd', workspace, '--allow-evaluation', '--input', JSON.stringify(answer.input)], { encoding: 'utf8', env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir } });
    assert.equal(installed.status, 0, installed.stderr);
    assert.equal(installed.stdout, (await replay(answer, workspace)).stdout);
  });

  it('its sharpclaw bin serves MCP over stdio: the tool list, with nothing loaded', async () => {
    const transport = new StdioClientTransport({ command: bin, args: ['mcp', '--cwd', workspace], env: { ...(process.env as Record<string, string>), SHARPCLAW_STATE_DIR: stateDir }, stderr: 'pipe' });
    const client = new Client({ name: 'sharpclaw-npm-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name), ['diagnostics', 'navigate', 'bulk_navigate', 'symbols', 'edit', 'lsp', 'dotnet_solution_inspect', 'verify_workspace']);
      assert.equal(client.getServerVersion()?.version, (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version);
    } finally {
      await client.close();
    }
  });
});
