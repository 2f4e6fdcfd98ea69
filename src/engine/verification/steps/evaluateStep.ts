// Step 2 of a verification: the project graph, evaluated by the C# host (sharpclaw/projectGraph).
// Evaluation runs project code, so it comes after the permission and inside the lock. A host that
// is refused, a missing SDK, a timeout or cancellation, and MSBuild's own evaluation errors each
// end the run with their own status.
import { ToolError } from '../../errors';
import { DiagnosticCollector } from '../diagnostics';
import { evaluateWithHost, offerBuildCollection, type BuildCollectionOffer, type HostEvaluateOptions } from '../hostGraph';
import { EvaluationError, type ProjectGraph } from '../projectGraph';
import { buildSection, clip } from './reportBuilder';
import { StepStop, type VerificationRun } from './verificationRun';

/** What the host needs to evaluate the run's target under the run's approval. */
export function hostEvaluateOptions(run: VerificationRun): HostEvaluateOptions {
  const { report, request } = run;
  return {
    workspaceFolder: report.workspaceFolder,
    target: run.target,
    configuration: request.configuration,
    timeoutMs: run.timeoutMs,
    requestedBy: run.requestedBy,
    call: run.call,
    ...(run.signal ? { signal: run.signal } : {}),
  };
}

/**
 * Starts the host's evaluation, which touches no part of the report: the runner starts it beside
 * the SDK check (it needs no answer from it, and the SDK check's `dotnet --version` is most of a
 * second of a warm run) and reads it with {@link evaluate} once the SDK check passed. A missing SDK
 * fails this evaluation too; the SDK check's report says so first. With `offer` (a whole-target build
 * that can collect the evaluation, buildStep.ts), the host answers a graph it keeps or a collection for
 * that build instead of evaluating.
 */
export function startEvaluation(run: VerificationRun, offer: boolean): Promise<ProjectGraph | BuildCollectionOffer> {
  const options = hostEvaluateOptions(run);
  const pending = offer ? offerBuildCollection(run.host, options) : evaluateWithHost(run.host, options);
  pending.catch(() => undefined); // read by evaluate(), or settled and dropped when the SDK check stops the run
  return pending;
}

export async function evaluate(run: VerificationRun, pending: Promise<ProjectGraph>): Promise<ProjectGraph | StepStop> {
  const { report } = run;
  run.progress(`Evaluating the projects of ${report.target}…`);
  try {
    return await pending;
  } catch (error) {
    if (error instanceof ToolError && error.code === 'permission_denied') return new StepStop(report.denied(error.message));
    if (error instanceof ToolError && error.code === 'missing_prerequisites') {
      report.prerequisites.push({ kind: 'sdk', message: error.message, command: error.details.command ?? 'dotnet --list-sdks', project: null });
      return new StepStop(report.finish('missingPrerequisites', `Missing prerequisite: ${clip(error.message, 200)}`));
    }
    if (!(error instanceof EvaluationError)) throw error;
    if (error.outcome !== 'failed') return new StepStop(report.finish(error.outcome, `${error.outcome === 'cancelled' ? 'Cancelled' : 'Timed out'} while evaluating projects: ${error.message}`));
    const collector = new DiagnosticCollector();
    error.output.split(/\r?\n/).forEach((line) => collector.add(line));
    report.build = buildSection('failed', error.message, collector);
    return new StepStop(report.finish('failed', `Failed: ${error.message}`));
  }
}
