// Registers every tool as a VS Code language-model tool. prepareInvocation has no side effects;
// invoke validates the input, runs the shared definition and returns its compact text. Errors
// become `error CODE: message` text, which is what agents read.
import * as vscode from 'vscode';
import type { AnyToolDefinition, ToolContext } from './toolDefinition';
import { asToolError } from './toolErrors';
import { parseToolInput } from './toolInput';

export type ToolContextFactory = (tool: AnyToolDefinition, signal: AbortSignal) => ToolContext;

export function toAbortSignal(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const subscription = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => subscription.dispose() };
}

export function registerLanguageModelTools(tools: readonly AnyToolDefinition[], makeContext: ToolContextFactory): vscode.Disposable[] {
  return tools.map((tool) =>
    vscode.lm.registerTool<Record<string, unknown>>(tool.name, {
      prepareInvocation(options) {
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
      },
      async invoke(options, token) {
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
      },
    }),
  );
}
