// Step 6 of a verification: the selected test projects, each run once (testProjectStep.ts), two at
// a time by default, into one fresh run folder, and their results summed into the test section.
// No test project is an explicit skip that says it is not evidence that tests pass.
import { addCounters, emptyCounters, type FailedTest, type TestProjectResult, type TestSection } from '../report';
import type { ProjectGraph } from '../projectGraph';
import { createRunDirectory } from '../runDirectory';
import { maxFailedTests, notRunTests } from './reportBuilder';
import type { SelectedProjects } from './selectStep';
import { projectResult, testProject } from './testProjectStep';
import type { VerificationRun } from './verificationRun';

export async function runTests(run: VerificationRun, graph: ProjectGraph, selected: SelectedProjects): Promise<TestSection> {
  const { testProjects } = selected;
  if (testProjects.length === 0) {
    const classified = [...graph.projects.values()].filter((p) => !p.isTestProject && (p.testingPlatformApplication || p.packageReferences.includes('Microsoft.NET.Test.Sdk')));
    return {
      ...notRunTests(
        `No test projects in the selection, so nothing was tested — this is not evidence that tests pass.${classified.length ? ` (${classified.map((p) => p.name).join(', ')} reference the test SDK or are test platform apps but evaluate IsTestProject=false.)` : ''}`,
      ),
      status: 'skipped',
    };
  }
  const runDir = createRunDirectory(run.stateDir);
  const results: Array<{ result: TestProjectResult; failed: FailedTest[] }> = [];
  const queue = [...testProjects];
  const worker = async () => {
    while (queue.length > 0) {
      const project = queue.shift()!;
      if (run.signal?.aborted) {
        results.push({ result: projectResult(run, project, 'cancelled', 'Cancelled before it started.'), failed: [] });
        continue;
      }
      results.push(await testProject(run, project, runDir, results.length + queue.length));
    }
  };
  await Promise.all(Array.from({ length: Math.min(run.testParallelism, testProjects.length) }, worker));
  results.sort((a, b) => a.result.project.localeCompare(b.result.project));

  const projects = results.map((r) => r.result);
  const failedTests = results.flatMap((r) => r.failed);
  const counters = projects.reduce((sum, p) => addCounters(sum, p.counters), emptyCounters());
  const statuses = new Set(projects.map((p) => p.status));
  const status: TestSection['status'] = statuses.has('cancelled')
    ? 'cancelled'
    : statuses.has('timedOut')
      ? 'timedOut'
      : statuses.has('failed')
        ? 'failed'
        : statuses.has('missingPrerequisites')
          ? 'missingPrerequisites'
          : [...statuses].every((s) => s === 'skipped')
            ? 'skipped'
            : 'passed';
  return {
    status,
    reason: status === 'skipped' ? 'No test ran in any test project.' : null,
    counters,
    projects,
    failedTests: failedTests.slice(0, maxFailedTests),
    omittedFailedTests: Math.max(0, failedTests.length - maxFailedTests),
    resultsDirectory: runDir,
  };
}
