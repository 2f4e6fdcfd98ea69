// The MCP tests' client: the official client SDK over stdio against the real bundled CLI
// (`node dist/cli.js mcp ...`), optionally declaring roots (the 2025 era's roots/list) or pinning
// the 2026-07-28 era. Captures the server's stderr (its logs).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { answerWait, cliPath } from '../support';

export type CallResult = Awaited<ReturnType<Client['callTool']>>;

export const callOptions = { timeout: 300_000 };

export interface Connected {
  client: Client;
  stderr: () => string;
  /** How many times the server asked for roots. */
  rootRequests: () => number;
}

export interface ConnectOptions {
  /** Passed as --cwd; omitted: the server works in the client's root or in `startFolder`. */
  workspace?: string;
  /** The folder the server process starts in (default: this process's). */
  startFolder?: string;
  stateDir: string;
  flags?: string[];
  negotiation?: { pin: string };
  /** Folders the client offers as roots (declares the roots capability). */
  roots?: string[];
  /** Answers the server's elicitation/create (declares the elicitation capability). */
  elicit?: (request: { message: string; requestedSchema?: unknown }) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string> };
  /** More environment for the server (HOME for its user settings file). */
  env?: Record<string, string>;
}

export async function connect(options: ConnectOptions): Promise<Connected> {
  assert.ok(fs.existsSync(cliPath), `${cliPath} is missing: run "npm run build"`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', ...(options.workspace ? ['--cwd', options.workspace] : []), ...(options.flags ?? []), ...(options.flags?.includes('--load-wait') ? [] : answerWait)],
    env: { ...(process.env as Record<string, string>), SHARPCLAW_STATE_DIR: options.stateDir, ...options.env },
    ...(options.startFolder ? { cwd: options.startFolder } : {}),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client(
    { name: 'sharpclaw-tests', version: '1.0.0' },
    {
      ...(options.negotiation ? { versionNegotiation: { mode: options.negotiation } } : {}),
      capabilities: { ...(options.roots ? { roots: { listChanged: false } } : {}), ...(options.elicit ? { elicitation: { form: {} } } : {}) },
    },
  );
  let rootRequests = 0;
  if (options.roots) {
    const roots = options.roots.map((folder, index) => ({ uri: pathToFileURL(folder).href, name: `root ${index + 1}` }));
    client.setRequestHandler('roots/list', () => {
      rootRequests++;
      return { roots };
    });
  }
  const elicit = options.elicit;
  if (elicit) client.setRequestHandler('elicitation/create', (request) => elicit(request.params as { message: string; requestedSchema?: unknown }));
  await client.connect(transport);
  return { client, stderr: () => stderr, rootRequests: () => rootRequests };
}

/** The one text content of a result. */
export function text(result: CallResult): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  assert.equal(content.length, 1);
  assert.equal(content[0]!.type, 'text');
  return content[0]!.text!;
}
