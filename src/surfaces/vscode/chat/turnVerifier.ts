// The automatic check of a turn and /verify both run verify_workspace through vscode.lm.invokeTool
// with the request's toolInvocationToken (so the chat's confirmation and our permission policy
// apply, exactly as when a model calls it), and read back the typed report the tool published.
import * as vscode from 'vscode';
import type { VerificationReport } from '../../../engine/verification/report';
import type { VerifyArguments } from '../../../engine/verification/request';
import { verificationService } from '../../../engine/verification/verificationService';

export class VerificationNotRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VerificationNotRunError';
  }
}

export async function verifyThroughTool(input: VerifyArguments, toolInvocationToken: vscode.ChatParticipantToolToken | undefined, token: vscode.CancellationToken): Promise<VerificationReport> {
  let report: VerificationReport | undefined;
  const subscription = verificationService.onDidReport((published) => {
    report = published;
  });
  let text = '';
  try {
    const result = await vscode.lm.invokeTool('verify_workspace', { input, toolInvocationToken }, token);
    text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
  } catch (error) {
    if (!report) throw new VerificationNotRunError(`verify_workspace did not run: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    subscription.dispose();
  }
  if (!report) throw new VerificationNotRunError(text || 'verify_workspace returned no report.');
  return report;
}
