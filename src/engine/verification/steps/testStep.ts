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
import type { EvaluatedProject } from '../projectGraph';
import { runnerNamesOf, testFilterFor, testFrameworkOf, type ReachedTest } from '../testFilter';
import { dotnetTestMode, testRunnerFor } from '../testRunner';
import { selectReachedTests, testSelectionLine, type TestSelectionFacts } from '../testSelection';
import * as path from 'node:path';

type ReachedChoice = { toRun: EvaluatedProject[]; skipped: EvaluatedProject[]; filters: Map<string, string[]>; facts: TestSelectionFacts };

/** --tests reached: the projects to run, each with its runner's filter, and those with no reached test (not run). */
async function chooseReached(run: VerificationRun, testProjects: EvaluatedProject[]): Promise<ReachedChoice> {
  const everything = (reason: string): ReachedChoice => ({ toRun: testProjects, skipped: [], filters: new Map(), facts: { kind: 'all', reason } });
  run.progress('Finding the tests that reach the change…');
  let outcome;
  try {
    outcome = await selectReachedTests({
      workspaceFolder: run.report.workspaceFolder,
      host: run.host,
      changedFiles: run.request.changedFiles,
      hostParams: { target: run.target.relative, configuration: run.request.configuration, ...(run.request.framework ? { targetFramework: run.request.framework } : {}), tool: run.requestedBy, call: run.call },
      signal: run.signal,
    });
  } catch (error) {
    return everything(`the reached tests could not be listed (${error instanceof Error ? error.message : String(error)})`);
  }
  if (outcome.kind === 'all') return everything(outcome.reason);
  const byProject = new Map<string, ReachedTest[]>();
  for (const test of outcome.tests) byProject.set(test.project, [...(byProject.get(test.project) ?? []), test]);
  const choice: ReachedChoice = { toRun: [], skipped: [], filters: new Map(), facts: { kind: 'reached', run: 0, total: 0, changedMembers: outcome.changedMembers, skippedProjects: 0, wholeProjects: [], classProjects: [] } };
  const facts = choice.facts as Extract<TestSelectionFacts, { kind: 'reached' }>;
  for (const project of testProjects) {
    const tests = byProject.get(run.report.relative(project.path));
    // The host's count; at least the reached ones (a project it counted none in still has those).
    const projectTotal = Math.max(outcome.projectTests.get(run.report.relative(project.path)) ?? 0, new Set((tests ?? []).flatMap(runnerNamesOf)).size);
    facts.total += projectTotal;
    if (!tests?.length) {
      choice.skipped.push(project);
      facts.skippedProjects++;
      continue;
    }
    choice.toRun.push(project);
    const filter = testFilterFor(testRunnerFor(project, dotnetTestMode(path.dirname(project.path)).mode), testFrameworkOf(project.packageReferences), tests);
    if (filter.kind === 'filter' || filter.kind === 'classes') {
      choice.filters.set(project.path, filter.args);
      facts.run += filter.names.length;
      if (filter.kind === 'classes') facts.classProjects.push({ project: run.report.relative(project.path), reason: filter.reason });
    } else {
      facts.wholeProjects.push({ project: run.report.relative(project.path), reason: filter.reason });
      facts.run += projectTotal;
    }
  }
  return choice;
}

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
  const chosen = run.request.testSelection === 'reached' ? await chooseReached(run, testProjects) : null;
  if (chosen) for (const project of chosen.skipped) results.push({ result: projectResult(run, project, 'skipped', 'No reached test: none of its tests reaches a changed member.'), failed: [] });
  const queue = chosen ? [...chosen.toRun] : [...testProjects];
  const worker = async () => {
    while (queue.length > 0) {
      const project = queue.shift()!;
      if (run.signal?.aborted) {
        results.push({ result: projectResult(run, project, 'cancelled', 'Cancelled before it started.'), failed: [] });
        continue;
      }
      results.push(await testProject(run, project, runDir, results.length + queue.length, chosen?.filters.get(project.path)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(run.testParallelism, queue.length) }, worker));
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
  const selection = chosen ? testSelectionLine(chosen.facts) : null;
  return {
    ...(selection ? { selection } : {}),
    status,
    reason: status === 'skipped' ? (selection ? `No test ran: ${selection}` : 'No test ran in any test project.') : null,
    counters,
    projects,
    failedTests: failedTests.slice(0, maxFailedTests),
    omittedFailedTests: Math.max(0, failedTests.length - maxFailedTests),
    resultsDirectory: runDir,
  };
}
