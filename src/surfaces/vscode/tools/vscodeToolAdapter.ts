// Runs the shared tool definitions as VS Code language-model tools. prepareInvocation has no
// side effects; invoke validates the input, runs the definition and returns its compact text.
// Errors become `error CODE: message` text, which is what agents read. (extension.ts registers
// the tools named in package.json and calls these lazily.)
import * as vscode from 'vscode';
import type { AnyToolDefinition, ToolContext } from '../../../engine/tools/toolDefinition';
import { asToolError } from '../../../engine/errors';
import { parseToolInput } from '../../../engine/tools/toolInput';

export type ToolContextFactory = (tool: AnyToolDefinition, signal: AbortSignal) => ToolContext;

export function toAbortSignal(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const subscription = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => subscription.dispose() };
}

type ToolOptions = { input: unknown };

/** prepareInvocation of one tool: no side effects, only what a confirmation should show. */
export function prepareToolInvocation(tool: AnyToolDefinition, options: ToolOptions): vscode.PreparedToolInvocation {
  let confirmation;
  try {
    confirmation = tool.confirmation?.(parseToolInput(tool, options.input));
  } catch {
    confirmation = undefined; // invoke reports the invalid input
  }
  return {
    invocationMessage: `${tool.displayName}…`,
    ...(confirmation ? { confirmationMessages: { title: confirmation.title, message: new vscode.MarkdownString(confirmation.message) } } : {}),
  };
}

/** invoke of one tool: validate, run the shared definition, return its compact text (or the error text). */
export async function invokeTool(tool: AnyToolDefinition, options: ToolOptions, token: vscode.CancellationToken, makeContext: ToolContextFactory): Promise<vscode.LanguageModelToolResult> {
  const abort = toAbortSignal(token);
  try {
    const input = parseToolInput(tool, options.input);
    const result = await tool.invoke(input, makeContext(tool, abort.signal));
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(tool.render(result))]);
  } catch (error) {
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(asToolError(error).render())]);
  } finally {
    abort.dispose();
  }
}
