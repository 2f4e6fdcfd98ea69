// The rules of the automatic check after an agent turn: when it runs, what request it runs, and
// which outcomes a repair pass may answer. One definition, used by the loop and its tests.
import * as path from 'node:path';
import type { VerificationSettings } from '../config/verificationSettings';
import { resolveAutomaticVerifyRequest } from '../config/settings';
import type { VerifyRequest } from '../verification/request';
import type { VerificationReport } from '../verification/report';
import type { TurnMode } from './turnEvents';
import type { TurnRecorder } from './turnRecorder';

/** Why a finished pass is (or is not) checked automatically; undefined when it is. */
export function whyNoAutomaticCheck(mode: TurnMode, settings: VerificationSettings, recorder: TurnRecorder): string | undefined {
  if (mode !== 'build') return `/${mode} turns are never verified.`;
  if (!settings.enabled) return 'Automatic verification is off (sharpclaw.verification.enabled).';
  if (!settings.runAfterMutatingTurn) return 'Automatic verification after a turn is off (verification.runAfterMutatingTurn).';
  if (!recorder.hasVerifiableMutation) return 'The turn recorded no source, project or build-input change.';
  return undefined;
}

/**
 * The automatic check's request: the configured scope (affected: the turn's changed files), the
 * restore setting, and the automatic timeout (600 s by default) per step and for the lock.
 */
export function automaticVerifyRequest(settings: VerificationSettings, recorder: TurnRecorder): VerifyRequest {
  const changedFiles = recorder.changedFiles.map((file) => path.relative(recorder.workspaceFolder, file));
  return resolveAutomaticVerifyRequest(settings.scope === 'affected' ? { changedFiles } : {}, settings);
}

/** Only build and test failures start a repair; denial, missing prerequisites, skips, timeouts and cancellation never do. */
export function isRepairable(report: VerificationReport): boolean {
  return report.status === 'failed';
}
