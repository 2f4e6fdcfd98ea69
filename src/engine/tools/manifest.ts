// The languageModelTools contribution and its activation events, generated from the tool
// definitions. `npm run generate:manifest` writes them into package.json; a unit test fails when
// package.json is stale.
import { structureSchema } from './structuredResult';
import { z } from 'zod';
import type { AnyToolDefinition } from './toolDefinition';

export interface LanguageModelToolContribution {
  name: string;
  displayName: string;
  modelDescription: string;
  userDescription: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: boolean;
  icon: string;
  tags: string[];
  inputSchema: Record<string, unknown>;
}

export function inputJsonSchema(tool: AnyToolDefinition): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** The JSON Schema of what the tool returns, where its definition has one (MCP's output schema). */
/** The JSON Schema of what a tool sends beside its text (structuredResult.ts), where it sends anything. */
export function outputJsonSchema(tool: AnyToolDefinition): Record<string, unknown> | undefined {
  const structure = structureSchema(tool);
  if (!structure) return undefined;
  const schema = z.toJSONSchema(structure, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

export function languageModelToolContributions(tools: readonly AnyToolDefinition[]): LanguageModelToolContribution[] {
  return tools.map((tool) => ({
    name: tool.name,
    displayName: tool.displayName,
    modelDescription: tool.modelDescription,
    userDescription: tool.userDescription,
    toolReferenceName: tool.referenceName,
    canBeReferencedInPrompt: true,
    icon: '$(symbol-class)',
    tags: tool.tags,
    inputSchema: inputJsonSchema(tool),
  }));
}

export function toolActivationEvents(tools: readonly AnyToolDefinition[]): string[] {
  return tools.map((tool) => `onLanguageModelTool:${tool.name}`);
}
