// Step 2 of a verification: the project graph, evaluated by the C# host (sharpclaw/projectGraph).
// Evaluation runs project code, so it comes after the permission and inside the lock. A host that
// is refused, a missing SDK, a timeout or cancellation, and MSBuild's own evaluation errors each
// end the run with their own status.
import { ToolError } from '../../errors';
import { DiagnosticCollector } from '../diagnostics';
import { evaluateWithHost } from '../hostGraph';
import { EvaluationError, type ProjectGraph } from '../projectGraph';
import { buildSection, clip } from './reportBuilder';
import { StepStop, type VerificationRun } from './verificationRun';

export async function evaluate(run: VerificationRun): Promise<ProjectGraph | StepStop> {
  const { report, request } = run;
  run.progress(`Evaluating the projects of ${report.target}…`);
  try {
    return await evaluateWithHost(run.host, {
      workspaceFolder: report.workspaceFolder,
      target: run.target,
      configuration: request.configuration,
      timeoutMs: run.timeoutMs,
      requestedBy: run.requestedBy,
      call: run.call,
      ...(run.signal ? { signal: run.signal } : {}),
    });
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
