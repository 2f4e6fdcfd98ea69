// What one test project's `dotnet test` run says: its TRX files (each counted once), or the totals
// an MTP app without a TRX option printed; its failed tests; the frameworks that could not start
// here (a missing .NET runtime, or mono for .NET Framework on Linux: VSTest says so in the
// framework's TRX, MTP mode only in its output), which are named prerequisites while the
// frameworks that ran still count; and the exit code, which still decides
// when the results show no failure. No process runs here: unit tests feed it recorded outputs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EvaluatedProject } from '../projectGraph';
import type { ProcessOutcome } from '../processRunner';
import { addCounters, type FailedTest, type TestCounters, type TestProjectResult, type TestRunner } from '../report';
import type { VerifyRequest } from '../request';
import { errorLines, hostStopCause, mtpExitMeaning, mtpHostStopped, parseMtpFailures, parseMtpSummary, readLogText, type TrxOption } from '../testRunner';
import { parseTrx, TrxError } from '../trx';
import { clip, type ReportBuilder } from './reportBuilder';

export interface TestRunOutput {
  report: ReportBuilder;
  request: VerifyRequest;
  project: EvaluatedProject;
  /** The project's result before its run is read (status passed, nothing counted). */
  result: TestProjectResult;
  runner: TestRunner;
  trxOption: TrxOption | null;
  /** The finished `dotnet test` (it exited: stops are handled before). */
  outcome: ProcessOutcome;
  /** Every TRX file the run wrote, sorted. */
  trxFiles: string[];
  /** The output logs it wrote (an MTP app under VSTest mode keeps its output there), sorted. */
  logFiles?: string[];
}

const failedOutcomes = ['Failed', 'Error', 'Timeout', 'Aborted', 'PassedButRunAborted', 'Disconnected'];

export function readTestResults(output: TestRunOutput): { result: TestProjectResult; failed: FailedTest[] } {
  const { report, request, project, runner, trxOption, outcome, trxFiles } = output;
  const relative = report.relative(project.path);
  // A framework whose runtime (or mono, for .NET Framework on Linux) is missing is a prerequisite,
  // not a failure; the frameworks that ran still count. Without a TRX to tell which framework it
  // was, the whole project is the prerequisite.
  if (missingTestHost.test(outcome.log.text) && !trxFiles.some((file) => frameworkOfTrx(file, project.targetFrameworks))) {
    report.prerequisites.push({ kind: 'runtime', message: `${relative} needs a .NET runtime that is not installed.`, command: 'dotnet --list-runtimes', project: relative });
    return { result: { ...output.result, status: 'missingPrerequisites', reason: 'A required .NET runtime is not installed.', runner }, failed: [] };
  }
  const unrunnable: { framework: string; needs: string }[] = [];
  const expected = request.framework ? 1 : Math.max(1, project.targetFrameworks.length);
  const framework = request.framework ?? (project.targetFrameworks.length === 1 ? project.targetFrameworks[0]! : 'unknown');
  const result: TestProjectResult = { ...output.result, runner, trxOption, trxFiles };
  const failed: FailedTest[] = [];
  const problems: string[] = [];
  const runErrors: string[] = [];
  let zeroTestsExit = false;
  for (const file of trxFiles) {
    let run;
    try {
      run = parseTrx(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      problems.push(`${path.basename(file)} could not be read: ${error instanceof TrxError ? error.message : String(error)}`);
      continue;
    }
    result.counters = addCounters(result.counters, run.counters);
    zeroTestsExit ||= run.zeroTestsExitCode;
    const hostMissing = run.runErrors.find((message) => missingTestHost.test(message));
    const trxFramework = frameworkOfTrx(file, project.targetFrameworks);
    if (hostMissing && trxFramework && run.counters.total === 0) {
      unrunnable.push({ framework: trxFramework, needs: /mono/i.test(hostMissing) ? 'mono (to run .NET Framework tests here)' : 'a .NET runtime that is not installed' });
      continue;
    }
    for (const message of run.runErrors) {
      runErrors.push(message);
      problems.push(`test run error: ${clip(message, 500)}`);
    }
    for (const test of run.results.filter((r) => failedOutcomes.includes(r.outcome))) {
      failed.push({ name: test.name, outcome: test.outcome, message: clip(test.message), stackTrace: clip(test.stackTrace), project: relative, framework });
    }
  }
  // MTP-mode dotnet test starts each framework's app itself, and a framework whose app cannot start
  // here writes no TRX at all: the output names it, and it is a prerequisite like VSTest's above.
  const unstarted = runner === 'mtp' ? unstartedFrameworks(outcome.log.text, project).filter((u) => !trxFiles.some((file) => frameworkOfTrx(file, project.targetFrameworks) === u.framework)) : [];
  unrunnable.push(...unstarted);
  // Without a TRX option the app's printed totals are all there is; its exit code still decides.
  const printed = runner !== 'vstest' && !trxOption ? (parseMtpSummary(outcome.log.text) ?? parseBridgeSummary(outcome.log.text)) : null;
  if (printed) result.counters = printed;
  const logs = runner === 'mtpUnderVstest' ? (output.logFiles ?? []).map((file) => readLogText(file)) : [];
  // ...and so are the failed tests it printed (NUnit's and MSTest's runners without a TRX extension): named as a TRX would.
  // (Under VSTest mode the app's output is not dotnet test's: it is in the logs the app wrote.)
  if (runner !== 'vstest' && !trxOption) {
    const printedOutput = runner === 'mtp' ? outcome.log.text : logs.join('\n');
    for (const test of parseMtpFailures(printedOutput)) {
      failed.push({ name: test.name, outcome: 'Failed', message: clip(test.message), stackTrace: clip(test.stackTrace), project: relative, framework });
    }
  }
  if (trxOption || runner === 'vstest') {
    if (trxFiles.length + unstarted.length < expected) {
      problems.unshift(`expected ${expected} TRX file(s) (one per target framework) and found ${trxFiles.length}; dotnet test exited with code ${outcome.exitCode}`);
      problems.push(...errorLines(outcome.log.text));
    }
  } else {
    result.reason = `${relative} offers no TRX option; counted from the totals dotnet test printed.`;
  }
  // A test host that stopped mid-run (Environment.FailFast or Exit in a test, a stack overflow) lost
  // the results of the tests it had not reported: the counts are incomplete, whatever they say.
  // (A framework that could not start at all is a prerequisite, above; its abort in the output is not a stop.)
  const stop = hostStopped(runner, unrunnable.length === 0 ? outcome : null, runErrors, logs);
  if (stop) {
    result.incomplete = stop;
    problems.splice(0, problems.length, ...problems.filter((problem) => !abortedRun.test(problem)));
    problems.unshift(`${stop}; only the tests reported before it stopped are counted`);
  }
  // MTP apps: exit code 8 is zero tests, not a failure (under VSTest mode dotnet test says so in its output).
  const meaning = runner === 'mtp' ? mtpExitMeaning(outcome.exitCode) : null;
  const zeroTests =
    result.counters.total === 0 && (zeroTestsExit || meaning?.kind === 'zeroTests' || (runner === 'mtpUnderVstest' && /zero tests ran|exit code 8\b/i.test(outcome.log.text)));
  for (const { framework: tfm, needs } of unrunnable) {
    report.prerequisites.push({ kind: 'runtime', message: `${relative} (${tfm}) needs ${needs}; its tests did not run.`, command: 'dotnet --list-runtimes', project: relative });
  }
  // dotnet test exits nonzero for the frameworks it could not run: that exit is the prerequisite's.
  const exitFailed = outcome.exitCode !== 0 && !zeroTests && unrunnable.length === 0;
  if (problems.length > 0 || result.counters.failed > 0 || runErrors.length > 0) {
    result.status = 'failed';
    result.reason = problems.length > 0 ? problems.join('; ') : `${result.counters.failed} test${result.counters.failed === 1 ? '' : 's'} failed${meaning && meaning.kind === 'failed' ? ` (${meaning.text})` : ''}.`;
  } else if (exitFailed) {
    result.status = 'failed';
    const errors = errorLines(outcome.log.text);
    result.reason = `dotnet test exited with code ${outcome.exitCode}${meaning ? ` (${meaning.text})` : ''} although its results show no failure${errors.length ? `: ${errors.join(' | ')}` : '.'}`;
  } else if (unrunnable.length > 0) {
    result.status = 'missingPrerequisites';
    const ran = trxFiles.map((file) => frameworkOfTrx(file, project.targetFrameworks)).filter((tfm): tfm is string => Boolean(tfm) && !unrunnable.some((u) => u.framework === tfm));
    result.reason = `Not run on ${unrunnable.map((u) => u.framework).join(', ')} (missing runtime)${ran.length ? `; ran on ${ran.join(', ')}: ${result.counters.passed} passed` : ''}.`;
  } else if (result.counters.total === 0) {
    result.status = 'skipped';
    result.reason = trxFiles.length > 0 ? 'The test run was valid but ran no tests (empty TRX).' : 'The test run was valid but ran no tests.';
  }
  return { result, failed };
}

/**
 * Why this run's test host stopped before the run finished, in a few words, or null when it did
 * not: VSTest says so in the TRX (`The active test run was aborted. Reason: Test host process
 * crashed : …`) and its output (`Test Run Aborted.`); an MTP app by its exit code (testRunner.ts's
 * mtpHostStopped), or, under VSTest mode, by an output log without its closing summary. Said with what the host printed last and where (the first frame of the code
 * under test), when it printed them.
 */
function hostStopped(runner: TestRunner, outcome: ProcessOutcome | null, runErrors: readonly string[], logs: readonly string[]): string | null {
  const aborted = runErrors.find((message) => abortedRun.test(message));
  const output = outcome?.log.text ?? '';
  // An MTP app under VSTest mode writes its output to a log, which ends with its `Test run summary:` when its run finished.
  const unfinishedLog = outcome ? logs.find((log) => !/^Test run summary:/m.test(log)) : undefined;
  const stopped = aborted !== undefined || unfinishedLog !== undefined || /^Test Run Aborted\.?\s*$/im.test(output) || (runner === 'mtp' && mtpHostStopped(outcome?.exitCode ?? null));
  if (!stopped) return null;
  const { said, where } = hostStopCause(aborted ?? unfinishedLog ?? output);
  const code = runner === 'mtp' && outcome?.exitCode != null ? ` (exit code ${outcome.exitCode})` : '';
  return `its test host stopped before the run finished${code}${said ? `: "${said}"` : ''}${where ? ` in ${where}` : ''}`;
}

/** VSTest's words for a run whose test host stopped (a TRX RunInfo, and the problem line made of it). */
const abortedRun = /test run was aborted|Test host process (crashed|exited)/i;

/** What dotnet test prints when a framework's test host cannot start: its runtime, or mono, is missing. */
const missingTestHost = /You must install or update \.NET to run this application|Framework: 'Microsoft\.NETCore\.App', version '[^']+' \(\S+\) was not found|Could not find 'mono' host/i;

/**
 * The frameworks whose test app MTP-mode `dotnet test` could not start, from what it printed:
 * `The following exception occurred when running the test module with RunCommand 'mono' and
 * RunArguments '"…/bin/Debug/net472/App.Tests.exe" ':` (then `An error occurred trying to start
 * process 'mono'…`). The module names the framework by its output path.
 */
function unstartedFrameworks(output: string, project: EvaluatedProject): { framework: string; needs: string }[] {
  const found: { framework: string; needs: string }[] = [];
  for (const match of output.matchAll(/exception occurred when running the test module with RunCommand '([^']*)' and RunArguments '([^']*)'/gi)) {
    const [, command, runArguments] = match as unknown as [string, string, string];
    const framework = project.targetFrameworks.find((tfm) => {
      const module = project.targetPaths[tfm];
      return (module !== undefined && runArguments.includes(module)) || runArguments.split(/[\\/]/).some((part) => part.toLowerCase() === tfm.toLowerCase());
    });
    if (!framework || found.some((u) => u.framework === framework)) continue;
    const program = path.basename(command).replace(/\.exe$/i, '');
    found.push({ framework, needs: program === 'mono' ? 'mono (to run .NET Framework tests here)' : `${program}, which could not be started here` });
  }
  return found;
}

/**
 * The framework a VSTest TRX of a multi-targeted run belongs to: VSTest puts it in the file name
 * as one `_`-separated part (`<LogFilePrefix>_net8.0_20261202180144.trx`, `<run>_net8.0.trx`).
 */
function frameworkOfTrx(file: string, frameworks: readonly string[]): string | undefined {
  const parts = path.basename(file, path.extname(file)).toLowerCase().split('_');
  return frameworks.find((tfm) => parts.includes(tfm.toLowerCase()));
}

/** VSTest-mode dotnet test's line for an MTP app: `Failed! - Failed: 1, Passed: 2, Skipped: 0, Total: 3`. */
function parseBridgeSummary(output: string): TestCounters | null {
  const match = /Failed:\s*(\d+),\s*Passed:\s*(\d+),\s*Skipped:\s*(\d+),\s*Total:\s*(\d+)/i.exec(output);
  if (!match) return null;
  const [failed, passed, skipped, total] = match.slice(1).map(Number) as [number, number, number, number];
  return { total, passed, failed, skipped, other: Math.max(0, total - passed - failed - skipped) };
}
