// Which tools the MCP server lists, in which order and set. Each tool's MCP name is its
// definition's (mcpName, else name: toolDefinition.ts), and text that names other tools is written
// for MCP's names by the engine itself (ToolNames), so the server serves the same tool, schema and
// answer as the LM tools and the CLI. The default set keeps an agent's tool list short.
import { mcpToolNames, type AnyToolDefinition } from '../../engine/tools/toolDefinition';
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
  /** The name MCP clients see: the definition's mcpName (roslyn-bridge-tools.md names the bridge tools), else its name. */
  name: string;
  definition: AnyToolDefinition;
  set: McpToolSet;
}

/** The bridge spec's eight tools, in the order clients list them. */
const defaultSet = [diagnosticsTool, navigateTool, bulkNavigateTool, symbolsTool, editTool, lspTool, solutionInspectTool, verifyWorkspaceTool];

/**
 * The extras of `--tools all`. The syntax-only searches (issue 17) are here, not in `default`, which is the
 * bridge spec's eight tools under a tools/list byte budget; `symbols` already answers name queries there.
 */
const extraSet = [symbolResolveTool, findReferencesTool, typeHierarchyTool, renameSymbolTool, symbolSearchTool, workspaceSearchTool];

/** Every MCP tool in listing order; `default` first, then the extras of `--tools all`. */
export const mcpTools: readonly McpTool[] = [
  ...defaultSet.map((definition) => ({ name: mcpToolNames.of(definition), definition, set: 'default' as const })),
  ...extraSet.map((definition) => ({ name: mcpToolNames.of(definition), definition, set: 'all' as const })),
];

/** The tools of one set, in listing order. */
export function mcpToolsFor(set: McpToolSet): McpTool[] {
  return mcpTools.filter((tool) => set === 'all' || tool.set === 'default');
}
