// `sharpclaw mcp setup` and VS Code's Set Up MCP for Another Agent…: the configuration that registers our MCP server in another agent's client
// (Claude Code, Codex, Cursor, VS Code, Copilot CLI), with the permission flags the person picks.
// This file knows each client's file, folder and shape; the merges (verified with a real JSONC and
// TOML parser) are mcpSetupMerge.ts's, reading and writing the file safely is mcpSetupWrite.ts's.
import * as os from 'node:os';
import * as path from 'node:path';
import { mergeJson, mergeToml, tomlTable, type MergeResult } from './mcpSetupMerge';

export const setupClients = ['claude-code', 'codex', 'cursor', 'vscode', 'copilot-cli'] as const;
export type SetupClient = (typeof setupClients)[number];

/** The name our server gets in every client's configuration. */
export const setupServerName = 'sharpclaw';

export interface SetupChoices {
  allowEvaluation: boolean;
  allowWrite: boolean;
  allowShell: boolean;
  /** The MCP server's tool set (`--tools all` adds the csharp_* tools). */
  tools: 'default' | 'all';
  /** How the client starts SharpClaw (default `sharpclaw` on PATH); VS Code names its own bundled CLI with node. */
  launcher?: { command: string; args: string[] };
  /** A fixed workspace for the clients configured per user (Codex, Copilot CLI): --cwd on the server's command line. */
  workspace?: string;
}

export interface SetupPlaces {
  /** The project folder (project-scoped files go there). */
  project: string;
  home?: string;
  env?: NodeJS.ProcessEnv;
}

interface ClientFormat {
  /** Where the client reads its servers: inside the project, or in the person's home. */
  scope: 'project' | 'user';
  /** The folder the file must stay inside (no link below it): the project, the home, $CODEX_HOME. */
  base(places: Required<SetupPlaces>): string;
  file(places: Required<SetupPlaces>): string;
  /** JSON: the key that holds the servers, and our entry. TOML: the table of our entry. */
  format: 'json' | 'toml';
  serversKey: string;
  entry(command: string, args: string[]): Record<string, unknown>;
}

const formats: Record<SetupClient, ClientFormat> = {
  // Claude Code: the project's .mcp.json (what `claude mcp add --scope project` writes).
  'claude-code': { scope: 'project', base: (p) => p.project, format: 'json', serversKey: 'mcpServers', file: (p) => path.join(p.project, '.mcp.json'), entry: (command, args) => ({ type: 'stdio', command, args }) },
  // Codex: $CODEX_HOME/config.toml (default ~/.codex), table [mcp_servers.NAME]; the first call
  // loads the solution, which can take longer than Codex's default tool timeout.
  codex: { scope: 'user', base: (p) => p.env.CODEX_HOME || p.home, format: 'toml', serversKey: 'mcp_servers', file: (p) => path.join(p.env.CODEX_HOME || path.join(p.home, '.codex'), 'config.toml'), entry: (command, args) => ({ command, args, tool_timeout_sec: 300 }) },
  // Cursor: the project's .cursor/mcp.json; ${workspaceFolder} is the opened folder.
  cursor: { scope: 'project', base: (p) => p.project, format: 'json', serversKey: 'mcpServers', file: (p) => path.join(p.project, '.cursor', 'mcp.json'), entry: (command, args) => ({ command, args: [...args, '--cwd', '${workspaceFolder}'] }) },
  // VS Code: the workspace's .vscode/mcp.json ("servers"); ${workspaceFolder} is the opened folder.
  vscode: { scope: 'project', base: (p) => p.project, format: 'json', serversKey: 'servers', file: (p) => path.join(p.project, '.vscode', 'mcp.json'), entry: (command, args) => ({ type: 'stdio', command, args: [...args, '--cwd', '${workspaceFolder}'] }) },
  // Copilot CLI: ~/.copilot/mcp-config.json, local servers with the tools they may use.
  'copilot-cli': { scope: 'user', base: (p) => p.home, format: 'json', serversKey: 'mcpServers', file: (p) => path.join(p.home, '.copilot', 'mcp-config.json'), entry: (command, args) => ({ type: 'local', command, args, tools: ['*'] }) },
};

/** `mcp` and the flags the person picked, in a fixed order. */
export function serverArguments(choices: SetupChoices): string[] {
  return [
    'mcp',
    ...(choices.allowEvaluation ? ['--allow-evaluation'] : []),
    ...(choices.allowWrite ? ['--allow-write'] : []),
    ...(choices.allowShell ? ['--allow-shell'] : []),
    ...(choices.tools === 'all' ? ['--tools', 'all'] : []),
  ];
}

export interface SetupPlan {
  client: SetupClient;
  file: string;
  /** The folder `file` must stay inside: no link on the path below it. */
  base: string;
  scope: 'project' | 'user';
  /** Our entry as written into the file. */
  entry: Record<string, unknown>;
  /** Our entry alone, as the client's format writes it (what --print shows). */
  snippet: string;
  /** The whole file after the merge, verified: the old document with exactly our one entry set. */
  merge(existing: string | undefined): MergeResult;
}

export function setupPlan(client: SetupClient, choices: SetupChoices, places: SetupPlaces): SetupPlan {
  const format = formats[client];
  const resolved: Required<SetupPlaces> = { project: places.project, home: places.home ?? os.homedir(), env: places.env ?? process.env };
  const file = format.file(resolved);
  const base = format.base(resolved);
  const args = [...(choices.launcher?.args ?? []), ...serverArguments(choices)];
  const entry = format.entry(choices.launcher?.command ?? 'sharpclaw', format.scope === 'user' && choices.workspace !== undefined ? [...args, '--cwd', path.resolve(choices.workspace)] : args);
  if (format.format === 'toml') {
    return { client, file, base, scope: format.scope, entry, snippet: tomlTable(format.serversKey, setupServerName, entry), merge: (existing) => mergeToml(file, existing, format.serversKey, setupServerName, entry) };
  }
  return {
    client,
    file,
    base,
    scope: format.scope,
    entry,
    snippet: `${JSON.stringify({ [format.serversKey]: { [setupServerName]: entry } }, null, 2)}\n`,
    merge: (existing) => mergeJson(file, existing, format.serversKey, setupServerName, entry),
  };
}
