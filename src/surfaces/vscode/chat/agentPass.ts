// One agent pass of an @sharpclaw turn: the person's chosen model in a tool-calling loop. Our LM
// tools run through vscode.lm.invokeTool with the request's toolInvocationToken, so VS Code's
// confirmations and our permission policy apply; edit_file runs here and reports its write.
// Text streams into the chat response as it arrives.
import * as vscode from 'vscode';
import { findTool } from '../../../engine/tools/registry';
import type { TurnMode } from '../../../engine/turns/turnEvents';
import { editFileTool, editFileToolName, type EditFileWrite } from './editFileTool';

/** At most this many model round trips per pass: a model that keeps calling tools stops here. */
const maxRounds = 24;

export interface AgentPassOptions {
  model: vscode.LanguageModelChat;
  /** The conversation so far; the pass appends its messages (the next pass continues it). */
  messages: vscode.LanguageModelChatMessage[];
  mode: TurnMode;
  toolInvocationToken: vscode.ChatParticipantToolToken | undefined;
  stream: vscode.ChatResponseStream;
  token: vscode.CancellationToken;
  runEditFile(input: unknown): Promise<{ text: string; write?: EditFileWrite }>;
}

/** The tools a mode offers: build mode can edit; plan, spec and research only read. */
export function toolsFor(mode: TurnMode): vscode.LanguageModelChatTool[] {
  const ours = vscode.lm.tools.filter((tool) => {
    const definition = findTool(tool.name);
    if (!definition) return false;
    return mode === 'build' || definition.effects === 'read';
  });
  const offered: vscode.LanguageModelChatTool[] = ours.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema ?? {} }));
  return mode === 'build' ? [...offered, editFileTool] : offered;
}

export async function runAgentPass(options: AgentPassOptions): Promise<void> {
  const tools = toolsFor(options.mode);
  for (let round = 0; round < maxRounds; round++) {
    if (options.token.isCancellationRequested) throw new vscode.CancellationError();
    const response = await options.model.sendRequest(options.messages, { tools }, options.token);
    const calls: vscode.LanguageModelToolCallPart[] = [];
    let text = '';
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) {
        text += part.value;
        options.stream.markdown(part.value);
      } else if (part instanceof vscode.LanguageModelToolCallPart) {
        calls.push(part);
      }
    }
    options.messages.push(vscode.LanguageModelChatMessage.Assistant([...(text ? [new vscode.LanguageModelTextPart(text)] : []), ...calls]));
    if (calls.length === 0) return;
    const results: vscode.LanguageModelToolResultPart[] = [];
    for (const call of calls) {
      let content: vscode.LanguageModelTextPart[];
      if (call.name === editFileToolName && options.mode === 'build') {
        const result = await options.runEditFile(call.input);
        options.stream.progress(result.text);
        content = [new vscode.LanguageModelTextPart(result.text)];
      } else if (!tools.some((tool) => tool.name === call.name)) {
        content = [new vscode.LanguageModelTextPart(`error invalid_request: the tool ${call.name} is not offered in ${options.mode} mode.`)];
      } else {
        try {
          const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: options.toolInvocationToken }, options.token);
          content = result.content.filter((part): part is vscode.LanguageModelTextPart => part instanceof vscode.LanguageModelTextPart);
        } catch (error) {
          if (options.token.isCancellationRequested) throw error;
          content = [new vscode.LanguageModelTextPart(`error tool_failed: ${error instanceof Error ? error.message : String(error)}`)];
        }
      }
      results.push(new vscode.LanguageModelToolResultPart(call.callId, content));
    }
    options.messages.push(vscode.LanguageModelChatMessage.User(results));
  }
  options.stream.markdown(`\n\n(Stopped after ${maxRounds} model round trips in one pass.)`);
}
