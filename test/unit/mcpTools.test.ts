// The MCP tool list and how the server publishes it (src/surfaces/mcp/), over the SDK's in-memory
// transport with the official client: every MCP name is its registry definition's, text names other
// tools by the names MCP serves, the default
// set is the bridge spec's eight, annotations follow each definition's effects, host tools publish
// their result schema, the whole listing is the recorded one (test/host-answers/mcp-tools-list.json),
// and input errors are the engine's (no host is started for them).
import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { StdioHostTransport } from '../../src/engine/host/hostProcess';
import { Session } from '../../src/engine/session';
import { allTools, bridgeOnlyTools } from '../../src/engine/tools/registry';
import { CliPermissionPolicy } from '../../src/surfaces/cli/cliPermissionPolicy';
import { mcpServerFactory } from '../../src/surfaces/mcp/mcpServer';
import { mcpTools, mcpToolsFor } from '../../src/surfaces/mcp/mcpTools';
import { publishedInputSchema } from '../../src/surfaces/mcp/mcpSchemas';
import { descriptionOn, mcpToolNames } from '../../src/engine/tools/toolDefinition';
import { bulkNavigateTool } from '../../src/engine/tools/navigation/navigationTools';
import { renderEdit } from '../../src/engine/tools/edits/renderEdits';
import type { EditResult } from '../../src/engine/protocol/edits';
import { syntaxOnlyLineFor } from '../../src/engine/tools/store/renderStore';
import { structureSchema } from '../../src/engine/tools/structuredResult';
import { checkMcpListing } from '../support/hostAnswers';

describe('the MCP tool table', () => {
  it('names the other tools as this server serves them (navigate, not csharp_navigate), in descriptions, input schemas and answers', () => {
    assert.equal(bulkNavigateTool.mcpName, 'bulk_navigate');
    assert.match(descriptionOn(bulkNavigateTool, mcpToolNames), /^Run 1 to 16 navigate queries/);
    assert.match(bulkNavigateTool.modelDescription, /^Run 1 to 16 csharp_navigate queries/);
    // No MCP text names a tool by a name MCP does not serve it under.
    const lmOnly = mcpTools.filter((tool) => tool.name !== tool.definition.name).map((tool) => new RegExp(`\\b${tool.definition.name}\\b`));
    for (const tool of mcpTools) {
      const published = `${descriptionOn(tool.definition, mcpToolNames)}\n${JSON.stringify(publishedInputSchema(tool.definition))}`;
      for (const name of lmOnly) assert.doesNotMatch(published, name, tool.name);
    }
    // Answers: a receipt whose check was skipped, and the syntax-only searches' first line.
    const receipt: EditResult = { kind: 'applied', proposalId: null, operations: [], actions: null, hiddenActions: 0, refreshed: true, diagnostics: { files: 300, skippedAbove: 128, items: [] } };
    assert.match(renderEdit(receipt, mcpToolNames), /run diagnostics on them/);
    assert.match(renderEdit(receipt), /run csharp_diagnostics on them/);
    assert.match(syntaxOnlyLineFor(mcpToolNames), /use navigate \/ csharp_symbol_resolve\.$/);
  });

  it('maps each MCP name to one registry definition, the bridge names first', () => {
    assert.deepEqual(mcpToolsFor('default').map((tool) => tool.name), ['diagnostics', 'navigate', 'bulk_navigate', 'symbols', 'edit', 'lsp', 'dotnet_solution_inspect', 'verify_workspace']);
    assert.equal(mcpToolsFor('all').length, 14);
    assert.equal(new Set(mcpTools.map((tool) => tool.name)).size, mcpTools.length);
    assert.equal(new Set(mcpTools.map((tool) => tool.definition)).size, mcpTools.length);
    const registry = [...allTools, ...bridgeOnlyTools];
    for (const tool of mcpTools) assert.ok(registry.includes(tool.definition), tool.name);
    assert.equal(mcpTools.length, registry.length, 'every registry tool has an MCP name');
  });

  it('publishes annotations from effects and output schemas, and answers input errors without a host', async () => {
    const permissions = new CliPermissionPolicy({ mode: 'workspace-write', allowEvaluation: false, allowShell: false, allowWrite: false });
    // Never started: nothing here reaches the host.
    const session = new Session({ surface: 'mcp', workspaceFolder: () => process.cwd(), permissions, transport: new StdioHostTransport({ serverDll: '/nonexistent/SharpClaw.Server.dll' }) });
    const server = mcpServerFactory({ session, tools: mcpToolsFor('all'), version: '0.0.0' })();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'unit', version: '1' });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      // The listing every MCP client reads is the recorded one (host-e2e checks the stdio server against the same file).
      checkMcpListing(tools, 'in memory');
      for (const listed of tools) {
        const definition = mcpTools.find((tool) => tool.name === listed.name)!.definition;
        const reads = definition.effects === 'read';
        assert.equal(listed.title, definition.displayName, listed.name);
        assert.deepEqual(listed.annotations, reads ? { readOnlyHint: true, openWorldHint: false } : { readOnlyHint: false, destructiveHint: true, openWorldHint: false }, listed.name);
        assert.equal(listed.description, descriptionOn(definition, mcpToolNames));
        assert.equal(listed.outputSchema?.type, structureSchema(definition) ? 'object' : undefined, listed.name);
      }
      const result = await client.callTool({ name: 'symbols', arguments: { query: 'X', allowEvaluation: true } });
      assert.equal(result.isError, true);
      assert.match((result.content as Array<{ text: string }>)[0]!.text, /^error invalid_request: unknown argument "allowEvaluation"\. Valid arguments: file, query, project/);
      assert.equal(session.host.state.kind, 'stopped');
    } finally {
      await client.close();
      session.dispose();
    }
  });
});
