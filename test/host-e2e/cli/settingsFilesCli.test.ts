// Issue 36's attacks on the settings files (.sharpclaw/settings.jsonc in the workspace,
// ~/.sharpclaw/settings.jsonc), through the real CLI (`verify`, `tool csharp_diagnostics`) and the
// real MCP server (`verify_workspace`, `diagnostics`, and its start, which reads the user's grants):
// a FIFO must not block (it blocked forever and ignored SIGTERM), a link to /dev/zero must not be
// read (the CLI grew to 6.5 GB), a huge file is refused by size, and an invalid value is
// invalid_request naming the file, the key and the valid range (it was internal_error). Each is
// answered at once: the settings are read before any host starts, so no dotnet is needed.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connect, text } from '../mcp/mcpClient';
import { removeOnceHostsAreGone } from '../support';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');

describe('settings files: special files, size and invalid values (issue 36)', function () {
  this.timeout(120_000);
  let root: string;
  let workspace: string;
  let home: string;
  let stateDir: string;
  const settingsFile = () => path.join(workspace, '.sharpclaw', 'settings.jsonc');

  beforeEach(() => {
    assert.ok(fs.existsSync(cli), `${cli} is missing: run "npm run build"`);
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sc-settings-attack-')));
    workspace = path.join(root, 'ws');
    home = path.join(root, 'home');
    stateDir = path.join(root, 'state');
    fs.mkdirSync(path.join(workspace, '.sharpclaw'), { recursive: true });
    fs.mkdirSync(home);
  });
  afterEach(() => removeOnceHostsAreGone(root)); // the CLI's head-start host ends a moment after a refused call

  // SIGKILL on time-out: a CLI blocked in a read ignores SIGTERM (the defect this file reproduces).
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [cli, ...args], {
      cwd: workspace,
      env: { ...process.env, HOME: home, SHARPCLAW_STATE_DIR: stateDir, SHARPCLAW_RESIDENT_HOST: '0' },
      encoding: 'utf8',
      timeout: 15_000,
      killSignal: 'SIGKILL',
      maxBuffer: 1 << 20,
    });
  const verify = () => run('verify', '--scope', 'build', '--allow-shell', '--cwd', workspace);
  const diagnostics = () => run('tool', 'csharp_diagnostics', '--cwd', workspace, '--input', '{}', '--allow-evaluation');
  const refusedQuickly = (result: ReturnType<typeof run>, pattern: RegExp) => {
    assert.notEqual(result.status, null, `still running after 15 s (signal ${result.signal}): ${result.stderr}`);
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, pattern);
  };

  it('answers a FIFO settings file with invalid_request at once, in verify and in a tool call', () => {
    execFileSync('mkfifo', [settingsFile()]);
    const fifo = /^error invalid_request: .*\.sharpclaw\/settings\.jsonc is a FIFO, not a regular file; SharpClaw reads settings only from a regular file/m;
    refusedQuickly(verify(), fifo);
    refusedQuickly(diagnostics(), fifo);
  });

  it('refuses a settings file that is a link to /dev/zero without reading it, and one larger than 1 MiB', () => {
    fs.symlinkSync('/dev/zero', settingsFile());
    refusedQuickly(verify(), /^error invalid_request: .*settings\.jsonc is a character device, not a regular file/m);
    fs.rmSync(settingsFile());
    fs.writeFileSync(settingsFile(), `{ "verification": {} ${' '.repeat(2 << 20)}}`);
    refusedQuickly(verify(), /^error invalid_request: .*settings\.jsonc is larger than 1 MiB \(2097\d+ bytes\); SharpClaw reads settings files up to 1 MiB\./m);
  });

  it('reports an invalid value as invalid_request naming the file, the key and the valid range', () => {
    fs.writeFileSync(settingsFile(), '{ "verification": { "timeoutSeconds": 0 } }');
    const result = verify();
    refusedQuickly(result, new RegExp(`^error invalid_request: Invalid setting sharpclaw\\.verification\\.timeoutSeconds = 0 in ${settingsFile().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: expected a whole number from 1 to 3600\\.$`, 'm'));
    assert.doesNotMatch(result.stderr, /internal_error/);
  });

  it('the MCP server: a FIFO workspace file fails verify_workspace and diagnostics with invalid_request, and a FIFO user file stops the start with a clear error', async () => {
    execFileSync('mkfifo', [settingsFile()]);
    const server = await connect({ workspace, stateDir, flags: ['--allow-evaluation', '--allow-shell'], env: { HOME: home, SHARPCLAW_RESIDENT_HOST: '0' } });
    try {
      for (const [name, args] of [['verify_workspace', { scope: 'build' }], ['diagnostics', {}]] as const) {
        const answer = await server.client.callTool({ name, arguments: args }, { timeout: 30_000 });
        assert.equal(answer.isError, true, text(answer));
        assert.match(text(answer), /^error invalid_request: .*settings\.jsonc is a FIFO, not a regular file/);
      }
    } finally {
      await server.client.close();
    }
    fs.mkdirSync(path.join(home, '.sharpclaw'));
    execFileSync('mkfifo', [path.join(home, '.sharpclaw', 'settings.jsonc')]);
    const start = run('mcp', '--cwd', workspace);
    refusedQuickly(start, /^error invalid_request: .*\.sharpclaw\/settings\.jsonc is a FIFO, not a regular file/m);
  });
});
