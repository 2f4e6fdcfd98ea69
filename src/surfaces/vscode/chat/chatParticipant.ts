// @sharpclaw, the chat participant: runs an agent turn with the model the person picked, our
// tools and edit_file, then (build mode) the engine's verify-and-repair loop; /plan, /spec and
// /research only read and never verify; /verify [options] runs verify_workspace with the CLI's
// option parsing. Requests run one at a time (a TurnQueue); the prompt carries the cached build
// diagnostics. Progress and the verdict stream into the response; every lifecycle event is
// appended to the workspace's turn log.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { VerificationSettings } from '../../../engine/config/verificationSettings';
import type { PermissionPolicy } from '../../../engine/permissions/permissionPolicy';
import { renderReport } from '../../../engine/verification/renderReport';
import type { VerificationReport } from '../../../engine/verification/report';
import { parseVerifyCommandLine, splitCommandLine } from '../../../engine/verification/request';
import { promptDiagnostics } from '../../../engine/turns/promptDiagnostics';
import { TurnQueue, TurnWaitCancelledError } from '../../../engine/turns/turnQueue';
import { TurnRecorder } from '../../../engine/turns/turnRecorder';
import type { TurnMode } from '../../../engine/turns/turnEvents';
import { verdictHeading } from '../../../engine/turns/turnSchemas';
import { runTurnLoop, type TurnOutcome } from '../../../engine/turns/verifyRepairLoop';
import { toAbortSignal } from '../tools/vscodeToolAdapter';
import { runAgentPass } from './agentPass';
import { runEditFile } from './editFileTool';
import type { TurnRecording } from './turnRecording';
import type { TurnStorage } from './turnStorage';
import { verifyThroughTool } from './turnVerifier';
import type { TurnVerifications } from './turnVerifications';

export interface ParticipantOptions {
  storage: TurnStorage;
  recording: TurnRecording;
  permissions: PermissionPolicy;
  workspaceFolder: () => string | undefined;
  /** Where the tool adapter hands each turn the report of its own verify_workspace call. */
  verifications: TurnVerifications;
  /** The session's resolved sharpclaw.verification.* settings (throws on an invalid value). */
  settings: () => VerificationSettings;
  /** The session's latest report whose build ran, for the prompt's cached diagnostics. */
  lastBuildReport: () => VerificationReport | undefined;
}

const modeInstructions: Record<TurnMode, string> = {
  build: 'You are @sharpclaw, a C# coding agent. Make the requested change with the tools (edit files with sharpclaw_edit_file; use the csharp_* tools for exact answers). Your edits are built and tested automatically after your turn.',
  plan: 'You are @sharpclaw in plan mode: read the code with the tools and write a step-by-step plan. Do not edit files.',
  spec: 'You are @sharpclaw in spec mode: read the code with the tools and write a specification of the change. Do not edit files.',
  research: 'You are @sharpclaw in research mode: answer the question from the code, with the tools. Do not edit files.',
};

/** The earlier turns of this chat, as messages, so a repair and a new prompt keep the history. */
function historyMessages(context: vscode.ChatContext): vscode.LanguageModelChatMessage[] {
  const messages: vscode.LanguageModelChatMessage[] = [];
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) messages.push(vscode.LanguageModelChatMessage.User(turn.prompt));
    else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : '')).join('');
      if (text) messages.push(vscode.LanguageModelChatMessage.Assistant(text));
    }
  }
  return messages;
}

function verdictMarkdown(outcome: TurnOutcome): string {
  const lines = [`\n\n**${verdictHeading(outcome.verdict, outcome.repairs)}**. ${outcome.summary}`];
  if (outcome.report && !outcome.succeeded) lines.push('', '```text', renderReport(outcome.report), '```');
  return lines.join('\n');
}

/** The participant's request handler (extension.ts registers the participant and calls this lazily). */
export function createChatHandler(options: ParticipantOptions): vscode.ChatRequestHandler {
  // One turn (or /verify) at a time in this window: a request sent while one runs waits its place.
  const queue = new TurnQueue();

  const handler: vscode.ChatRequestHandler = async (request, context, stream, token) => {
    const workspaceFolder = options.workspaceFolder();
    if (!workspaceFolder) {
      stream.markdown('Open a folder with a .NET solution or project first.');
      return { errorDetails: { message: 'No workspace folder is open.' } };
    }
    const abort = toAbortSignal(token);
    try {
      return await queue.run(
        abort.signal,
        () => stream.progress('Waiting for the running @sharpclaw turn to finish…'),
        () => (request.command === 'verify' ? verifyCommand(request, stream, token) : agentTurn(request, context, stream, token, workspaceFolder, abort.signal)),
      );
    } catch (error) {
      if (!(error instanceof TurnWaitCancelledError)) throw error;
      stream.markdown(error.message);
      return { errorDetails: { message: error.message } };
    } finally {
      abort.dispose();
    }
  };

  async function agentTurn(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken, workspaceFolder: string, signal: AbortSignal): Promise<vscode.ChatResult> {
    const mode: TurnMode = request.command === 'plan' || request.command === 'spec' || request.command === 'research' ? request.command : 'build';
    let settings;
    try {
      settings = options.settings();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      stream.markdown(message);
      return { errorDetails: { message } };
    }
    const turnId = randomUUID().replace(/-/g, '');
    const recorder = new TurnRecorder(turnId, workspaceFolder);
    const recording = options.recording.begin(recorder);
    // Prompt assembly builds nothing: it passes on the latest cached build result, when there is one.
    const lastBuild = options.lastBuildReport();
    const cachedBuild = lastBuild?.workspaceFolder === workspaceFolder ? lastBuild : undefined;
    const cachedDiagnostics = promptDiagnostics(cachedBuild, workspaceFolder);
    const messages = [vscode.LanguageModelChatMessage.User(modeInstructions[mode]), ...historyMessages(context), ...(cachedDiagnostics ? [vscode.LanguageModelChatMessage.User(cachedDiagnostics)] : [])];
    try {
      const outcome = await runTurnLoop({
        turnId,
        mode,
        prompt: request.prompt,
        settings,
        recorder,
        events: options.storage.events,
        signal,
        ...(cachedBuild?.build ? { baselineDiagnostics: cachedBuild.build.diagnostics } : {}),
        progress: (message) => stream.progress(message),
        runPass: async (input) => {
          messages.push(vscode.LanguageModelChatMessage.User(input.kind === 'initial' ? input.prompt : input.repairInput));
          await runAgentPass({
            model: request.model,
            messages,
            mode,
            toolInvocationToken: request.toolInvocationToken,
            stream,
            token,
            runEditFile: async (args) => {
              const result = await runEditFile(args, { workspaceFolder, permissions: options.permissions, signal });
              if (result.write) options.recording.record('sharpclaw_edit_file', result.write.file, result.write.before, result.write.after);
              return result;
            },
          });
          // The stable API reports no token usage: none is reported rather than an invented number.
          return {};
        },
        verify: (verifyRequest) => verifyThroughTool(verifyRequest, request.toolInvocationToken, token, options.verifications),
        saveCheckpoint: (checkpoint) => options.storage.checkpoints.save(checkpoint),
      });
      stream.markdown(verdictMarkdown(outcome));
      if (outcome.checkpoint.mutations.length > 0) stream.button({ command: 'sharpclaw.undoLastTurn', title: 'Undo Last Turn' });
      stream.button({ command: 'sharpclaw.openSidebar', title: 'Show in SharpClaw sidebar' });
      return {
        metadata: { turnId, verdict: outcome.verdict, succeeded: outcome.succeeded, repairs: outcome.repairs, checks: outcome.checks },
        ...(outcome.succeeded ? {} : { errorDetails: { message: outcome.summary } }),
      };
    } finally {
      recording.dispose();
    }
  }

  async function verifyCommand(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    let args;
    try {
      args = parseVerifyCommandLine(splitCommandLine(request.prompt));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      stream.markdown(`/verify: ${message}`);
      return { errorDetails: { message } };
    }
    stream.progress(`Verifying (${args.scope ?? 'from the settings'})…`);
    try {
      const report = await verifyThroughTool(args, request.toolInvocationToken, token, options.verifications);
      stream.markdown(['```text', renderReport(report), '```'].join('\n'));
      stream.button({ command: 'sharpclaw.openSidebar', title: 'Show in SharpClaw sidebar' });
      const failed = report.status !== 'passed' && report.status !== 'skipped';
      return { metadata: { verify: report.status }, ...(failed ? { errorDetails: { message: report.summary } } : {}) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      stream.markdown(message);
      return { errorDetails: { message } };
    }
  }

  return handler;
}
