// Every tool SharpClaw offers, in the order agents see them. Each surface (LM tools, MCP, CLI)
// and the manifest generator read this list.
import { solutionInspectTool } from './solutionInspect/solutionInspectTool';
import type { AnyToolDefinition } from './toolDefinition';
import { verifyWorkspaceTool } from './verifyWorkspace/verifyWorkspaceTool';

export const allTools: readonly AnyToolDefinition[] = [solutionInspectTool, verifyWorkspaceTool];

export function findTool(name: string): AnyToolDefinition | undefined {
  return allTools.find((tool) => tool.name === name);
}
