// `sharpclaw mcp setup`'s merges (src/surfaces/mcp/mcpSetup.ts): each client's file and shape, the
// flags the person picked and nothing else, comments and other servers kept (JSON with comments,
// Codex's TOML), a second run replacing our entry instead of adding one, and a broken file refused.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import { ToolError } from '../../src/engine/errors';
import { serverArguments, setupPlan } from '../../src/engine/config/mcpSetup';

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
    assert.equal(first.text, `${existing}\n[mcp_servers.sharpclaw]\ncommand = "sharpclaw"\nargs = ["mcp", "--allow-evaluation"]\ntool_timeout_sec = 300\n`);

    const edited = `${first.text.replace('tool_timeout_sec = 300\n', 'tool_timeout_sec = 900\n[mcp_servers.sharpclaw.env]\nX = "1"\n')}\n[profiles.fast]\nmodel = "o4-mini"\n`;
    const again = setupPlan('codex', { ...none, allowShell: true }, places).merge(edited);
    assert.equal(again.replaced, true);
    assert.equal(
      again.text,
      'model = "o3" # mine\n\n[mcp_servers.other]\ncommand = "other-mcp"\n\n[mcp_servers.sharpclaw]\ncommand = "sharpclaw"\nargs = ["mcp", "--allow-shell"]\ntool_timeout_sec = 300\n\n[profiles.fast]\nmodel = "o4-mini"\n',
    );
    assert.equal(setupPlan('codex', none, places).merge(undefined).text, '[mcp_servers.sharpclaw]\ncommand = "sharpclaw"\nargs = ["mcp"]\ntool_timeout_sec = 300\n');
  });
});
