// Every tool SharpClaw offers, in the order agents see them. Each surface (LM tools, MCP, CLI)
// and the manifest generator read this list.
import { bulkNavigateTool, navigateTool, symbolsTool } from './navigation/navigationTools';
import { editTool, renameSymbolTool } from './edits/editTools';
import { lspTool } from './lsp/lspTool';
import { solutionInspectTool } from './solutionInspect/solutionInspectTool';
import { symbolSearchTool, workspaceSearchTool } from './store/storeTools';
import { diagnosticsTool } from './symbols/diagnosticsTool';
import { findReferencesTool, symbolResolveTool, typeHierarchyTool } from './symbols/symbolTools';
import type { AnyToolDefinition } from './toolDefinition';
import { verifyWorkspaceTool } from './verifyWorkspace/verifyWorkspaceTool';

export const allTools: readonly AnyToolDefinition[] = [
  solutionInspectTool,
  symbolResolveTool,
  findReferencesTool,
  typeHierarchyTool,
  diagnosticsTool,
  navigateTool,
  bulkNavigateTool,
  symbolsTool,
  symbolSearchTool,
  workspaceSearchTool,
  renameSymbolTool,
  editTool,
  verifyWorkspaceTool,
];

/**
 * Tools of the bridge (MCP) surface only: `lsp` drives the host session and raw LSP requests, which
 * VS Code's own C# language server and our commands already give a person there.
 */
export const bridgeOnlyTools: readonly AnyToolDefinition[] = [lspTool];

export function findTool(name: string): AnyToolDefinition | undefined {
  return allTools.find((tool) => tool.name === name);
}
