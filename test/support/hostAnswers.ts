// Recorded host answers: the seam between the Roslyn host's semantics (server/tests) and what the
// client makes of them (test/unit), so each is asserted once, at the layer that sees it.
//
// test/host-answers/<Fixture>/<query>.json holds one tool call: the tool and its input, the host
// method and params the tool sends (without `workspace`), and the host's typed answer as it travelled
// (`result`, or `error` with the JSON-RPC code, message and data; the workspace folder written as
// $WORKSPACE). server/tests' RecordedAnswerTests sends every recorded params to a live host on a
// restored copy of the fixture (test/host-answers/<Fixture>/fixture.json names the restore targets)
// and fails when the answer differs; replay() here runs the tool through the client's real pipeline
// (Session → HostSupervisor, which validates the answer by the protocol's zod schema → runTool →
// render) over a transport that checks the params and answers from the file. So a field renamed on
// either side fails one of them. SHARPCLAW_RECORD_HOST_ANSWERS=1 rewrites what each side owns: the
// unit tests the method and params, the server tests the answer.
// The MCP surface's contract is the tools/list it publishes: mcp-tools-list.json, which the unit tests
// check against the server in memory and host-e2e against the real server over stdio; every recorded
// call's arguments must fit the input schema published there and its answer the output schema.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HostCallbackOptions } from '../../src/engine/host/hostCallbacks';
import type { HostConnection, HostExit, HostTransport } from '../../src/engine/host/hostTransport';
import type { PermissionPolicy } from '../../src/engine/permissions/permissionPolicy';
import { Methods } from '../../src/engine/protocol/methods';
import { Session } from '../../src/engine/session';
import { findTool } from '../../src/engine/tools/registry';
import type { ToolOutcome } from '../../src/engine/tools/runTool';
import { mcpServerFactory } from '../../src/surfaces/mcp/mcpServer';
import { mcpToolsFor } from '../../src/surfaces/mcp/mcpTools';
import { defaultLoadWaitSeconds } from '../../src/surfaces/mcp/mcpLoadWait';
import { mcpToolNames } from '../../src/engine/tools/toolDefinition';
import { fitAnswer, type FittedAnswer } from '../../src/engine/tools/wholeResult';
import { solutionInspectToolName } from '../../src/engine/tools/structuredResult';
import { inputJsonSchema } from '../../src/engine/tools/manifest';
import { Client } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { fixturesRoot, repoRoot } from './fixtures';
import { startedHostStatus } from './hostStatus';

export const hostAnswersRoot = path.join(repoRoot, 'test', 'host-answers');

/** The placeholder a recording writes for the workspace folder the live host answered in. */
export const workspacePlaceholder = '$WORKSPACE';

export interface Recording {
  /** `<Fixture>/<query>`, from the file's place. */
  id: string;
  fixture: string;
  file: string;
  tool: string;
  input: Record<string, unknown>;
  method: string;
  params: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** One recording by id (`ExtensionMembers/references`). */
export function recording(id: string): Recording {
  const [fixture, query] = id.split('/');
  const file = path.join(hostAnswersRoot, fixture!, `${query}.json`);
  assert.ok(fs.existsSync(file), `no recorded host answer ${id} (${file})`);
  return { ...(JSON.parse(fs.readFileSync(file, 'utf8')) as Omit<Recording, 'id' | 'fixture' | 'file'>), id, fixture: fixture!, file };
}

/** Every recording, by fixture and query name. */
export function allRecordings(): Recording[] {
  return fs
    .readdirSync(hostAnswersRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((fixture) =>
      fs
        .readdirSync(path.join(hostAnswersRoot, fixture.name))
        .filter((file) => file.endsWith('.json') && file !== 'fixture.json')
        .sort()
        .map((file) => recording(`${fixture.name}/${file.slice(0, -'.json'.length)}`)),
    );
}

const rewriting = process.env.SHARPCLAW_RECORD_HOST_ANSWERS === '1';

/** Puts the workspace folder where the recording has its placeholder. */
function inWorkspace(value: unknown, workspace: string): unknown {
  return JSON.parse(JSON.stringify(value ?? null).split(workspacePlaceholder).join(JSON.stringify(workspace).slice(1, -1)));
}

/** A host that answers the recorded call once it was sent exactly the recorded params, and the start-up calls every session makes. */
class RecordedConnection implements HostConnection {
  readonly pid = 4242;
  readonly logFile = '/logs/sharpclaw-host-4242.log';
  private readonly exits: Array<(exit: HostExit) => void> = [];
  calls = 0;

  constructor(
    private readonly answer: Recording,
    private readonly workspace: string,
    private readonly surface: 'cli' | 'mcp',
  ) {}

  async sendRequest(method: string, params: unknown): Promise<unknown> {
    if (method === Methods.status.method) return startedHostStatus(this.pid, { hostVersion: '0.0.0-recorded', roslynVersion: '0.0.0', frameworkDescription: '.NET (recorded answer)', runtimeIdentifier: 'any' });
    if (method === Methods.interruptedEdits.method) return { interrupted: [] };
    this.calls++;
    // The call id is new for every call (permissions/grants.ts): named, never recorded.
    const { workspace, call, answerBy, ...sent } = params as Record<string, unknown>;
    assert.equal(workspace, this.workspace, `${this.answer.id}: the tool names the workspace folder`);
    // The store's syntax-only searches never ask for an approval, so they name no call.
    const search = method === Methods.symbolSearch.method || method === Methods.workspaceSearch.method;
    const asksApproval = !search;
    // An MCP search's answer time (mcpLoadWait.ts), within the default load wait from now: a time, never recorded; no other call sends one.
    if (search && this.surface === 'mcp') assert.ok(typeof answerBy === 'number' && answerBy > Date.now() && answerBy <= Date.now() + defaultLoadWaitSeconds * 1000, `${this.answer.id}: an MCP search names when its answer is due (${String(answerBy)})`);
    else assert.equal(answerBy, undefined, `${this.answer.id}: only an MCP search names an answer time`);
    assert.equal(typeof call, asksApproval ? 'string' : 'undefined', `${this.answer.id}: a tool whose host request may ask for an approval names its call, so only this call's approval answers it`);
    if (rewriting && asStored(this.answer) && (method !== this.answer.method || JSON.stringify(sent) !== JSON.stringify(this.answer.params))) {
      rewrite(this.answer, { method, params: sent });
      throw new Error(`${this.answer.id}: rewrote the method and params; record the host's answer to them (server/tests RecordedAnswerTests with SHARPCLAW_RECORD_HOST_ANSWERS=1).`);
    }
    assert.equal(method, this.answer.method, `${this.answer.id}: the tool calls the recorded method`);
    assert.deepEqual(sent, this.answer.params, `${this.answer.id}: the tool sends the recorded params (SHARPCLAW_RECORD_HOST_ANSWERS=1 rewrites them)`);
    if (this.answer.error) throw Object.assign(new Error(this.answer.error.message), inWorkspace(this.answer.error, this.workspace) as object);
    assert.ok('result' in this.answer, `${this.answer.id} has no recorded result: run server/tests RecordedAnswerTests with SHARPCLAW_RECORD_HOST_ANSWERS=1`);
    return inWorkspace(this.answer.result, this.workspace);
  }

  onExit(listener: (exit: HostExit) => void): void {
    this.exits.push(listener);
  }

  async stop(): Promise<void> {
    for (const listener of this.exits.splice(0)) listener({ code: 0, signal: null });
  }
}

class RecordedTransport implements HostTransport {
  connection: RecordedConnection | undefined;
  constructor(
    private readonly answer: Recording,
    private readonly workspace: string,
    private readonly surface: 'cli' | 'mcp',
  ) {}
  async start(_callbacks: HostCallbackOptions): Promise<HostConnection> {
    this.connection = new RecordedConnection(this.answer, this.workspace, this.surface);
    return this.connection;
  }
}

const grantAll: PermissionPolicy = { request: async () => ({ granted: true, source: 'policy' }) };

export interface Replayed {
  outcome: ToolOutcome;
  /** What `sharpclaw tool` prints for it: the text on stdout, or the error line on stderr. */
  stdout: string;
  stderr: string;
}

/**
 * Runs the recording's tool on its input through a CLI Session whose host answers from the recording.
 * `workspace` is the folder the tool works in (default: the fixture's folder in the repository, which the
 * session checks exists and the recorded host never reads; the CLI contract tests pass the
 * real copy); `hostCalls`: how often the tool must ask the host (0 for input the client refuses itself).
 */
export async function replay(answer: Recording, workspace = path.join(fixturesRoot, answer.fixture), { hostCalls = 1 } = {}): Promise<Replayed> {
  const tool = findTool(answer.tool);
  assert.ok(tool, `${answer.id}: no tool ${answer.tool}`);
  const transport = new RecordedTransport(answer, workspace, 'cli');
  const session = new Session({ surface: 'cli', workspaceFolder: () => workspace, permissions: grantAll, transport });
  try {
    const outcome = await session.runTool(tool, answer.input, new AbortController().signal);
    assert.equal(transport.connection?.calls ?? 0, hostCalls, `${answer.id}: how often the tool asked the host`);
    return { outcome, stdout: outcome.ok ? `${outcome.text}\n` : '', stderr: outcome.ok ? '' : `${outcome.text}\n` };
  } finally {
    await session.close();
    session.dispose();
  }
}

export interface ReplayedOverMcp {
  /** The MCP name the tool is served under. */
  name: string;
  result: Awaited<ReturnType<Client['callTool']>>;
  /**
   * What the MCP server must send for the CLI's outcome: its result fitted to the whole-result budget
   * (wholeResult.ts) with other tools named as the MCP server names them (csharp_navigate is navigate);
   * an error's text as it is.
   */
  expected(outcome: ToolOutcome): FittedAnswer;
}

/** The same call through the MCP server (every tool served, the official client over the SDK's in-memory transport). */
export async function replayOverMcp(answer: Recording, workspace = path.join(fixturesRoot, answer.fixture)): Promise<ReplayedOverMcp> {
  const tools = mcpToolsFor('all');
  const served = tools.find((tool) => tool.definition.name === answer.tool);
  assert.ok(served, `${answer.id}: the MCP server serves no ${answer.tool}`);
  const transport = new RecordedTransport(answer, workspace, 'mcp');
  const session = new Session({ surface: 'mcp', workspaceFolder: () => workspace, permissions: grantAll, transport });
  const server = mcpServerFactory({ session, tools, version: '0.0.0' })();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'recorded-answers', version: '1' });
  await client.connect(clientSide);
  try {
    // What an MCP client checks: the arguments fit the published input schema, the structured content its output schema.
    const listed = (await client.listTools()).tools.find((tool) => tool.name === served.name);
    assert.ok(listed, `${answer.id}: tools/list has no ${served.name}`);
    const input = schemaValidator.getValidator(listed.inputSchema as Record<string, unknown>)(canonicalArguments(served.definition, answer.input));
    assert.ok(input.valid, `${answer.id}: the recorded arguments do not fit the input schema MCP publishes for ${served.name}: ${input.errorMessage}`);
    const result = await client.callTool({ name: served.name, arguments: answer.input });
    if (listed.outputSchema && result.structuredContent !== undefined) {
      const output = schemaValidator.getValidator(listed.outputSchema as Record<string, unknown>)(result.structuredContent);
      assert.ok(output.valid, `${answer.id}: the answer does not fit the output schema MCP publishes for ${served.name}: ${output.errorMessage}`);
    }
    assert.equal(transport.connection?.calls ?? 0, 1, `${answer.id}: the tool asked the host once`);
    const context = { workspaceFolder: workspace, names: mcpToolNames, solutionInspect: mcpToolNames.of({ name: solutionInspectToolName }) };
    return { name: served.name, result, expected: (outcome) => (outcome.ok ? fitAnswer(served.definition, outcome.data, context) : { text: outcome.text, structured: undefined }) };
  } finally {
    await client.close();
    await session.close();
    session.dispose();
  }
}

const schemaValidator = new AjvJsonSchemaValidator();

/** `input` with each alias (an argument described as "Alias of x.") under its one published name: MCP lists one name per argument (mcpSchemas.ts), runTool accepts both. */
function canonicalArguments(definition: Parameters<typeof inputJsonSchema>[0], input: Record<string, unknown>): Record<string, unknown> {
  const properties = (inputJsonSchema(definition).properties ?? {}) as Record<string, { description?: unknown }>;
  return Object.fromEntries(Object.entries(input).map(([name, value]) => {
    const alias = typeof properties[name]?.description === 'string' ? /^Alias of (\w+)/.exec(properties[name].description as string) : null;
    return [alias ? alias[1]! : name, value];
  }));
}

/** The tools/list the MCP server publishes (names, titles, descriptions, annotations, input and output schemas), as recorded. */
export const mcpListingFile = path.join(hostAnswersRoot, 'mcp-tools-list.json');

/**
 * Fails when `tools` (a tools/list answer's tools, `--tools all`) differs from the recorded listing, naming
 * the tools that changed; SHARPCLAW_RECORD_HOST_ANSWERS=1 rewrites it (then review the diff: every MCP
 * client sees it).
 */
export function checkMcpListing(tools: readonly unknown[], where: string): void {
  const listing = JSON.parse(JSON.stringify(tools)) as Array<{ name: string }>;
  if (rewriting && where === 'in memory') {
    fs.writeFileSync(mcpListingFile, `${JSON.stringify(listing, null, 2)}\n`);
    return;
  }
  // A server serving the default set lists the recorded tools of its names (which tools each set has: mcpTools.test, mcpServer.test).
  const names = new Set(listing.map((tool) => tool.name));
  const recorded = (JSON.parse(fs.readFileSync(mcpListingFile, 'utf8')) as Array<{ name: string }>).filter((tool) => where === 'in memory' || names.has(tool.name));
  const changed = [...new Set([...recorded, ...listing].map((tool) => tool.name))].filter((name) => {
    try {
      assert.deepEqual(listing.find((tool) => tool.name === name), recorded.find((tool) => tool.name === name));
      return false;
    } catch {
      return true;
    }
  });
  assert.deepEqual(listing, recorded, `the MCP tools/list (${where}) differs from test/host-answers/mcp-tools-list.json for ${changed.join(', ')} (SHARPCLAW_RECORD_HOST_ANSWERS=1 with the unit tests rewrites it)`);
}

/** Whether the recording is the file's own (a test may replay it with another input, which never rewrites it). */
function asStored(answer: Recording): boolean {
  const stored = JSON.parse(fs.readFileSync(answer.file, 'utf8')) as Record<string, unknown>;
  return JSON.stringify(stored.input) === JSON.stringify(answer.input) && stored.tool === answer.tool;
}

/** Writes `changes` into the recording's file, keeping its other fields and their order. */
function rewrite(answer: Recording, changes: Partial<Pick<Recording, 'method' | 'params'>>): void {
  const stored = JSON.parse(fs.readFileSync(answer.file, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(answer.file, `${JSON.stringify({ ...stored, ...changes }, null, 2)}\n`);
}
