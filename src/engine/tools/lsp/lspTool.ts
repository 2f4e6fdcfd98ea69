// The bridge's `lsp` tool: the host session's state (status), what raw requests it answers
// (capabilities), a fresh session (reload), and one raw LSP request with zero-based positions,
// answered by the Roslyn host from its own services with the LSP specification's JSON.
// Lifecycle and document-sync methods belong to the session and are refused; methods the host
// does not list need apply: true (they might change files), and then come back as the host's
// typed error naming what it answers. Which methods it answers is the host's one list
// (LspRequestService.Methods), shown by action=capabilities.
import * as path from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../errors';
import { badUriIn } from '../../input/paths';
import { describeHostState, describeLoadProgress } from '../../host/hostState';
import { callHost } from '../../protocol/callHost';
import { lspCapabilitiesMethod } from '../../protocol/lsp';
import { Methods } from '../../protocol/methods';
import { generatorCould } from '../navigation/renderNavigation';
import { generatorGapLines } from '../symbols/renderSymbols';
import { workspaceSelection } from '../symbols/symbolSelector';
import { unreadableArgument } from '../toolInput';
import { defineTool, type ToolContext } from '../toolDefinition';

/** Methods that belong to the client–server session, never to a tool call. */
const reserved = /^(initialize|initialized|shutdown|exit|\$\/.*|textDocument\/(didOpen|didChange|didClose|didSave|willSave|willSaveWaitUntil)|workspace\/(didChangeConfiguration|didChangeWatchedFiles|didChangeWorkspaceFolders)|window\/.*|client\/.*|notebookDocument\/.*)$/;

const LspInputSchema = z.strictObject({
  action: z.enum(['status', 'capabilities', 'reload', 'request']),
  method: z.string().min(1).max(200).optional().describe('request: e.g. textDocument/definition.'),
  parameters: z
    .union([z.record(z.string(), z.unknown()), z.string().max(100_000)])
    .optional()
    .describe('request: the LSP params, an object or JSON text.'),
  apply: z.boolean().optional().describe('request: needed for methods outside capabilities.'),
  ...workspaceSelection,
});
type LspInput = z.infer<typeof LspInputSchema>;

/** What an lsp call returns: status lines, LSP JSON (capabilities, request), or the reload message. */
const LspResultSchema = z.object({
  action: z.enum(['status', 'capabilities', 'reload', 'request']),
  lines: z.array(z.string()).optional(),
  json: z.unknown().optional(),
  /** request: what the JSON cannot say (an excluded generator could add to the list). */
  notes: z.array(z.string()).optional(),
  message: z.string().optional(),
});
export type LspResult = z.infer<typeof LspResultSchema>;

async function status(context: ToolContext): Promise<LspResult> {
  const session = context.hostSession;
  if (!session) throw new ToolError('invalid_request', 'lsp status is not available on this surface.');
  const state = session.state();
  const lines = [`running: ${state.kind === 'ready' ? `yes (pid ${state.pid})` : `no (${describeHostState(state)})`}`];
  const loading = session.loading();
  lines.push(`loading: ${loading ? 'yes' : 'no'}`);
  if (loading) lines.push(`progress: ${describeLoadProgress(loading)}`);
  if (state.kind !== 'ready') {
    lines.push(`workspace: ${context.workspaceFolder}`);
    return { action: 'status', lines };
  }
  // The host is running: asking it costs nothing and starts nothing.
  const host = await callHost(context.host, Methods.status, {}, context.signal);
  const relative = (target: string) => (path.isAbsolute(target) && !path.relative(context.workspaceFolder, target).startsWith('..') ? path.relative(context.workspaceFolder, target).split(path.sep).join('/') : target);
  const loaded = host.loadedContexts.map((c) => `${relative(c.target)} · ${c.configuration}${c.targetFramework ? ` · ${c.targetFramework}` : ''} (${c.projectCount} project${c.projectCount === 1 ? '' : 's'}${c.fromSnapshot ? ', from approved snapshot' : ''})`);
  lines.push(`workspace: ${context.workspaceFolder}${loaded.length ? `; loaded: ${loaded.join(', ')}` : '; nothing loaded yet'}`);
  lines.push(`server: SharpClaw host ${host.hostVersion}, Roslyn ${host.roslynVersion}, ${host.runtime.frameworkDescription}`);
  return { action: 'status', lines };
}

/** The params as JSON text, once they are an object whose file: URIs are local paths (input/paths.ts). */
function parametersOf(input: LspInput): string {
  if (input.parameters === undefined) return '{}';
  let parsed: unknown = input.parameters;
  if (typeof input.parameters === 'string') {
    try {
      parsed = JSON.parse(input.parameters);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    } catch {
      throw new ToolError('invalid_request', 'parameters must be a JSON object (the LSP params), as an object or JSON text.');
    }
  }
  // JSON text skipped the input gate's depth check (it was a string then): the same check, before anything walks it.
  const unreadable = unreadableArgument(parsed, 'parameters', 1);
  if (unreadable) throw new ToolError('invalid_request', `${unreadable}.`);
  const bad = badUriIn(parsed);
  if (bad) throw new ToolError('invalid_request', `${bad}. Send file: URIs of files in the workspace.`);
  return typeof input.parameters === 'string' ? input.parameters : JSON.stringify(input.parameters);
}

async function request(input: LspInput, context: ToolContext): Promise<LspResult> {
  const method = input.method;
  if (!method) throw new ToolError('invalid_request', 'lsp request needs method, e.g. textDocument/definition (action=capabilities lists what is answered).');
  if (reserved.test(method)) throw new ToolError('invalid_request', `${method} belongs to the LSP session SharpClaw runs itself; it cannot be sent as a request (action=capabilities lists what is answered).`);
  const { json, generatorGaps } = await callHost(
    context.host,
    Methods.lspRequest,
    { ...selection(input), workspace: context.workspaceFolder, tool: 'lsp', ...(context.call ? { call: context.call } : {}), method, params: parametersOf(input), ...(input.apply ? { apply: true } : {}) },
    context.signal,
  );
  const could = generatorCould[navigateActionOf[method] ?? ''];
  const notes = could ? generatorGapLines(generatorGaps, could) : [];
  return { action: 'request', json: JSON.parse(json) as unknown, ...(notes.length ? { notes } : {}) };
}

/** The LSP methods whose lists an excluded generator could add to, as the navigate action whose caveat they carry. */
const navigateActionOf: Record<string, string> = {
  'textDocument/implementation': 'implementation',
  'textDocument/references': 'references',
  'callHierarchy/incomingCalls': 'callers',
  'typeHierarchy/subtypes': 'subtypes',
};

function selection(input: LspInput): { target?: string; configuration?: string; targetFramework?: string } {
  return {
    ...(input.target ? { target: input.target } : {}),
    ...(input.configuration ? { configuration: input.configuration } : {}),
    ...(input.targetFramework ? { targetFramework: input.targetFramework } : {}),
  };
}

export const lspTool = defineTool<LspInput, LspResult>({
  name: 'lsp',
  displayName: 'C# language server',
  referenceName: 'sharpclawLsp',
  userDescription: 'The Roslyn session: status, capabilities, reload, and raw LSP requests.',
  modelDescription: 'The Roslyn session and raw LSP. status: running, loading, workspace and versions. capabilities: what request answers. reload: a fresh session (loads again with approval). request: one LSP request (zero-based positions, file: URIs) answered as LSP JSON; rename writes nothing. Other tools cost fewer tokens.',
  tags: ['csharp', 'roslyn', 'lsp'],
  input: LspInputSchema,
  output: LspResultSchema,
  // The text says it all; a copy beside it would say it twice (structuredResult.ts).
  structure: null,
  effects: 'read',
  hostMethods: [Methods.status, Methods.lspRequest],
  // status, capabilities and reload answer without a loaded workspace.
  mayLoad: (input) => input.action === 'request',
  invoke: async (input, context) => {
    switch (input.action) {
      case 'status':
        return status(context);
      case 'capabilities': {
        const { json } = await callHost(context.host, Methods.lspRequest, { workspace: context.workspaceFolder, tool: 'lsp', method: lspCapabilitiesMethod }, context.signal);
        return { action: 'capabilities', json: JSON.parse(json) as unknown };
      }
      case 'reload': {
        if (!context.hostSession) throw new ToolError('invalid_request', 'lsp reload is not available on this surface.');
        // A new host process: nothing loaded, no proposals, no cached evaluation.
        await context.hostSession.restart();
        return { action: 'reload', message: 'Reloaded: a new host session without the loaded solutions and pending proposals; the next call loads the workspace again (with approval).' };
      }
      case 'request':
        return request(input, context);
    }
  },
  render: (result) => {
    switch (result.action) {
      case 'status':
        return (result.lines ?? []).join('\n');
      case 'reload':
        return result.message ?? '';
      default:
        // The JSON on its first line, as LSP shapes it; then what it cannot say.
        return [JSON.stringify(result.json), ...(result.notes ?? [])].join('\n');
    }
  },
});
