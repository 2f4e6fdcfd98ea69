// Every tool SharpClaw offers, in the order agents see them. Each surface (LM tools, MCP, CLI)
// and the manifest generator read this list.
import { bulkNavigateTool, navigateTool, symbolsTool } from './navigation/navigationTools';
import { editTool, renameSymbolTool } from './edits/editTools';
import { solutionInspectTool } from './solutionInspect/solutionInspectTool';
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
  renameSymbolTool,
  editTool,
  verifyWorkspaceTool,
];

export function findTool(name: string): AnyToolDefinition | undefined {
  return allTools.find((tool) => tool.name === name);
}
