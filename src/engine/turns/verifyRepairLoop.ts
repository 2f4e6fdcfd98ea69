// One agent turn with its verify-and-repair loop. The surface supplies the agent pass (the
// person's model, our tools, the turn's history) and the verifier; this file owns the rules:
//   - after a build-mode pass that recorded a source, project or build-input change, with
//     verification enabled, the configured scope is checked automatically;
//   - a build or test failure (only those) starts a repair pass with bounded repair input, while
//     the budget (maxRepairIterations, 0–5) lasts; the repairStarted event is appended before the
//     pass runs, so it consumes its attempt even if the pass never finishes;
//   - a cancelled or interrupted turn still finalizes its checkpoint, with its own bounded step.
// It knows nothing of VS Code.
import type { VerificationSettings } from '../config/verificationSettings';
import type { Diagnostic, VerificationReport } from '../verification/report';
import type { VerifyRequest } from '../verification/request';
import { automaticVerifyRequest, isRepairable, whyNoAutomaticCheck } from './automaticVerification';
import { repairInput } from './repairInput';
import { budgetFromEvents, type TurnEvent, type TurnEventSink, type TurnMode, type TurnVerdict, type Usage } from './turnEvents';
import type { Checkpoint, TurnRecorder } from './turnRecorder';

export type PassInput = { kind: 'initial'; prompt: string } | { kind: 'repair'; attempt: number; of: number; repairInput: string; report: VerificationReport };

export interface PassResult {
  /** Tokens the provider reported; undefined when it reported none (never invented). */
  usage?: Usage;
}

/** A pass whose provider failed: what it reported before failing (usually nothing). */
export class PassFailedError extends Error {
  constructor(
    message: string,
    readonly usage?: Usage,
  ) {
    super(message);
    this.name = 'PassFailedError';
  }
}

export interface TurnLoopOptions {
  turnId: string;
  mode: TurnMode;
  prompt: string;
  /** The resolved automatic-verification settings (request metadata over workspace over user). */
  settings: VerificationSettings;
  recorder: TurnRecorder;
  events: TurnEventSink;
  /** Runs one agent pass; writes it makes are recorded on `recorder` by the surface's tools. */
  runPass(input: PassInput, signal: AbortSignal): Promise<PassResult>;
  verify(request: VerifyRequest, signal: AbortSignal): Promise<VerificationReport>;
  /** Persists the checkpoint; called after every pass and once more to finalize. */
  saveCheckpoint(checkpoint: Checkpoint, signal: AbortSignal): Promise<void> | void;
  /** The build diagnostics when the turn started (the latest cached report's), if known. */
  baselineDiagnostics?: readonly Diagnostic[];
  /** Events of this same turn from before a restart: their consumed budget is kept. */
  recoveredEvents?: readonly TurnEvent[];
  signal: AbortSignal;
  /** Bound of the separate finalize step of a cancelled or interrupted turn (default 10 s). */
  finalizeTimeoutMs?: number;
  /** Progress for the response stream ("Verifying (affected)…"). */
  progress?: (message: string) => void;
}

export interface TurnOutcome {
  turnId: string;
  verdict: TurnVerdict;
  succeeded: boolean;
  summary: string;
  /** The last check's report (failed turns keep it). */
  report?: VerificationReport;
  checks: number;
  repairs: number;
  ceiling: number;
  /** Summed over passes that reported usage; null when none did. */
  usage: Usage | null;
  passesWithoutUsage: number;
  checkpoint: Checkpoint;
}

const verdictOfReport = (report: VerificationReport): TurnVerdict =>
  report.status === 'passed' ? 'passed' : report.status === 'skipped' ? 'skipped' : report.status === 'failed' ? 'failed' : report.status === 'cancelled' ? 'cancelled' : 'unverified';

export async function runTurnLoop(options: TurnLoopOptions): Promise<TurnOutcome> {
  const { turnId, recorder, events, signal } = options;
  const recovered = budgetFromEvents(options.recoveredEvents ?? [], options.settings.maxRepairIterations);
  const ceiling = recovered.ceiling;
  let repairs = recovered.consumed;
  let checks = 0;
  let pass = 0;
  let usage: Usage | null = null;
  let passesWithoutUsage = 0;
  let report: VerificationReport | undefined;
  if (!options.recoveredEvents?.some((event) => event.type === 'turnStarted')) {
    events.append({ type: 'turnStarted', turnId, mode: options.mode, prompt: options.prompt.slice(0, 500), maxRepairIterations: ceiling });
  }
  const recordedIds = new Set<string>();
  const appendMutations = () => {
    for (const mutation of recorder.recorded) {
      if (recordedIds.has(mutation.id)) continue;
      recordedIds.add(mutation.id);
      events.append({ type: 'mutationRecorded', turnId, mutationId: mutation.id, file: mutation.file, tool: mutation.tool, kind: mutation.kind });
    }
  };
  const addUsage = (reported: Usage | undefined) => {
    if (!reported) {
      passesWithoutUsage++;
      return;
    }
    usage = { inputTokens: (usage?.inputTokens ?? 0) + reported.inputTokens, outputTokens: (usage?.outputTokens ?? 0) + reported.outputTokens };
  };
  const runOnePass = async (input: PassInput): Promise<void> => {
    const index = pass++;
    try {
      const result = await options.runPass(input, signal);
      addUsage(result.usage);
      events.append({ type: 'passFinished', turnId, pass: index, usage: result.usage ?? null, error: null });
    } catch (error) {
      const reported = error instanceof PassFailedError ? error.usage : undefined;
      addUsage(reported);
      events.append({ type: 'passFinished', turnId, pass: index, usage: reported ?? null, error: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      appendMutations();
      await options.saveCheckpoint(recorder.checkpoint(), signal);
    }
  };
  const check = async (): Promise<VerificationReport> => {
    const request = automaticVerifyRequest(options.settings, recorder);
    const index = checks++;
    options.progress?.(`Verifying (${request.scope})…`);
    events.append({ type: 'verificationStarted', turnId, check: index, scope: request.scope });
    const result = await options.verify(request, signal);
    events.append({ type: 'verificationFinished', turnId, check: index, status: result.status, summary: result.summary });
    return result;
  };
  const finish = async (verdict: TurnVerdict, summary: string): Promise<TurnOutcome> => {
    // A separate bounded step: a cancelled turn's signal must not stop its edits being saved.
    const finalizeSignal = AbortSignal.timeout(options.finalizeTimeoutMs ?? 10_000);
    appendMutations();
    const checkpoint = { ...recorder.finalize(), ...(report ? { report } : {}) };
    try {
      await options.saveCheckpoint(checkpoint, finalizeSignal);
    } catch (error) {
      summary += ` Saving the turn's checkpoint failed: ${error instanceof Error ? error.message : String(error)}.`;
    }
    const succeeded = verdict === 'passed' || verdict === 'skipped' || verdict === 'notVerified';
    events.append({ type: 'turnFinished', turnId, verdict, succeeded, summary, checkpointId: checkpoint.id, mutations: checkpoint.mutations.length, repairs, usage, passesWithoutUsage });
    return { turnId, verdict, succeeded, summary, ...(report ? { report } : {}), checks, repairs, ceiling, usage, passesWithoutUsage, checkpoint };
  };

  try {
    await runOnePass({ kind: 'initial', prompt: options.prompt });
    const skip = whyNoAutomaticCheck(options.mode, options.settings, recorder);
    if (skip) return await finish('notVerified', skip);
    for (;;) {
      if (signal.aborted) return await finish('cancelled', 'The turn was cancelled; its edits are kept and can be undone with SharpClaw: Undo Last Turn.');
      report = await check();
      if (!isRepairable(report)) {
        const verdict = verdictOfReport(report);
        const why = verdict === 'unverified' ? ' No repair was tried: only build and test failures start one.' : '';
        return await finish(verdict, `${report.summary}${why}`);
      }
      if (repairs >= ceiling) {
        const tried = ceiling === 0 ? 'Repairs are off (maxRepairIterations 0).' : `${repairs} of ${ceiling} repairs used.`;
        return await finish('failed', `Verification failed: ${report.summary} ${tried}`);
      }
      repairs++;
      events.append({ type: 'repairStarted', turnId, attempt: repairs, of: ceiling });
      options.progress?.(`Repairing (${repairs} of ${ceiling})…`);
      await runOnePass({ kind: 'repair', attempt: repairs, of: ceiling, repairInput: repairInput(report, options.baselineDiagnostics), report });
    }
  } catch (error) {
    if (signal.aborted) return await finish('cancelled', 'The turn was cancelled; its edits are kept and can be undone with SharpClaw: Undo Last Turn.');
    return await finish('error', `The turn stopped: ${error instanceof Error ? error.message : String(error)}`);
  }
}
