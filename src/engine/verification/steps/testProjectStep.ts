// One test project's `dotnet test`: the tests scope's missing build outputs (a prerequisite, never
// a build), an MTP app asked for its own TRX option, then one invocation for all its frameworks
// into its own results folder. What the run wrote is read by testResults.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EvaluatedProject } from '../projectGraph';
import type { FailedTest, TestProjectResult } from '../report';
import { emptyCounters } from '../report';
import { dotnetTestMode, errorLines, helpArguments, runnerNames, testArguments, testRunnerFor, trxOptionFrom, type TrxOption } from '../testRunner';
import { mtpOptionsKey, storedMtpOptions, storeMtpOptions } from '../mtpOptionsCache';
import type { ProcessOutcome } from '../processRunner';
import { answeredWithoutProcess, quoteForShell, stepFrom } from './reportBuilder';
import { readTestResults } from './testResults';
import type { VerificationRun } from './verificationRun';

export type ProjectOutcome = { result: TestProjectResult; failed: FailedTest[] };

/** A project's result with no tests counted (not run, stopped, or before its results are read). */
export function projectResult(run: VerificationRun, project: EvaluatedProject, status: TestProjectResult['status'], reason: string | null): TestProjectResult {
  return {
    project: run.report.relative(project.path),
    runner: testRunnerFor(project, dotnetTestMode(path.dirname(project.path)).mode),
    trxOption: null,
    status,
    reason,
    frameworks: run.request.framework ? [run.request.framework] : project.targetFrameworks,
    trxFiles: [],
    counters: emptyCounters(),
  };
}

/** Runs one test project; `filter` (testFilter.ts) narrows it to the reached tests. */
export async function testProject(run: VerificationRun, project: EvaluatedProject, runDir: string, index: number, filter: readonly string[] = []): Promise<ProjectOutcome> {
  const { report, request } = run;
  const relative = report.relative(project.path);
  const frameworks = request.framework ? [request.framework] : project.targetFrameworks;
  // The tests scope never builds: a missing output is a prerequisite, not a pass.
  if (request.scope === 'tests') {
    const missing = frameworks.filter((tfm) => !project.targetPaths[tfm] || !fs.existsSync(project.targetPaths[tfm]!));
    if (missing.length > 0) {
      for (const tfm of missing) {
        report.prerequisites.push({
          kind: 'buildOutput',
          message: `${relative} has no ${request.configuration} build output for ${tfm}${project.targetPaths[tfm] ? ` (${report.relative(project.targetPaths[tfm]!)})` : ''}; the tests scope runs existing outputs only and never builds.`,
          command: `dotnet build ${quoteForShell(relative)} -c ${request.configuration}${request.framework ? ` -f ${request.framework}` : ''}`,
          project: relative,
        });
      }
      return { result: projectResult(run, project, 'missingPrerequisites', `No build output for ${missing.join(', ')}.`), failed: [] };
    }
  }
  const resultsDir = path.join(runDir, `${String(index).padStart(3, '0')}-${project.name}`);
  fs.mkdirSync(resultsDir, { recursive: true });
  const cwd = path.dirname(project.path);
  // dotnet test reads global.json from its working folder: the mode is the project folder's.
  const runner = testRunnerFor(project, dotnetTestMode(cwd).mode);
  const invocation = { project: project.path, configuration: request.configuration, framework: request.framework };
  const runTest = async (args: string[]) => {
    const outcome = await run.dotnetProcess(args, cwd);
    report.addStep(stepFrom('test', relative, run.dotnet, args, cwd, outcome));
    return outcome;
  };
  const interrupted = (outcome: ProcessOutcome): ProjectOutcome | undefined => {
    if (outcome.kind === 'cancelled') return { result: projectResult(run, project, 'cancelled', 'Cancelled; the test process tree was killed.'), failed: [] };
    if (outcome.kind === 'timedOut') return { result: projectResult(run, project, 'timedOut', `Did not finish within ${request.timeoutSeconds} s; the test process tree was killed.`), failed: [] };
    if (outcome.kind === 'failedToStart') return { result: projectResult(run, project, 'failed', `dotnet could not be started: ${outcome.startError}`), failed: [] };
    return undefined;
  };

  // An MTP app names its own TRX option (report-trx, report-xunit-trx): ask it, never assume; its answer is
  // kept while its build output is unchanged (mtpOptionsCache.ts).
  let trxOption: TrxOption | null = null;
  if (runner !== 'vstest') {
    const helpArgs = helpArguments(runner, invocation);
    const outputs = frameworks.map((tfm) => project.targetPaths[tfm] ?? '');
    const key = mtpOptionsKey(helpArgs, outputs);
    const kept = key ? storedMtpOptions(run.stateDir, key) : undefined;
    if (kept) {
      trxOption = kept.trxOption;
      report.addStep(stepFrom('test', relative, run.dotnet, helpArgs, cwd, reusedOutcome(trxOption)));
    } else {
      run.progress(`Asking ${relative} for its options…`);
      const help = await runTest(helpArgs);
      const stop = interrupted(help);
      if (stop) return stop;
      trxOption = trxOptionFrom(help.log.text);
      if (!trxOption && help.exitCode !== 0) {
        const errors = errorLines(help.log.text);
        const result = projectResult(run, project, 'failed', `dotnet test could not run it as a ${runnerNames[runner]} app (exit code ${help.exitCode})${errors.length ? `: ${errors.join(' | ')}` : ''}`);
        return { result: { ...result, runner }, failed: [] };
      }
      if (key && mtpOptionsKey(helpArgs, outputs) === key) storeMtpOptions(run.stateDir, key, trxOption);
    }
  }

  const args = testArguments(runner, invocation, resultsDir, trxOption, project.name, filter);
  run.progress(`Testing ${relative}…`);
  const outcome = await runTest(args);
  const stop = interrupted(outcome);
  if (stop) return stop;

  // Every TRX this invocation wrote, each counted once (a multi-targeted project writes one per framework).
  const written = fs.readdirSync(resultsDir).sort();
  const trxFiles = written.filter((file) => file.toLowerCase().endsWith('.trx')).map((file) => path.join(resultsDir, file));
  // An MTP app under VSTest mode keeps its output (its failed tests among it) in a log beside them.
  const logFiles = written.filter((file) => file.toLowerCase().endsWith('.log')).map((file) => path.join(resultsDir, file));
  return readTestResults({ report, request, project, result: projectResult(run, project, 'passed', null), runner, trxOption, outcome, trxFiles, logFiles });
}

/** The `--help` step as the report lists it when its kept answer was used: no process ran. */
function reusedOutcome(trxOption: TrxOption | null): ProcessOutcome {
  return answeredWithoutProcess(`(reused: the app's build output is unchanged since it was asked; it offered ${trxOption ?? 'no TRX option'})\n`, new Date().toISOString(), 0);
}
