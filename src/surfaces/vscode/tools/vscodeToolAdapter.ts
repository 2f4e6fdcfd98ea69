// Runs the shared tool definitions as VS Code language-model tools. prepareInvocation has no
// side effects; invoke runs the call through the session's runTool() and returns its compact
// text — `error CODE: message` when it failed, which is what agents read. A verification an
// @sharpclaw turn is waiting on (its chat session's token, chat/turnVerifications.ts) hands its
// report to that turn. (extension.ts registers the tools named in package.json and calls these lazily.)
import * as vscode from 'vscode';
import type { Session } from '../../../engine/session';
import type { AnyToolDefinition } from '../../../engine/tools/toolDefinition';
import { parseToolInput } from '../../../engine/tools/toolInput';
import type { TurnVerifications } from '../chat/turnVerifications';

export function toAbortSignal(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const subscription = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => subscription.dispose() };
}

type ToolOptions = { input: unknown; toolInvocationToken?: unknown };

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

/** invoke of one tool: the shared pipeline, its text (or the error's text) as the result. */
export async function invokeTool(session: Session, tool: AnyToolDefinition, options: ToolOptions, token: vscode.CancellationToken, turns?: TurnVerifications): Promise<vscode.LanguageModelToolResult> {
  const abort = toAbortSignal(token);
  try {
    const toTurn = tool.effects === 'build' ? turns?.claim(options.toolInvocationToken) : undefined;
    const outcome = await session.runTool(tool, options.input, abort.signal, toTurn ? { onVerificationReport: toTurn } : undefined);
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(outcome.text)]);
  } finally {
    abort.dispose();
  }
}
