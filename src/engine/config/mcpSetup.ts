// `sharpclaw mcp setup` and VS Code's Set Up MCP for Another Agent…: the configuration that registers our MCP server in another agent's client
// (Claude Code, Codex, Cursor, VS Code, Copilot CLI), with the permission flags the person picks.
// Pure text in, text out: the caller reads the one file of the chosen client and writes the result
// back. JSON files (comments allowed) are edited in place with jsonc-parser, so comments and other
// servers stay; Codex's TOML gets its [mcp_servers.sharpclaw] table replaced or appended, and
// nothing else of the file changes.
import * as os from 'node:os';
import * as path from 'node:path';
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { ToolError } from '../errors';

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
  file(places: Required<SetupPlaces>): string;
  /** JSON: the key that holds the servers, and our entry. TOML: the table of our entry. */
  format: 'json' | 'toml';
  serversKey: string;
  entry(command: string, args: string[]): Record<string, unknown>;
}

const formats: Record<SetupClient, ClientFormat> = {
  // Claude Code: the project's .mcp.json (what `claude mcp add --scope project` writes).
  'claude-code': { scope: 'project', format: 'json', serversKey: 'mcpServers', file: (p) => path.join(p.project, '.mcp.json'), entry: (command, args) => ({ type: 'stdio', command, args }) },
  // Codex: $CODEX_HOME/config.toml (default ~/.codex), table [mcp_servers.NAME]; the first call
  // loads the solution, which can take longer than Codex's default tool timeout.
  codex: { scope: 'user', format: 'toml', serversKey: 'mcp_servers', file: (p) => path.join(p.env.CODEX_HOME || path.join(p.home, '.codex'), 'config.toml'), entry: (command, args) => ({ command, args, tool_timeout_sec: 300 }) },
  // Cursor: the project's .cursor/mcp.json; ${workspaceFolder} is the opened folder.
  cursor: { scope: 'project', format: 'json', serversKey: 'mcpServers', file: (p) => path.join(p.project, '.cursor', 'mcp.json'), entry: (command, args) => ({ command, args: [...args, '--cwd', '${workspaceFolder}'] }) },
  // VS Code: the workspace's .vscode/mcp.json ("servers"); ${workspaceFolder} is the opened folder.
  vscode: { scope: 'project', format: 'json', serversKey: 'servers', file: (p) => path.join(p.project, '.vscode', 'mcp.json'), entry: (command, args) => ({ type: 'stdio', command, args: [...args, '--cwd', '${workspaceFolder}'] }) },
  // Copilot CLI: ~/.copilot/mcp-config.json, local servers with the tools they may use.
  'copilot-cli': { scope: 'user', format: 'json', serversKey: 'mcpServers', file: (p) => path.join(p.home, '.copilot', 'mcp-config.json'), entry: (command, args) => ({ type: 'local', command, args, tools: ['*'] }) },
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
  scope: 'project' | 'user';
  /** Our entry alone, as the client's format writes it (what --print shows). */
  snippet: string;
  /** The whole file after the merge. */
  merge(existing: string | undefined): { text: string; replaced: boolean };
}

export function setupPlan(client: SetupClient, choices: SetupChoices, places: SetupPlaces): SetupPlan {
  const format = formats[client];
  const resolved: Required<SetupPlaces> = { project: places.project, home: places.home ?? os.homedir(), env: places.env ?? process.env };
  const file = format.file(resolved);
  const args = [...(choices.launcher?.args ?? []), ...serverArguments(choices)];
  const entry = format.entry(choices.launcher?.command ?? 'sharpclaw', format.scope === 'user' && choices.workspace !== undefined ? [...args, '--cwd', path.resolve(choices.workspace)] : args);
  if (format.format === 'toml') {
    return { client, file, scope: format.scope, snippet: tomlTable(format.serversKey, entry), merge: (existing) => mergeToml(existing ?? '', format.serversKey, entry) };
  }
  return {
    client,
    file,
    scope: format.scope,
    snippet: `${JSON.stringify({ [format.serversKey]: { [setupServerName]: entry } }, null, 2)}\n`,
    merge: (existing) => mergeJson(file, existing, format.serversKey, entry),
  };
}

function mergeJson(file: string, existing: string | undefined, serversKey: string, entry: Record<string, unknown>): { text: string; replaced: boolean } {
  const text = existing === undefined || existing.trim() === '' ? '{}\n' : existing;
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const line = text.slice(0, errors[0]!.offset).split('\n').length;
    throw new ToolError('invalid_request', `${file} is not valid JSON with comments (${printParseErrorCode(errors[0]!.error)} at line ${line}); fix it or use --print, nothing was written.`);
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new ToolError('invalid_request', `${file} does not hold a JSON object; nothing was written.`);
  const servers = (root as Record<string, unknown>)[serversKey];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    throw new ToolError('invalid_request', `"${serversKey}" in ${file} is not an object; nothing was written.`);
  }
  const replaced = servers !== undefined && Object.hasOwn(servers, setupServerName);
  const edits = modify(text, [serversKey, setupServerName], entry, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } });
  const merged = applyEdits(text, edits);
  return { text: merged.endsWith('\n') ? merged : `${merged}\n`, replaced };
}

function tomlValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // A JSON string is a TOML basic string for what we write (ASCII flags and names).
  return JSON.stringify(value);
}

function tomlTable(serversKey: string, entry: Record<string, unknown>): string {
  return [`[${serversKey}.${setupServerName}]`, ...Object.entries(entry).map(([key, value]) => `${key} = ${tomlValue(value)}`)].join('\n') + '\n';
}

/** Replaces our table (and its sub-tables) where it is, else appends it; every other line stays. */
function mergeToml(existing: string, serversKey: string, entry: Record<string, unknown>): { text: string; replaced: boolean } {
  const table = tomlTable(serversKey, entry);
  const lines = existing.split('\n');
  const ours = (line: string) => {
    const header = /^\s*\[\s*([^\]\[]+?)\s*\]\s*(#.*)?$/.exec(line)?.[1]?.replace(/\s*\.\s*/g, '.').replace(/"/g, '');
    return header === undefined ? undefined : header === `${serversKey}.${setupServerName}` || header.startsWith(`${serversKey}.${setupServerName}.`);
  };
  const start = lines.findIndex((line) => ours(line) === true);
  if (start < 0) {
    const base = existing.length === 0 || existing.endsWith('\n') ? existing : `${existing}\n`;
    return { text: `${base}${base.trim().length > 0 ? '\n' : ''}${table}`, replaced: false };
  }
  let end = start + 1;
  while (end < lines.length && ours(lines[end]!) !== false && !/^\s*\[\[/.test(lines[end]!)) end++;
  // Keep the blank lines that separated our table from the next one.
  while (end > start + 1 && lines[end - 1]!.trim() === '') end--;
  const merged = [...lines.slice(0, start), ...table.replace(/\n$/, '').split('\n'), ...lines.slice(end)].join('\n');
  return { text: merged.endsWith('\n') ? merged : `${merged}\n`, replaced: true };
}
