// Every tool SharpClaw offers, in the order agents see them. Each surface (LM tools, MCP, CLI)
// and the manifest generator read this list.
import type { AnyToolDefinition } from './toolDefinition';

export const allTools: readonly AnyToolDefinition[] = [];

export function findTool(name: string): AnyToolDefinition | undefined {
  return allTools.find((tool) => tool.name === name);
}
