// The verification runner: one plain module for the extension host, the CLI and the MCP server
// (Session.verify is its one caller outside tests). Order of work: find the target (the host's
// sharpclaw/resolveTarget, files only) → ask the permission policy (no project code has run yet)
// → take the workspace lock → the steps, each in its own file under steps/, each adding its
// section to the report or stopping the run with a finished report: SDK check beside evaluate
// (the host's sharpclaw/projectGraph, read once the SDK check passed) and Git's changes (affected)
// → select → prerequisites → build → test → release.
// A whole-target build (scopes all and build) starts once the SDK check passed, beside the evaluation or, when the
// host keeps none, collecting it (the host's BuildCollection: no second MSBuild process). Every process
// goes through the context's process runner (processRunner.ts: timeout, cancellation,
// process-tree kill, bounded logs), the seam unit tests replace with recorded dotnet outputs.
import * as path from 'node:path';
import { newCallId } from '../permissions/grants';
import { endCall, PermissionGate } from '../permissions/permissionGate';
import type { PermissionPolicy } from '../permissions/permissionPolicy';
import type { HostRequester } from '../host/hostRequester';
import { gitChanges } from './gitChanges';
import { resolveTarget } from './hostGraph';
import { runProcess, type ProcessRunner } from './processRunner';
import type { VerificationReport } from './report';
import type { VerifyRequest } from './request';
import { verificationStateFolder } from './runDirectory';
import { acquireWorkspaceLock, LockWaitError } from '../workspaceLock';
import { build, buildStart, endEarlyBuild, startWholeTargetBuild } from './steps/buildStep';
import { evaluate, startEvaluation } from './steps/evaluateStep';
import { checkRestored } from './steps/prerequisitesStep';
import { ReportBuilder } from './steps/reportBuilder';
import { checkSdk } from './steps/sdkStep';
import { select } from './steps/selectStep';
import { runTests } from './steps/testStep';
import { StepStop, VerificationRun } from './steps/verificationRun';

export interface VerifyContext {
  workspaceFolder: string;
  permissions: PermissionPolicy;
  /** The tool or command asking, for the approval dialog and log. */
  requestedBy: string;
  signal?: AbortSignal;
  progress?: (message: string) => void;
  /** The dotnet executable (default: `dotnet` on PATH). */
  dotnet?: string;
  /** The Roslyn host: the target and the project graph come from it (the same rule as the read tools). */
  host: HostRequester;
  /** Overrides the per-user state root (src/engine/stateFolder.ts) that holds the lock and runs. */
  stateRoot?: string;
  /** Test processes run at once (default 2). */
  testParallelism?: number;
  /** Runs each dotnet process (default: processRunner.ts's runProcess); unit tests give recorded outputs. */
  processes?: ProcessRunner;
  /** The tool call this verification serves (permissions/grants.ts); absent: it is a call of its own. */
  call?: string;
}

/**
 * One verification, as one call: its approval (through the PermissionGate) grants the host's evaluation of
 * its target for this call only, and whatever it did not use is gone when it ends.
 */
export async function verify(request: VerifyRequest, context: VerifyContext): Promise<VerificationReport> {
  const call = context.call ?? newCallId('verify');
  try {
    return await verifyCall(request, { ...context, call, permissions: PermissionGate.of(context.permissions) });
  } finally {
    endCall(call);
  }
}

async function verifyCall(request: VerifyRequest, context: VerifyContext & { call: string }): Promise<VerificationReport> {
  const workspaceFolder = path.resolve(context.workspaceFolder);
  const report = new ReportBuilder(request, workspaceFolder);
  const progress = context.progress ?? (() => undefined);

  // 0. A policy that refuses without asking anyone (read-only mode, Restricted Mode, a terminal
  // that cannot prompt) refuses before any process work — the host's target discovery included.
  const refused = context.permissions.refusal?.('shell', context.call);
  if (refused) return report.denied(refused.message ?? 'Permission to build and test was denied.');

  // 1. The target, from files only (the host's discovery: what the read tools use).
  const resolution = await resolveTarget(context.host, workspaceFolder, request.target, context.signal);
  if (resolution.kind === 'none') {
    report.build = null;
    report.tests = null;
    return report.finish('skipped', `Skipped: ${resolution.reason}`);
  }
  const target = resolution.target;
  report.target = report.relative(target.path);

  // 2. Permission, before any process: evaluation, builds and tests all run project code.
  const decision = await context.permissions.request(
    {
      kind: 'shell',
      workspaceFolder,
      target: report.target,
      // The evaluation this approval covers (permissionGate.ts) is of the target in this configuration, every framework.
      configuration: request.configuration,
      call: context.call,
      requestedBy: context.requestedBy,
      action: `build and test ${report.target} with dotnet (scope ${request.scope}, ${request.configuration}${request.framework ? `, ${request.framework}` : ''}${request.restore ? ', restore allowed' : ''})`,
      reason: 'verification evaluates, builds and tests the projects, which runs code from their project and build files',
      ...(request.changedFiles?.length ? { files: request.changedFiles } : {}),
    },
    context.signal,
  );
  if (!decision.granted) return report.denied(decision.message ?? `Permission to build and test ${report.target} was denied.`);
  // The time a dialog waited for the person is not part of the run.
  report.started = Date.now();

  // 3. The workspace lock.
  const stateDir = verificationStateFolder(workspaceFolder, context.stateRoot);
  const timeoutMs = request.timeoutSeconds * 1000;
  let lock;
  try {
    lock = await acquireWorkspaceLock(stateDir, {
      timeoutMs,
      ...(context.signal ? { signal: context.signal } : {}),
      onWait: (holder) => progress(`Waiting for ${holder} of this workspace to finish…`),
    });
  } catch (error) {
    if (error instanceof LockWaitError) {
      report.lockWaitMs = Date.now() - report.started;
      report.notes.push(error.message);
      return report.finish(error.outcome, `${error.outcome === 'timedOut' ? 'Timed out' : 'Cancelled'} waiting for the workspace lock: ${error.message}`);
    }
    throw error;
  }
  report.lockWaitMs = lock.waitedMs;
  if (lock.waitedMs > 500) report.notes.push(`Waited ${(lock.waitedMs / 1000).toFixed(1)} s for another verification of this workspace.`);
  try {
    const run = new VerificationRun({
      request,
      report,
      target,
      stateDir,
      dotnet: context.dotnet ?? 'dotnet',
      host: context.host,
      requestedBy: context.requestedBy,
      call: context.call,
      processes: context.processes ?? runProcess,
      progress,
      testParallelism: context.testParallelism ?? 2,
      ...(context.signal ? { signal: context.signal } : {}),
    });
    const result = await runSteps(run);
    const compromised = lock.compromised();
    if (compromised) report.notes.push(`The workspace lock was lost while verifying (${compromised.message}); another run may have overlapped this one.`);
    return result;
  } finally {
    await lock.release();
  }
}

/** The steps in their order; each adds its section to the report or ends the run. */
async function runSteps(run: VerificationRun): Promise<VerificationReport> {
  // The SDK check, the host's evaluation and, for affected without a change list, Git's changes run side
  // by side (none needs another's answer); the SDK check's answer comes first.
  const start = buildStart(run);
  const checked = checkSdk(run);
  const evaluation = startEvaluation(run, start === 'collecting');
  const changes = run.request.scope === 'affected' && !run.request.changedFiles ? gitChanges(run.report.workspaceFolder, run.signal) : undefined;
  changes?.catch(() => undefined); // read by select(), or settled and dropped when the run stops first
  const stopped = await checked;
  if (stopped) {
    // The evaluation ran under this run's approval and lock: it ends before the lock is released.
    await Promise.allSettled([evaluation, changes]);
    return stopped.report;
  }
  // A whole-target build (all, build) needs no answer of the evaluation: it starts beside it, or collects it (buildStep.ts).
  const { early, graph: pendingGraph } = await startWholeTargetBuild(run, start, evaluation);
  const graph = await evaluate(run, pendingGraph);
  if (graph instanceof StepStop) {
    await changes?.catch(() => undefined);
    return (await endEarlyBuild(run, early, graph)).report;
  }
  const selected = await select(run, graph, changes);
  if (selected instanceof StepStop) return (await endEarlyBuild(run, early, selected)).report;
  if (run.request.scope !== 'tests') {
    const unrestored = checkRestored(run, selected);
    if (unrestored) return (await endEarlyBuild(run, early, unrestored)).report;
    const failed = await build(run, graph, selected, early);
    if (failed) return failed.report;
  }
  if (run.request.scope !== 'build') run.report.tests = await runTests(run, graph, selected);
  return run.report.finishFromSections();
}
