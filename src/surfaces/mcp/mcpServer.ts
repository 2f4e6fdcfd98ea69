// The MCP server's tools: registers each MCP tool of the chosen set on an McpServer (the SDK's), with
// the definition's MCP name, its description as MCP names the other tools, its input and output schemas
// and annotations from its effects, and answers every call through Session.runTool — the same pipeline
// as the LM tools and the CLI (which renders answers with MCP's names for a call on this surface). One factory serves both protocol
// eras (serveStdio pins a 2025-era or a 2026-07-28 instance per connection); every instance shares
// the one Session, so the host stays warm across calls.
import { McpServer, type CallToolResult, type StandardSchemaWithJSON, type ToolAnnotations } from '@modelcontextprotocol/server';
import { asToolError } from '../../engine/errors';
import type { Session } from '../../engine/session';
import { descriptionOn, mcpToolNames, type AnyToolDefinition } from '../../engine/tools/toolDefinition';
import { structureSchema } from '../../engine/tools/structuredResult';
import { publishedInputSchema, publishedOutputSchema } from './mcpSchemas';
import type { McpTool } from './mcpTools';
import type { McpWorkspace } from './mcpWorkspace';
import type { McpClientLink } from './mcpPermissionPolicy';
import type { McpApprovalRounds } from './mcpInputRequired';
import { forwardLoadProgress } from './mcpLoadProgress';
import { answerTimeOf, defaultLoadWaitSeconds, withinLoadWait, type CallWaitState } from './mcpLoadWait';
import { callKey, RunningReads } from './mcpRunningReads';

export const serverName = 'sharpclaw';

/**
 * The definition's input schema as the SDK takes it: advertised as its trimmed JSON Schema
 * (mcpSchemas.ts), validated by runTool (toolInput.ts, the one rule for every surface: unknown arguments list the
 * valid names, arrays may arrive as JSON strings). The SDK's own check would answer differently.
 */
function advertisedInput(definition: AnyToolDefinition): StandardSchemaWithJSON {
  const schema = publishedInputSchema(definition);
  return {
    '~standard': {
      version: 1,
      vendor: 'sharpclaw',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

/**
 * The definition's output schema, where it has one with an object root (what structuredContent
 * can carry): checked with the definition's zod schema, advertised as its top level (mcpSchemas.ts).
 */
function advertisedOutput(definition: AnyToolDefinition): { outputSchema?: StandardSchemaWithJSON } {
  const schema = publishedOutputSchema(definition);
  const output = structureSchema(definition);
  if (!output || !schema) return {};
  return {
    outputSchema: {
      '~standard': { version: 1, vendor: 'sharpclaw', validate: (value: unknown) => output['~standard'].validate(value), jsonSchema: { input: () => schema, output: () => schema } },
    },
  };
}

/** Reads never change files; write tools may, and verify_workspace runs project code (build/test). */
export function annotationsFor(definition: AnyToolDefinition): ToolAnnotations {
  const reads = definition.effects === 'read';
  // The title is the tool's own (Tool.title); annotations.title would repeat it in every listing.
  // destructiveHint means something only where readOnlyHint is false (the MCP spec), so reads leave it out.
  return reads ? { readOnlyHint: true, openWorldHint: false } : { readOnlyHint: false, destructiveHint: true, openWorldHint: false };
}

/** A tool outcome as an MCP result: the compact text, its structure where the tool has one (structuredResult.ts), isError on failure. */
export function toCallToolResult(outcome: Awaited<ReturnType<Session['runTool']>>): CallToolResult {
  if (!outcome.ok) return { content: [{ type: 'text', text: outcome.text }], isError: true };
  return { content: [{ type: 'text', text: outcome.text }], ...(outcome.structured ? { structuredContent: outcome.structured } : {}) };
}

export interface McpServerOptions {
  session: Session;
  tools: readonly McpTool[];
  version: string;
  /** Chooses the session's workspace before the first call (--cwd, else the client's first root). */
  workspace?: McpWorkspace;
  /** Learns which connection a call came on, so the permission policy can ask its client. */
  link?: McpClientLink;
  /** Asks for a missing permission with input_required (2026-07-28) and applies the answer on the retry. */
  rounds?: McpApprovalRounds;
  /** How long a read tool's call waits for a workspace load before answering `error loading` (mcpLoadWait.ts). */
  loadWaitSeconds?: number;
}

/** The factory serveStdio calls per connection (and per discarded server/discover probe). */
export function mcpServerFactory(options: McpServerOptions): () => McpServer {
  // Shared by every connection, as the session is: a call asked again on either era's connection joins the one left running.
  const reads = new RunningReads();
  const waiting: CallWaitState = { state: options.session.hostSession.state, loading: options.session.hostSession.loading, asking: () => options.session.askingThePerson };
  return () => {
    const server = new McpServer(
      { name: serverName, version: options.version },
      // The tool list never changes while the server runs.
      {
        capabilities: { tools: { listChanged: false } },
        cacheHints: { 'tools/list': { ttlMs: 3_600_000, cacheScope: 'private' } },
        // Every echoed requestState must be one this process signed (mcpInputRequired.ts).
        ...(options.rounds ? { requestState: { verify: options.rounds.verify } } : {}),
      },
    );
    const result = (outcome: Awaited<ReturnType<Session['runTool']>>) => toCallToolResult(outcome);
    for (const tool of options.tools) {
      server.registerTool(
        tool.name,
        { title: tool.definition.displayName, description: descriptionOn(tool.definition, mcpToolNames), inputSchema: advertisedInput(tool.definition), ...advertisedOutput(tool.definition), annotations: annotationsFor(tool.definition) },
        async (args: unknown, ctx) => {
          // The load wait counts from here: choosing the workspace and starting the host are inside it.
          const arrivedAt = Date.now();
          if (options.link) options.link.current = server;
          try {
            await options.workspace?.resolve(server);
          } catch (error) {
            // A client root that cannot be the workspace: the typed error, on every call (mcpWorkspace.ts).
            const typed = asToolError(error);
            return result({ ok: false, error: typed, text: typed.render() });
          }
          const progress = forwardLoadProgress(ctx.mcpReq._meta?.progressToken, options.session.host.onLoadProgress, (notification) => ctx.mcpReq.notify(notification));
          const waitSeconds = options.loadWaitSeconds ?? defaultLoadWaitSeconds;
          const answerBy = answerTimeOf(arrivedAt, waitSeconds);
          const key = callKey(tool.name, args);
          const call = (callId?: string) =>
            withinLoadWait(
              tool.definition,
              args,
              waiting,
              waitSeconds,
              () => reads.joinOrStart(key, () => options.session.runTool(tool.definition, args, ctx.mcpReq.signal, { answerBy, ...(callId ? { call: callId } : {}) })),
              arrivedAt,
              (running) => reads.keep(key, running),
            );
          try {
            return options.rounds ? await options.rounds.run(tool.name, args, ctx, call, result) : result(await call());
          } finally {
            progress.dispose();
          }
        },
      );
    }
    return server;
  };
}
