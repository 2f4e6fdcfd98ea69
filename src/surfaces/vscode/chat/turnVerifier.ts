// The automatic check of a turn and /verify both run verify_workspace through vscode.lm.invokeTool
// with the request's toolInvocationToken (so the chat's confirmation and our permission policy
// apply, exactly as when a model calls it), and get back the typed report of that very call from
// the tool adapter (turnVerifications.ts), never whichever report the session publishes next.
import * as vscode from 'vscode';
import type { VerificationReport } from '../../../engine/verification/report';
import type { VerifyArguments } from '../../../engine/verification/request';
import type { TurnVerifications } from './turnVerifications';

export class VerificationNotRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerificationNotRunError';
  }
}

export async function verifyThroughTool(
  input: VerifyArguments,
  toolInvocationToken: vscode.ChatParticipantToolToken | undefined,
  token: vscode.CancellationToken,
  verifications: TurnVerifications,
): Promise<VerificationReport> {
  let wait;
  try {
    wait = verifications.expect(toolInvocationToken);
  } catch (error) {
    throw new VerificationNotRunError(`verify_workspace did not run: ${error instanceof Error ? error.message : String(error)}`);
  }
  let text = '';
  try {
    const result = await vscode.lm.invokeTool('verify_workspace', { input, toolInvocationToken }, token);
    text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
  } catch (error) {
    if (!wait.report) throw new VerificationNotRunError(`verify_workspace did not run: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    wait.dispose();
  }
  if (!wait.report) throw new VerificationNotRunError(text || 'verify_workspace returned no report.');
  return wait.report;
}
