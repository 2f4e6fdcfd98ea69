// The attack suite's driver: one attack, sent the same way through every door an agent has, so each
// test asserts that every door gives the same outcome. The doors:
//   cli            `node dist/cli.js tool NAME --input JSON` (a fresh process per call, the resident host)
//   mcp-2025       `node dist/cli.js mcp` through the official client SDK, 2025-11-25 `initialize`
//                  session; the person is asked with a server→client elicitation/create
//   mcp-2026       the same server, 2026-07-28 era pinned; the person is asked with an input_required
//                  result, which the SDK fulfils through the same handler and retries
//   vscode-adapter Session.runTool in this process, which is all the LM tool adapter
//                  (src/surfaces/vscode/tools/vscodeToolAdapter.ts) calls; VS Code's modal dialog is
//                  played by `answer` (no extension host here: an attack that needs one belongs in
//                  test/integration).
// Raw `lsp request`s are the `lsp` tool's calls, sent through the MCP doors (the CLI and VS Code do
// not offer that tool).
//
// Using it: `const door = await openDoor('mcp-2026', { workspace, stateDir, answer: 'allow_once' })`, then
// `await door.call('csharp_navigate', input)` (the engine's tool names; the driver maps them to each
// door's), `door.asked` (the questions the person saw), `await door.close()`. `everyDoor` lists them;
// `doorsFor(tool)` the ones that serve a tool. Attacks that leave the workspace and the door as they
// were (a refusal that writes and runs nothing, a read) share one loaded door per name through a
// `DoorPool`, so a file pays one cold host load per door, not one per test. A reply is the text an agent reads and its `error CODE`.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StdioHostTransport } from '../../../src/engine/host/hostProcess';
import type { PermissionKind, PermissionPolicy } from '../../../src/engine/permissions/permissionPolicy';
import { Session } from '../../../src/engine/session';
import { allTools, bridgeOnlyTools } from '../../../src/engine/tools/registry';
import { mcpTools } from '../../../src/surfaces/mcp/mcpTools';
import { answerWait, cliPath, serverDll } from '../support';

export type DoorName = 'cli' | 'mcp-2025' | 'mcp-2026' | 'vscode-adapter';
export const everyDoor: readonly DoorName[] = ['cli', 'mcp-2025', 'mcp-2026', 'vscode-adapter'];

export interface DoorOptions {
  workspace: string;
  /** SHARPCLAW_STATE_DIR of the door's processes (the vscode-adapter door uses it too). */
  stateDir: string;
  /** What the person granted up front (CLI and MCP flags; the adapter's remembered approvals). */
  allow?: PermissionKind[];
  /** How the person answers questions (MCP elicitation, the adapter's dialog), in order (the last one repeats); none: nobody can be asked. */
  answer?: Answer | Answer[];
  /** mcp-2026: hand input_required results back to the test (`client.callTool(..., { allowInputRequired: true })`) instead of answering them. */
  manualRounds?: boolean;
  /** MCP doors: the client's own elicitation handler (instead of `answer`): it may answer anything, or throw. */
  elicit?: (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
  /** MCP doors: the client offers these root URIs, and the server gets no --cwd (it starts in `workspace`). */
  roots?: string[];
}

export type Answer = 'allow_once' | 'deny';

/** The person's next answer. */
function answers(answer: Answer | Answer[] | undefined): (() => Answer) | undefined {
  if (answer === undefined) return undefined;
  const queue = Array.isArray(answer) ? [...answer] : [answer];
  return () => (queue.length > 1 ? queue.shift()! : queue[0]!);
}

export interface Reply {
  /** What the agent reads. */
  text: string;
  /** The `error CODE` of a failed call; undefined when it succeeded. */
  code: string | undefined;
}

export interface Door {
  name: DoorName;
  call(tool: string, input: Record<string, unknown>): Promise<Reply>;
  /** Every question the person was asked through this door, in order. */
  asked: string[];
  /** The MCP doors' client, for attacks that speak the protocol themselves. */
  client?: Client;
  /** The MCP server's stderr (its log). */
  log(): string;
  close(): Promise<void>;
}

const flags = (allow: PermissionKind[] = []) => allow.map((kind) => `--allow-${kind}`);

function reply(text: string, failed: boolean): Reply {
  const code = failed ? /^error ([a-z_]+):/.exec(text)?.[1] ?? 'unknown' : undefined;
  return { text, code };
}

/** The doors that serve `tool` (lsp is the MCP bridge's only). */
export function doorsFor(tool: string): DoorName[] {
  return bridgeOnlyTools.some((t) => t.name === tool) ? ['mcp-2025', 'mcp-2026'] : [...everyDoor];
}

export async function openDoor(name: DoorName, options: DoorOptions): Promise<Door> {
  assert.ok(fs.existsSync(cliPath), `${cliPath} is missing: run "npm run build"`);
  switch (name) {
    case 'cli':
      return cliDoor(options);
    case 'mcp-2025':
    case 'mcp-2026':
      return mcpDoor(name, options);
    case 'vscode-adapter':
      return adapterDoor(options);
  }
}

/**
 * One door per name, opened at its first use and kept for the tests of a describe (each door with the
 * options `options(name)` gives: its own state folder, so no two doors share a host); `close()` in `after`.
 */
export class DoorPool {
  private readonly opened = new Map<DoorName, Promise<Door>>();
  constructor(private readonly options: (name: DoorName) => DoorOptions) {}

  get(name: DoorName): Promise<Door> {
    let door = this.opened.get(name);
    if (!door) {
      door = openDoor(name, this.options(name));
      this.opened.set(name, door);
    }
    return door;
  }

  async close(): Promise<void> {
    const doors = [...this.opened.values()];
    this.opened.clear();
    for (const door of doors) await (await door.catch(() => undefined))?.close().catch(() => undefined);
  }
}

function cliDoor(options: DoorOptions): Door {
  return {
    name: 'cli',
    asked: [],
    log: () => '',
    call: (tool, input) =>
      new Promise((resolve) => {
        execFile(
          process.execPath,
          [cliPath, 'tool', tool, '--input', JSON.stringify(input), '--cwd', options.workspace, ...flags(options.allow)],
          { env: { ...process.env, SHARPCLAW_STATE_DIR: options.stateDir }, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
          (error, stdout, stderr) => {
            const failed = error !== null;
            // A failure is printed on stderr after the progress lines: its `error CODE:` line onwards.
            const text = failed ? stderr.slice(Math.max(0, stderr.search(/^error [a-z_]+:/m))).trim() : stdout.trim();
            resolve(reply(text || stderr.trim(), failed));
          },
        );
      }),
    close: async () => undefined,
  };
}

async function mcpDoor(name: 'mcp-2025' | 'mcp-2026', options: DoorOptions): Promise<Door> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', ...(options.roots ? [] : ['--cwd', options.workspace]), '--tools', 'all', ...flags(options.allow), ...answerWait],
    env: { ...(process.env as Record<string, string>), SHARPCLAW_STATE_DIR: options.stateDir },
    cwd: options.workspace,
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const client = new Client(
    { name: 'sharpclaw-attacks', version: '1.0.0' },
    {
      ...(name === 'mcp-2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      ...(options.manualRounds ? { inputRequired: { autoFulfill: false } } : {}),
      capabilities: { ...(options.answer || options.elicit || options.manualRounds ? { elicitation: { form: {} } } : {}), ...(options.roots ? { roots: { listChanged: false } } : {}) },
    },
  );
  const roots = options.roots;
  if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots.map((uri) => ({ uri, name: 'root' })) }));
  const asked: string[] = [];
  const answer = answers(options.answer);
  const elicit = options.elicit;
  if (elicit) {
    client.setRequestHandler('elicitation/create', (request) => {
      const message = (request.params as { message: string }).message;
      asked.push(message);
      return elicit(message) as never;
    });
  } else if (answer) {
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { decision: answer() } };
    });
  }
  await client.connect(transport);
  const mcpName = (tool: string) => mcpTools.find((t) => t.definition.name === tool)?.name ?? tool;
  return {
    name,
    asked,
    client,
    log: () => log,
    call: async (tool, input) => {
      let result;
      try {
        result = await client.callTool({ name: mcpName(tool), arguments: input }, { timeout: 300_000 });
      } catch (error) {
        // A JSON-RPC error instead of a tool result: what the agent's client shows is its message.
        return { text: error instanceof Error ? error.message : String(error), code: /error ([a-z_]+):/.exec(String(error))?.[1] ?? 'protocol_error' };
      }
      const content = result.content as Array<{ type: string; text?: string }>;
      return reply(content.map((c) => c.text ?? '').join('\n'), result.isError === true);
    },
    close: () => client.close(),
  };
}

async function adapterDoor(options: DoorOptions): Promise<Door> {
  const asked: string[] = [];
  const answer = answers(options.answer);
  // VS Code's policy without its modal: remembered approvals answer, else the person is asked.
  const policy: PermissionPolicy = {
    request: async (request) => {
      if (options.allow?.includes(request.kind)) return { granted: true, source: 'remembered' };
      if (!answer) return { granted: false, source: 'dialog', message: `Nobody answered the dialog to ${request.action}.` };
      asked.push(`SharpClaw wants to ${request.action}${request.target ? ` (${request.target})` : ''}.`);
      return answer() === 'allow_once' ? { granted: true, source: 'dialog' } : { granted: false, source: 'dialog', message: `You denied SharpClaw permission to ${request.action}.` };
    },
  };
  const previous = process.env.SHARPCLAW_STATE_DIR;
  process.env.SHARPCLAW_STATE_DIR = options.stateDir;
  const session = new Session({ surface: 'vscode', workspaceFolder: () => options.workspace, permissions: policy, transport: new StdioHostTransport({ serverDll }) });
  return {
    name: 'vscode-adapter',
    asked,
    log: () => '',
    call: async (tool, input) => {
      const definition = allTools.find((t) => t.name === tool);
      assert.ok(definition, `no tool ${tool}`);
      const outcome = await session.runTool(definition, input, new AbortController().signal);
      return reply(outcome.text, !outcome.ok);
    },
    close: async () => {
      await session.close().catch(() => undefined);
      session.dispose();
      if (previous === undefined) delete process.env.SHARPCLAW_STATE_DIR;
      else process.env.SHARPCLAW_STATE_DIR = previous;
    },
  };
}
