// The one pipeline every surface runs a tool through (VS Code's LM tools, `sharpclaw tool`, the
// MCP server): parse the input (toolInput.ts) → invoke the definition → render its compact text
// (naming other tools as the calling surface serves them), or turn whatever went wrong into a typed
// ToolError with its text. The answer and its structure (what MCP sends as structuredContent and the
// CLI as JSON data: structuredResult.ts) fit one byte budget for the whole result (wholeResult.ts).
// Surfaces only print or wrap the outcome.
import { toolNamesOn, type AnyToolDefinition, type ToolContext } from './toolDefinition';
import { asToolError, type ToolError } from '../errors';
import { parseToolInput } from './toolInput';
import { fitAnswer } from './wholeResult';
import { solutionInspectToolName } from './structuredResult';

/** `data` is the typed result (for callers in this process); `structured` is what a client is sent beside `text`. */
export type ToolOutcome = { ok: true; text: string; data: unknown; structured?: Record<string, unknown> | undefined } | { ok: false; error: ToolError; text: string };

/** Runs `tool` on `rawInput`; never throws. `context` is made only once the input is valid. */
export async function runTool(tool: AnyToolDefinition, rawInput: unknown, context: ToolContext | (() => ToolContext)): Promise<ToolOutcome> {
  try {
    const input: unknown = parseToolInput(tool, rawInput);
    const made = typeof context === 'function' ? context() : context;
    const data: unknown = await tool.invoke(input, made);
    const names = toolNamesOn(made.surface);
    const answer = fitAnswer(tool, data, { workspaceFolder: made.workspaceFolder, names, solutionInspect: names.of({ name: solutionInspectToolName }) });
    return { ok: true, text: answer.text, data, ...(answer.structured ? { structured: answer.structured } : {}) };
  } catch (error) {
    const typed = asToolError(error);
    return { ok: false, error: typed, text: typed.render() };
  }
}
