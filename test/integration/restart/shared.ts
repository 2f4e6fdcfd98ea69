// What both sessions of the restart suite use: a tool call through vscode.lm.invokeTool, as an agent makes it.
import * as vscode from 'vscode';

export async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

export const inspectHeader = /^target: Calculator\.slnx \(Debug\), 3 projects, load complete(, from approved snapshot)?$/m;
