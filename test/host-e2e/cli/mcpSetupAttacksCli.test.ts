// Issue 36's attacks on `sharpclaw mcp setup`, as a person running the real CLI (dist/cli.js) sees
// them, on real files and real links in temporary folders: a project whose .mcp.json, .vscode or
// .cursor is a link to somewhere else (another file, VS Code's user folder, another project) must
// not get a byte written through it; Codex files in forms the merge cannot edit, a multi-line string
// that looks like our table and a --cwd with control characters must never end as invalid TOML; a
// JSON file with two "sharpclaw" entries ends with exactly ours. A refusal exits non-zero and never
// says "added" or "updated". No dotnet needed: setup runs no host.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { visit } from 'jsonc-parser';
import { parseToml } from '../../../src/engine/config/toml';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');
const everyGrant = ['--allow-evaluation', '--allow-write', '--allow-shell'];

describe('sharpclaw mcp setup: links, foreign forms and duplicates (issue 36)', function () {
  this.timeout(60_000);
  let root: string;
  let home: string;
  let project: string;

  beforeEach(() => {
    assert.ok(fs.existsSync(cli), `${cli} is missing: run "npm run build"`);
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sc-setup-attack-')));
    home = path.join(root, 'home');
    project = path.join(root, 'project');
    fs.mkdirSync(home);
    fs.mkdirSync(project);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const setup = (client: string, ...args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, USERPROFILE: home };
    delete env.CODEX_HOME;
    return spawnSync(process.execPath, [cli, 'mcp', 'setup', '--client', client, ...args], { cwd: project, env, encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
  };
  const refused = (result: ReturnType<typeof setup>, pattern: RegExp) => {
    assert.equal(result.status, 2, `exit ${result.status}: ${result.stdout}${result.stderr}`);
    assert.doesNotMatch(result.stdout, /added|updated/);
    assert.match(result.stderr, pattern);
  };
  /** The "sharpclaw" keys of a JSON file's servers object, however many. */
  const sharpclawEntries = (text: string, serversKey: string) => {
    const found: unknown[] = [];
    const stack: string[] = [];
    let depth = 0;
    visit(text, {
      onObjectBegin: () => void depth++,
      onObjectEnd: () => void depth--,
      onObjectProperty: (name) => {
        stack[depth] = name;
        if (depth === 2 && stack[1] === serversKey && name === 'sharpclaw') found.push(name);
      },
    });
    return found.length;
  };

  it('refuses a project .mcp.json that is a link to a file outside the project; the target keeps its bytes', () => {
    const outside = path.join(root, 'elsewhere.json');
    fs.writeFileSync(outside, '{ "mcpServers": {} }\n');
    fs.symlinkSync(outside, path.join(project, '.mcp.json'));
    refused(setup('claude-code', ...everyGrant), /^error invalid_request: .*\.mcp\.json is a link .*nothing was written/m);
    assert.equal(fs.readFileSync(outside, 'utf8'), '{ "mcpServers": {} }\n');
    assert.ok(fs.lstatSync(path.join(project, '.mcp.json')).isSymbolicLink(), 'the link itself stays');
  });

  it("refuses a project .vscode that is a link to VS Code's user folder: no user-level mcp.json appears", () => {
    const userFolder = path.join(home, '.config', 'Code', 'User');
    fs.mkdirSync(userFolder, { recursive: true });
    fs.symlinkSync(userFolder, path.join(project, '.vscode'));
    refused(setup('vscode', ...everyGrant), /^error invalid_request: .*\.vscode is a link .*nothing was written/m);
    assert.deepEqual(fs.readdirSync(userFolder), []);
  });

  it("refuses a project .cursor that is a link into another project: that project's file is untouched", () => {
    const other = path.join(root, 'other', '.cursor');
    fs.mkdirSync(other, { recursive: true });
    fs.writeFileSync(path.join(other, 'mcp.json'), '{}\n');
    fs.symlinkSync(other, path.join(project, '.cursor'));
    refused(setup('cursor', ...everyGrant), /^error invalid_request: .*\.cursor is a link .*nothing was written/m);
    assert.deepEqual(fs.readdirSync(other), ['mcp.json']);
    assert.equal(fs.readFileSync(path.join(other, 'mcp.json'), 'utf8'), '{}\n');
  });

  it('refuses a .mcp.json that is a FIFO at once, without blocking on it', () => {
    execFileSync('mkfifo', [path.join(project, '.mcp.json')]);
    refused(setup('claude-code', '--allow-evaluation'), /^error invalid_request: .*\.mcp\.json is a FIFO, not a regular file/m);
  });

  it('ends a JSON file holding two "sharpclaw" entries with exactly one: ours', () => {
    const file = path.join(project, '.mcp.json');
    fs.writeFileSync(file, '{\n  "mcpServers": {\n    "sharpclaw": { "command": "sharpclaw", "args": ["mcp"] },\n    "other": { "command": "x" },\n    "sharpclaw": { "command": "sharpclaw", "args": ["mcp", "--allow-shell"] }\n  }\n}\n');
    const result = setup('claude-code', '--allow-evaluation');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, `updated the sharpclaw server in ${file}\n`);
    const text = fs.readFileSync(file, 'utf8');
    assert.equal(sharpclawEntries(text, 'mcpServers'), 1, text);
    const servers = (JSON.parse(text) as { mcpServers: Record<string, unknown> }).mcpServers;
    assert.deepEqual(servers.sharpclaw, { type: 'stdio', command: 'sharpclaw', args: ['mcp', '--allow-evaluation'] });
    assert.deepEqual(servers.other, { command: 'x' });
  });

  describe('Codex config.toml', () => {
    const codexFile = () => path.join(home, '.codex', 'config.toml');
    const writeCodex = (text: string) => {
      fs.mkdirSync(path.dirname(codexFile()), { recursive: true });
      fs.writeFileSync(codexFile(), text);
    };

    for (const [form, text] of [
      ['an inline table', 'model = "o3"\nmcp_servers = { sharpclaw = { command = "old" } }\n'],
      ['an inline table inside [mcp_servers]', '[mcp_servers]\nsharpclaw = { command = "old", args = [] }\n'],
      ['dotted keys', 'mcp_servers.sharpclaw.command = "old"\nmcp_servers.sharpclaw.args = []\n'],
      ['dotted keys inside [mcp_servers]', '[mcp_servers]\nsharpclaw.command = "old"\n'],
    ] as const) {
      it(`refuses an entry written as ${form}, leaving the file as it was`, () => {
        writeCodex(text);
        refused(setup('codex', ...everyGrant), /^error invalid_request: mcp_servers\.sharpclaw in .*config\.toml is not written as a \[mcp_servers\.sharpclaw\] table.*nothing was written/m);
        assert.equal(fs.readFileSync(codexFile(), 'utf8'), text);
      });
    }

    it('adds its table after a multi-line string that holds "[mcp_servers.sharpclaw]", keeping the string', () => {
      const notes = '[mcp_servers.sharpclaw]\ncommand = "evil"\n';
      writeCodex(`notes = """\n${notes}"""\n`);
      const result = setup('codex', '--allow-evaluation');
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, `added the sharpclaw server in ${codexFile()}\n`);
      const parsed = parseToml(fs.readFileSync(codexFile(), 'utf8')) as { notes: string; mcp_servers: Record<string, unknown> };
      assert.equal(parsed.notes, notes);
      assert.deepEqual(JSON.parse(JSON.stringify(parsed.mcp_servers)), { sharpclaw: { command: 'sharpclaw', args: ['mcp', '--allow-evaluation'], tool_timeout_sec: 300 } });
    });

    it('writes a --cwd holding control characters as valid TOML that names the folder exactly', () => {
      const workspace = path.join(root, 'odd\u0001name\u007f');
      fs.mkdirSync(workspace);
      writeCodex('model = "o3"\n');
      const result = setup('codex', '--cwd', workspace);
      assert.equal(result.status, 0, result.stderr);
      const parsed = parseToml(fs.readFileSync(codexFile(), 'utf8')) as { model: string; mcp_servers: { sharpclaw: { args: string[] } } };
      assert.equal(parsed.model, 'o3');
      assert.deepEqual(parsed.mcp_servers.sharpclaw.args, ['mcp', '--cwd', workspace]);
    });

    it('refuses a config.toml that is a link, and a .codex folder that is one', () => {
      const dotfiles = path.join(root, 'dotfiles');
      fs.mkdirSync(dotfiles);
      fs.writeFileSync(path.join(dotfiles, 'config.toml'), 'model = "o3"\n');
      fs.mkdirSync(path.join(home, '.codex'));
      fs.symlinkSync(path.join(dotfiles, 'config.toml'), codexFile());
      refused(setup('codex', '--allow-evaluation'), /^error invalid_request: .*config\.toml is a link .*nothing was written/m);
      assert.equal(fs.readFileSync(path.join(dotfiles, 'config.toml'), 'utf8'), 'model = "o3"\n');
      fs.rmSync(path.join(home, '.codex'), { recursive: true });
      fs.symlinkSync(dotfiles, path.join(home, '.codex'));
      refused(setup('codex', '--allow-evaluation'), /^error invalid_request: .*\.codex is a link .*nothing was written/m);
      assert.equal(fs.readFileSync(path.join(dotfiles, 'config.toml'), 'utf8'), 'model = "o3"\n');
    });
  });
});
