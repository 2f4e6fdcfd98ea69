// `sharpclaw mcp setup`'s merges (src/engine/config/mcpSetup.ts, mcpSetupMerge.ts): each client's
// file and shape, the flags the person picked and nothing else, comments and other servers kept
// (JSON with comments, Codex's TOML), a second run replacing our entry instead of adding one, a
// broken file refused; and issue 36's forms: duplicate entries, TOML entries the merge cannot edit,
// look-alike headers in strings, values only a real TOML writer escapes right.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import { ToolError } from '../../src/engine/errors';
import { serverArguments, setupPlan } from '../../src/engine/config/mcpSetup';
import { parseToml } from '../../src/engine/config/toml';

const places = { project: '/work/proj', home: '/home/me', env: {} };
const none = { allowEvaluation: false, allowWrite: false, allowShell: false, tools: 'default' as const };

describe('sharpclaw mcp setup', () => {
  it('puts only the picked flags on the server command line, in a fixed order', () => {
    assert.deepEqual(serverArguments(none), ['mcp']);
    assert.deepEqual(serverArguments({ allowEvaluation: true, allowWrite: true, allowShell: true, tools: 'all' }), ['mcp', '--allow-evaluation', '--allow-write', '--allow-shell', '--tools', 'all']);
  });

  it('knows where each client reads its servers', () => {
    assert.equal(setupPlan('claude-code', none, places).file, path.join('/work/proj', '.mcp.json'));
    assert.equal(setupPlan('cursor', none, places).file, path.join('/work/proj', '.cursor', 'mcp.json'));
    assert.equal(setupPlan('vscode', none, places).file, path.join('/work/proj', '.vscode', 'mcp.json'));
    assert.equal(setupPlan('copilot-cli', none, places).file, path.join('/home/me', '.copilot', 'mcp-config.json'));
    assert.equal(setupPlan('codex', none, places).file, path.join('/home/me', '.codex', 'config.toml'));
    assert.equal(setupPlan('codex', none, { ...places, env: { CODEX_HOME: '/etc/codex-me' } }).file, path.join('/etc/codex-me', 'config.toml'));
  });

  it('merges into JSON with comments: comments and other servers stay, a second run replaces our entry', () => {
    const existing = '{\n  // my servers\n  "mcpServers": {\n    "other": { "command": "other-mcp" }, // keep me\n  },\n  "theme": "dark"\n}\n';
    const plan = setupPlan('claude-code', { ...none, allowEvaluation: true }, places);
    const first = plan.merge(existing);
    assert.equal(first.replaced, false);
    assert.match(first.text, /\/\/ my servers/);
    assert.match(first.text, /\/\/ keep me/);
    const parsed = parse(first.text) as { mcpServers: Record<string, unknown>; theme: string };
    assert.deepEqual(parsed.mcpServers.other, { command: 'other-mcp' });
    assert.deepEqual(parsed.mcpServers.sharpclaw, { type: 'stdio', command: 'sharpclaw', args: ['mcp', '--allow-evaluation'] });
    assert.equal(parsed.theme, 'dark');

    const again = setupPlan('claude-code', { ...none, allowWrite: true }, places).merge(first.text);
    assert.equal(again.replaced, true);
    const reparsed = parse(again.text) as { mcpServers: Record<string, { args: string[] }> };
    assert.deepEqual(Object.keys(reparsed.mcpServers), ['other', 'sharpclaw']);
    assert.deepEqual(reparsed.mcpServers.sharpclaw!.args, ['mcp', '--allow-write']);
  });

  it('writes each client\'s shape (VS Code: servers with the opened folder; Copilot CLI: a local server)', () => {
    const vscode = parse(setupPlan('vscode', none, places).merge(undefined).text) as { servers: Record<string, unknown> };
    assert.deepEqual(vscode.servers.sharpclaw, { type: 'stdio', command: 'sharpclaw', args: ['mcp', '--cwd', '${workspaceFolder}'] });
    const copilot = parse(setupPlan('copilot-cli', none, places).merge('').text) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(copilot.mcpServers.sharpclaw, { type: 'local', command: 'sharpclaw', args: ['mcp'], tools: ['*'] });
    assert.equal(setupPlan('cursor', none, places).snippet, '{\n  "mcpServers": {\n    "sharpclaw": {\n      "command": "sharpclaw",\n      "args": [\n        "mcp",\n        "--cwd",\n        "${workspaceFolder}"\n      ]\n    }\n  }\n}\n');
    // A per-user client gets --cwd only when the person named the workspace; project files never do.
    const fixed = parse(setupPlan('copilot-cli', { ...none, workspace: '/work/proj' }, places).merge(undefined).text) as { mcpServers: Record<string, { args: string[] }> };
    assert.deepEqual(fixed.mcpServers.sharpclaw!.args, ['mcp', '--cwd', path.resolve('/work/proj')]);
    const project = parse(setupPlan('claude-code', { ...none, workspace: '/work/proj' }, places).merge(undefined).text) as { mcpServers: Record<string, { args: string[] }> };
    assert.deepEqual(project.mcpServers.sharpclaw!.args, ['mcp']);
  });

  it('refuses a file that is not JSON with comments, or whose servers are not an object', () => {
    const plan = setupPlan('cursor', none, places);
    assert.throws(() => plan.merge('{ "mcpServers": '), (error: unknown) => error instanceof ToolError && error.code === 'invalid_request' && /not valid JSON with comments/.test(error.message));
    assert.throws(() => plan.merge('{ "mcpServers": [] }'), (error: unknown) => error instanceof ToolError && /"mcpServers" .* is not an object/.test(error.message));
    assert.throws(() => plan.merge('[]'), (error: unknown) => error instanceof ToolError && /does not hold a JSON object/.test(error.message));
  });

  it('merges into Codex\'s TOML: appends our table, then replaces it (and its sub-tables) in place', () => {
    const plan = setupPlan('codex', { ...none, allowEvaluation: true }, places);
    const existing = 'model = "o3" # mine\n\n[mcp_servers.other]\ncommand = "other-mcp"\n';
    const first = plan.merge(existing);
    assert.equal(first.replaced, false);
    assert.equal(first.text, `${existing}\n[mcp_servers.sharpclaw]\ncommand = "sharpclaw"\nargs = [ "mcp", "--allow-evaluation" ]\ntool_timeout_sec = 300\n`);

    const edited = `${first.text.replace('tool_timeout_sec = 300\n', 'tool_timeout_sec = 900\n[mcp_servers.sharpclaw.env]\nX = "1"\n')}\n[profiles.fast]\nmodel = "o4-mini"\n`;
    const again = setupPlan('codex', { ...none, allowShell: true }, places).merge(edited);
    assert.equal(again.replaced, true);
    assert.equal(
      again.text,
      'model = "o3" # mine\n\n[mcp_servers.other]\ncommand = "other-mcp"\n\n[mcp_servers.sharpclaw]\ncommand = "sharpclaw"\nargs = [ "mcp", "--allow-shell" ]\ntool_timeout_sec = 300\n\n[profiles.fast]\nmodel = "o4-mini"\n',
    );
    assert.equal(setupPlan('codex', none, places).merge(undefined).text, '[mcp_servers.sharpclaw]\ncommand = "sharpclaw"\nargs = [ "mcp" ]\ntool_timeout_sec = 300\n');
  });

  describe('issue 36: every merge is read back and must be the old document with exactly our entry', () => {
    const codex = setupPlan('codex', { ...none, allowEvaluation: true }, places);
    const ours = { command: 'sharpclaw', args: ['mcp', '--allow-evaluation'], tool_timeout_sec: 300 };
    const plainToml = (text: string) => JSON.parse(JSON.stringify(parseToml(text, { integersAsBigInt: 'asNeeded' }), (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value))) as Record<string, unknown>;
    const refusedWith = (pattern: RegExp) => (error: unknown) => error instanceof ToolError && error.code === 'invalid_request' && pattern.test(error.message);

    it('JSON: two "sharpclaw" entries become one, ours; two server objects are refused naming their lines', () => {
      const merged = setupPlan('cursor', none, places).merge('{ "mcpServers": { "sharpclaw": { "command": "a" }, "sharpclaw": { "command": "b", "args": ["mcp", "--allow-shell"] } } }');
      assert.equal(merged.replaced, true);
      assert.equal(merged.text.match(/"sharpclaw"\s*:/g)?.length, 1, merged.text);
      assert.deepEqual((parse(merged.text) as { mcpServers: Record<string, unknown> }).mcpServers, { sharpclaw: { command: 'sharpclaw', args: ['mcp', '--cwd', '${workspaceFolder}'] } });
      assert.throws(() => setupPlan('cursor', none, places).merge('{\n"mcpServers": {},\n"mcpServers": { "x": {} }\n}'), refusedWith(/"mcpServers" appears 2 times in .*mcp\.json \(lines 2, 3\)/));
    });

    it('JSON: our entry is indented like the file (tabs in a real .vscode/mcp.json, 4 spaces, CRLF)', () => {
      const tabs = setupPlan('vscode', none, places).merge('{\n\t"servers": {\n\t\t"other": { "command": "x" }\n\t}\n}\n').text;
      assert.match(tabs, /\n\t\t"sharpclaw": \{\n\t\t\t"type": "stdio",/);
      const four = setupPlan('vscode', none, places).merge('{\r\n    "servers": {}\r\n}\r\n').text;
      assert.match(four, /\r\n        "sharpclaw": \{\r\n            "type": "stdio",/);
    });

    it('TOML: inline-table and dotted-key entries are refused; an inline mcp_servers cannot take a table and is refused too', () => {
      for (const text of ['mcp_servers = { sharpclaw = { command = "old" } }\n', '[mcp_servers]\nsharpclaw = { command = "old" }\n', 'mcp_servers.sharpclaw.command = "old"\n', '[mcp_servers]\nsharpclaw.args = []\n']) {
        assert.throws(() => codex.merge(text), refusedWith(/^mcp_servers\.sharpclaw in .*config\.toml is not written as a \[mcp_servers\.sharpclaw\] table/), text);
      }
      assert.throws(() => codex.merge('mcp_servers = { other = { command = "x" } }\n'), refusedWith(/could not add a \[mcp_servers\.sharpclaw\] table to .*without changing something else/));
    });

    it('TOML: a look-alike header inside a multi-line string is left alone, before the real table and without one', () => {
      const notes = 'notes = \'\'\'\n[mcp_servers.sharpclaw]\ncommand = "evil"\n\'\'\'\n';
      const added = codex.merge(notes);
      assert.equal(added.replaced, false);
      assert.deepEqual(plainToml(added.text), { notes: '[mcp_servers.sharpclaw]\ncommand = "evil"\n', mcp_servers: { sharpclaw: ours } });
      const replaced = codex.merge(`${notes}\n[mcp_servers.sharpclaw]\ncommand = "old"\n`);
      assert.equal(replaced.replaced, true);
      assert.deepEqual(plainToml(replaced.text), { notes: '[mcp_servers.sharpclaw]\ncommand = "evil"\n', mcp_servers: { sharpclaw: ours } });
    });

    it('TOML: a sub-table of ours elsewhere in the file goes with it; other values (64-bit integers, dates) stay exactly', () => {
      const text = 'big = 9223372036854775807\nwhen = 1979-05-27T07:32:00Z\n[mcp_servers.sharpclaw]\ncommand = "old"\n[profiles.x]\nmodel = "m"\n[mcp_servers.sharpclaw.env]\nX = "1"\n';
      const merged = codex.merge(text);
      assert.equal(merged.replaced, true);
      assert.match(merged.text, /^big = 9223372036854775807\nwhen = 1979-05-27T07:32:00Z\n/);
      assert.deepEqual(plainToml(merged.text), { big: '9223372036854775807n', when: '1979-05-27T07:32:00.000Z', mcp_servers: { sharpclaw: ours }, profiles: { x: { model: 'm' } } });
    });

    it('TOML: invalid files are refused naming the line; values with control characters are escaped', () => {
      assert.throws(() => codex.merge('model = "o3"\nbroken = = 1\n'), refusedWith(/config\.toml is not valid TOML \(invalid value at line 2\); fix it or use --print, nothing was written\./));
      const odd = setupPlan('codex', { ...none, workspace: '/w/a\u0001b\u007fc"d\\' }, places).merge('');
      assert.deepEqual((plainToml(odd.text).mcp_servers as { sharpclaw: { args: string[] } }).sharpclaw.args, ['mcp', '--cwd', path.resolve('/w/a\u0001b\u007fc"d\\')]);
    });
  });
});
