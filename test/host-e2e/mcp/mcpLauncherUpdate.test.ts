// Issue 40 item 3: the MCP setup VS Code writes survives a SharpClaw update. Simulated on real
// folders, with the real bundle and a real node start: version 0.9.0 "installed" as an extension
// folder (a copy of dist/cli.js and dist/core.js whose cli.js first notes which version started),
// the launcher written for it (commands/mcpLauncher.ts, as Set Up MCP for Another Agent… writes
// it) and a project .mcp.json naming it (the engine's setup path); then 0.10.0 installed beside it
// and 0.9.0 removed, as VS Code's update does. The server the unchanged .mcp.json names must start
// from 0.10.0 (numerically newest, not 0.9.0) and answer an MCP client; and when the recorded
// runtime is gone, node from PATH runs it. (Not the packaged .vsix installed twice into VS Code:
// the package layer installs one version; this keeps the test at a few seconds.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { setupPlan } from '../../../src/engine/config/mcpSetup';
import { prepareSetup, writeSetup } from '../../../src/engine/config/mcpSetupWrite';
import { writeMcpLauncher } from '../../../src/surfaces/vscode/commands/mcpLauncher';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');

describe('Set Up MCP survives a SharpClaw update (issue 40)', function () {
  this.timeout(120_000);
  let root: string;
  let extensions: string;
  let project: string;
  let marker: string;

  /** An installed extension folder: the real bundle, its cli.js noting its version first. */
  const install = (version: string) => {
    const dist = path.join(extensions, `sharpclaw.sharpclaw-${version}`, 'dist');
    fs.mkdirSync(dist, { recursive: true });
    fs.copyFileSync(path.join(repoRoot, 'dist', 'core.js'), path.join(dist, 'core.js'));
    fs.writeFileSync(path.join(dist, 'cli.js'), `require('fs').writeFileSync(${JSON.stringify(marker)}, ${JSON.stringify(version)});\n${fs.readFileSync(path.join(repoRoot, 'dist', 'cli.js'), 'utf8').replace(/^#!.*\n/, '')}`);
    return path.dirname(dist);
  };

  /** Starts the server exactly as .mcp.json says and lists its tools; returns the version that ran. */
  const startAsConfigured = async (env: Record<string, string>) => {
    const config = JSON.parse(fs.readFileSync(path.join(project, '.mcp.json'), 'utf8')) as { mcpServers: { sharpclaw: { command: string; args: string[] } } };
    const { command, args } = config.mcpServers.sharpclaw;
    fs.rmSync(marker, { force: true });
    const transport = new StdioClientTransport({ command, args, cwd: project, env: { ...env, SHARPCLAW_STATE_DIR: path.join(root, 'state'), HOME: root }, stderr: 'pipe' });
    const client = new Client({ name: 'as-configured', version: '1' });
    await client.connect(transport);
    try {
      const tools = await client.listTools();
      assert.ok(tools.tools.some((tool) => tool.name === 'navigate'), JSON.stringify(tools.tools.map((tool) => tool.name)));
    } finally {
      await client.close();
    }
    return fs.readFileSync(marker, 'utf8');
  };

  before(() => {
    assert.ok(fs.existsSync(path.join(repoRoot, 'dist', 'core.js')), 'dist/core.js is missing: run "npm run build"');
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sc-launcher-')));
    extensions = path.join(root, 'extensions');
    project = path.join(root, 'project');
    marker = path.join(root, 'started-version');
    fs.mkdirSync(project);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('the .mcp.json written for 0.9.0 starts 0.10.0 after the update, with no change to the file', async () => {
    const old = install('0.9.0');
    const launcher = { storageFolder: path.join(root, 'globalStorage', 'sharpclaw.sharpclaw'), extensionPath: old, extensionId: 'sharpclaw.sharpclaw', runtime: process.execPath };
    const command = writeMcpLauncher(launcher);
    assert.equal(command, path.join(launcher.storageFolder, 'bin', 'sharpclaw'));
    writeSetup(prepareSetup(setupPlan('claude-code', { allowEvaluation: true, allowWrite: false, allowShell: false, tools: 'default', launcher: { command, args: [] } }, { project })));
    const written = fs.readFileSync(path.join(project, '.mcp.json'), 'utf8');
    assert.deepEqual(JSON.parse(written), { mcpServers: { sharpclaw: { type: 'stdio', command, args: ['mcp', '--allow-evaluation'] } } });
    assert.doesNotMatch(written, /0\.9\.0|dist\/cli\.js/, 'nothing version-specific in the project file');
    const env = { PATH: process.env.PATH ?? '' };
    assert.equal(await startAsConfigured(env), '0.9.0');

    // The update: the new version's folder appears beside the old one, then the old one goes.
    install('0.10.0');
    assert.equal(await startAsConfigured(env), '0.10.0', 'the newest version by number, not by name');
    fs.rmSync(old, { recursive: true });
    assert.equal(await startAsConfigured(env), '0.10.0');
    assert.equal(fs.readFileSync(path.join(project, '.mcp.json'), 'utf8'), written);
  });

  it("when the runtime it recorded is gone (VS Code moved), node from PATH runs it; an obsolete folder is skipped", async () => {
    const storageFolder = path.join(root, 'globalStorage2');
    writeMcpLauncher({ storageFolder, extensionPath: path.join(extensions, 'sharpclaw.sharpclaw-0.10.0'), extensionId: 'sharpclaw.sharpclaw', runtime: path.join(root, 'gone', 'code') });
    writeSetup(prepareSetup(setupPlan('claude-code', { allowEvaluation: false, allowWrite: false, allowShell: false, tools: 'default', launcher: { command: path.join(storageFolder, 'bin', 'sharpclaw'), args: [] } }, { project })));
    install('0.11.0');
    fs.writeFileSync(path.join(extensions, '.obsolete'), JSON.stringify({ 'sharpclaw.sharpclaw-0.11.0': true }));
    assert.equal(await startAsConfigured({ PATH: `${path.dirname(process.execPath)}${path.delimiter}/usr/bin${path.delimiter}/bin` }), '0.10.0');
  });
});
