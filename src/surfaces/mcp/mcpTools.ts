// The one table of MCP tool names: each bridge-spec name maps to the engine's definition (the
// registry), so MCP clients get the same tool, schema and answer as the LM tools and the CLI. Order
// is the order clients list them in; the default set keeps an agent's tool list short.
import type { AnyToolDefinition } from '../../engine/tools/toolDefinition';
import { bulkNavigateTool, navigateTool, symbolsTool } from '../../engine/tools/navigation/navigationTools';
import { editTool, renameSymbolTool } from '../../engine/tools/edits/editTools';
import { lspTool } from '../../engine/tools/lsp/lspTool';
import { solutionInspectTool } from '../../engine/tools/solutionInspect/solutionInspectTool';
import { symbolSearchTool, workspaceSearchTool } from '../../engine/tools/store/storeTools';
import { diagnosticsTool } from '../../engine/tools/symbols/diagnosticsTool';
import { findReferencesTool, symbolResolveTool, typeHierarchyTool } from '../../engine/tools/symbols/symbolTools';
import { verifyWorkspaceTool } from '../../engine/tools/verifyWorkspace/verifyWorkspaceTool';

export type McpToolSet = 'default' | 'all';
export const mcpToolSets: readonly McpToolSet[] = ['default', 'all'];

export interface McpTool {
  /** The name MCP clients see (roslyn-bridge-tools.md names the bridge tools). */
  name: string;
  definition: AnyToolDefinition;
  set: McpToolSet;
}

/** Every MCP tool in listing order; `default` first, then the extras of `--tools all`. */
export const mcpTools: readonly McpTool[] = [
  { name: 'diagnostics', definition: diagnosticsTool, set: 'default' },
  { name: 'navigate', definition: navigateTool, set: 'default' },
  { name: 'bulk_navigate', definition: bulkNavigateTool, set: 'default' },
  { name: 'symbols', definition: symbolsTool, set: 'default' },
  { name: 'edit', definition: editTool, set: 'default' },
  { name: 'lsp', definition: lspTool, set: 'default' },
  { name: 'dotnet_solution_inspect', definition: solutionInspectTool, set: 'default' },
  { name: 'verify_workspace', definition: verifyWorkspaceTool, set: 'default' },
  { name: 'csharp_symbol_resolve', definition: symbolResolveTool, set: 'all' },
  { name: 'csharp_find_references', definition: findReferencesTool, set: 'all' },
  { name: 'csharp_type_hierarchy', definition: typeHierarchyTool, set: 'all' },
  { name: 'csharp_rename_symbol', definition: renameSymbolTool, set: 'all' },
  // Syntax-only searches (issue 17): in `all`, not `default`, which is the bridge spec's eight tools under
  // a tools/list byte budget; `symbols` already answers name queries there.
  { name: 'symbol_search', definition: symbolSearchTool, set: 'all' },
  { name: 'workspace_search', definition: workspaceSearchTool, set: 'all' },
];

/** The tools of one set, in listing order. */
export function mcpToolsFor(set: McpToolSet): McpTool[] {
  return mcpTools.filter((tool) => set === 'all' || tool.set === 'default');
}

/**
 * Renames the tools a text mentions by their LM tool names (csharp_navigate) to the names this server
 * serves them under (navigate): descriptions and answers say "run csharp_diagnostics" on every surface,
 * and an MCP agent has no tool of that name.
 */
export function mcpToolMentions(tools: readonly McpTool[]): (text: string) => string {
  const renamed = new Map(tools.filter((tool) => tool.name !== tool.definition.name).map((tool) => [tool.definition.name, tool.name]));
  if (renamed.size === 0) return (text) => text;
  const mention = new RegExp(`\\b(${[...renamed.keys()].join('|')})\\b`, 'g');
  return (text) => text.replace(mention, (name) => renamed.get(name) ?? name);
}
