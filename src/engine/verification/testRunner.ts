// How `dotnet test` runs one test project, by the rules in shared/notes/dotnet-build-test-facts.md:
// the workspace's runner mode (global.json `test.runner`), the project's kind (a VSTest project or
// a Microsoft.Testing.Platform app), the command line for each, the TRX option the app itself
// offers (asked through its help, never assumed), and what an MTP exit code means.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { emptyCounters, type TestCounters, type TestRunner } from './report';
import type { EvaluatedProject } from './projectGraph';
import { configFileMaxBytes, readBoundedText } from '../files/boundedRead';

export type DotnetTestMode = 'vstest' | 'mtp';

/** The global.json `dotnet test` would read from `folder` (the nearest one above it), and its runner mode. */
export function dotnetTestMode(folder: string): { mode: DotnetTestMode; globalJson: string | null } {
  let current = path.resolve(folder);
  for (;;) {
    const candidate = path.join(current, 'global.json');
    if (fs.existsSync(candidate)) {
      const runner = readTestRunner(candidate);
      return { mode: runner !== null && runner.toLowerCase() === 'microsoft.testing.platform' ? 'mtp' : 'vstest', globalJson: candidate };
    }
    const parent = path.dirname(current);
    if (parent === current) return { mode: 'vstest', globalJson: null };
    current = parent;
  }
}

/** global.json's `test.runner`; comments and trailing commas are tolerated as the SDK does. */
function readTestRunner(file: string): string | null {
  try {
    const text = (readBoundedText(file, { maxBytes: configFileMaxBytes, what: 'global.json' }) ?? '')
      .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_whole, literal: string | undefined) => literal ?? '')
      .replace(/,(\s*[}\]])/g, '$1');
    const parsed = JSON.parse(text) as { test?: { runner?: unknown } };
    return typeof parsed.test?.runner === 'string' ? parsed.test.runner : null;
  } catch {
    return null;
  }
}

/**
 * How this project's tests run. In MTP mode every project runs as an MTP app (a VSTest project
 * there is an error of `dotnet test`'s own, reported as it says). In VSTest mode an MTP app that
 * opted into `dotnet test` (TestingPlatformDotnetTestSupport) takes its options after `--`;
 * everything else is VSTest.
 */
export function testRunnerFor(project: EvaluatedProject, mode: DotnetTestMode): TestRunner {
  if (mode === 'mtp') return 'mtp';
  return project.testingPlatformApplication && project.testingPlatformDotnetTestSupport ? 'mtpUnderVstest' : 'vstest';
}

export const runnerNames: Record<TestRunner, string> = {
  vstest: 'VSTest',
  mtp: 'Microsoft.Testing.Platform',
  mtpUnderVstest: 'Microsoft.Testing.Platform under VSTest mode',
};

export interface TestInvocation {
  project: string;
  configuration: string;
  framework?: string | undefined;
}

function common(runner: TestRunner, invocation: TestInvocation): string[] {
  return [
    'test',
    ...(runner === 'mtp' ? ['--project', invocation.project] : [invocation.project]),
    '--no-build',
    '--no-restore',
    '-c',
    invocation.configuration,
    ...(invocation.framework ? ['-f', invocation.framework] : []),
  ];
}

/** The command that lists an MTP app's options (its extensions' TRX option among them). */
export function helpArguments(runner: Exclude<TestRunner, 'vstest'>, invocation: TestInvocation): string[] {
  return runner === 'mtp'
    ? [...common(runner, invocation), '--help']
    : [...common(runner, invocation), '-nologo', '--tl:off', '-p:TestingPlatformCaptureOutput=false', '--', '--help'];
}

/** The TRX options an MTP app may offer: Microsoft.Testing.Extensions.TrxReport's, xunit.v3's own. */
export const trxOptions = ['--report-trx', '--report-xunit-trx'] as const;
export type TrxOption = (typeof trxOptions)[number];

/** The TRX option an app's help offers: Microsoft.Testing.Extensions.TrxReport's, else xunit.v3's own. */
export function trxOptionFrom(help: string): TrxOption | null {
  if (/(^|\s)--report-trx(?![\w-])/m.test(help)) return '--report-trx';
  if (/(^|\s)--report-xunit-trx(?![\w-])/m.test(help)) return '--report-xunit-trx';
  return null;
}

/** The test command: VSTest's logger, or the app's own TRX option into `resultsDir`; `filter` (testFilter.ts) last. */
export function testArguments(runner: TestRunner, invocation: TestInvocation, resultsDir: string, trxOption: TrxOption | null, logPrefix: string, filter: readonly string[] = []): string[] {
  const trx = trxOption ? [trxOption] : [];
  switch (runner) {
    case 'vstest':
      return [...common(runner, invocation), '--logger', `trx;LogFilePrefix=${logPrefix}`, '--results-directory', resultsDir, '-nologo', '--tl:off', ...filter];
    case 'mtp':
      return [...common(runner, invocation), ...trx, '--results-directory', resultsDir, '--no-ansi', '--no-progress', ...filter];
    case 'mtpUnderVstest':
      return [...common(runner, invocation), '-nologo', '--tl:off', '--', ...trx, '--results-directory', resultsDir, ...filter];
  }
}

/** Microsoft.Testing.Platform's documented exit codes (aka.ms/testingplatform/exitcodes). */
const mtpExitCodes: Record<number, string> = {
  1: 'an unknown error in the test platform',
  2: 'at least one test failed',
  3: 'the test session was aborted',
  4: 'the test platform setup is invalid',
  5: 'the command line was invalid',
  6: 'a feature the run needs is not implemented',
  7: 'the test host process exited before the run finished (crash)',
  8: 'zero tests ran',
  9: 'fewer tests ran than the minimum expected',
  10: 'the test adapter reported a session failure',
  11: 'a dependent process exited',
  12: 'incompatible protocol versions',
  13: 'the run stopped at the maximum number of failed tests',
};

/** What an MTP app's exit code says; 8 (zero tests) is "no tests", not a failure. */
export function mtpExitMeaning(code: number | null): { kind: 'passed' | 'zeroTests' | 'failed'; text: string } {
  if (code === 0) return { kind: 'passed', text: 'exit code 0' };
  if (code === 8) return { kind: 'zeroTests', text: 'exit code 8: zero tests ran' };
  return { kind: 'failed', text: code === null ? 'no exit code' : `exit code ${code}: ${mtpExitCodes[code] ?? 'not a documented test platform exit code'}` };
}

/**
 * The totals `dotnet test` prints in MTP mode (`total: N`, `failed: N`, `succeeded: N`,
 * `skipped: N`), for an app that offers no TRX option; null when the output has none.
 */
export function parseMtpSummary(output: string): TestCounters | null {
  const value = (name: string) => {
    const match = new RegExp(`^\\s*${name}:\\s*(\\d+)\\s*$`, 'mi').exec(output);
    return match ? Number(match[1]) : null;
  };
  const total = value('total');
  const failed = value('failed');
  const passed = value('succeeded');
  const skipped = value('skipped');
  if (total === null || failed === null || passed === null) return null;
  const counters = emptyCounters();
  counters.total = total;
  counters.failed = failed;
  counters.passed = passed;
  counters.skipped = skipped ?? 0;
  counters.other = Math.max(0, total - failed - passed - counters.skipped);
  return counters;
}

/** `error :` lines of an MSBuild or dotnet test run, without their project suffix. */
export function errorLines(output: string, max = 3): string[] {
  return output
    .split(/\r?\n/)
    .filter((line) => /\berror\b\s*(\w+\d+)?\s*:/i.test(line))
    .map((line) => line.replace(/\s*\[[^\]]+\]\s*$/, '').trim())
    .filter((line, index, all) => all.indexOf(line) === index)
    .slice(0, max);
}

/**
 * True when an MTP app's exit code says its test host stopped before the run finished: 3 (the
 * session was aborted), 7 (the test host exited before the run finished), or a code the platform
 * does not define at all, which is the process's own end: 134 (SIGABRT: Environment.FailFast, a
 * stack overflow), 139 (SIGSEGV), or the code a test passed to Environment.Exit.
 */
export function mtpHostStopped(code: number | null): boolean {
  return code !== null && code !== 0 && (code === 3 || code === 7 || !(code in mtpExitCodes));
}

/**
 * What a stopped test host said before it ended, in a few words: the lines after VSTest's `Test host
 * process crashed :` or MTP's `Error output:` up to the first stack frame (`Process terminated. a
 * test ended its test host`, `Stack overflow.`; or from those words on, in an app's own output log), and the first frame outside the runtime and the
 * test frameworks (the code that stopped it). Null when the output names neither.
 */
export function hostStopCause(text: string): { said: string | null; where: string | null } {
  const start = /Test host process (?:crashed|exited)[^:\n]*:\s?|Error output:\s?|^(?=Process terminated\.|Stack overflow\.)/im.exec(text);
  if (!start) return { said: null, where: null };
  const lines = text.slice(start.index + start[0].length).split(/\r?\n/).slice(0, 200);
  const said: string[] = [];
  let where: string | null = null;
  let inStack = false;
  for (const raw of lines) {
    const line = raw.trim();
    const frame = /^at ([\w.`+<>]+)\(/.exec(line);
    if (frame) {
      inStack = true;
      if (!/^(System|Microsoft|Xunit|NUnit|Internal)\./.test(frame[1]!)) {
        where = frame[1]!;
        break;
      }
    } else if (!inStack && line && said.length < 3) said.push(line);
  }
  return { said: said.length ? said.join(' ').slice(0, 200) : null, where };
}

/** A failed test as MTP's terminal reporter prints it (`failed Name (12ms)`, its message, `from …`, its stack). */
export interface PrintedFailure {
  name: string;
  message: string;
  stackTrace: string;
}

/**
 * The failed tests `dotnet test` printed in MTP mode, for an app that offers no TRX option (NUnit's
 * and MSTest's runners without Microsoft.Testing.Extensions.TrxReport):
 *
 *     failed Debit_Subtracts (114ms)
 *       Assert.AreEqual failed. Expected:<70>. Actual:<69>.
 *       from …/Ledger.MSTest.dll (net10.0|x64)
 *       Assert.AreEqual failed. Expected:<70>. Actual:<69>.
 *         at Ledger.MSTest.AccountTests.Withdrawals.Debit_Subtracts() in …/LedgerTests.cs:17
 *
 * The reporter prints the display name (the method's name); when the first frame of the stack is
 * that method, its qualified name is used instead (Ledger.MSTest.AccountTests.Withdrawals.Debit_Subtracts).
 */
export function parseMtpFailures(output: string): PrintedFailure[] {
  const failures: PrintedFailure[] = [];
  const lines = output.split(/\r?\n/);
  const header = /^(?:failed|error|timed out) (.+) \((?:\d+[hms]{1,2} ?)+\)$/;
  for (let i = 0; i < lines.length; i++) {
    const match = header.exec(lines[i]!);
    if (!match) continue;
    const display = match[1]!;
    const message: string[] = [];
    const stack: string[] = [];
    let fromSeen = false;
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      // The block is the indented lines under the header; the next header or an unindented line ends it.
      if (header.test(line) || (line !== '' && !/^\s/.test(line))) break;
      if (/^\s{2}from .+\(\S+\|\S+\)$/.test(line)) {
        fromSeen = true;
        continue;
      }
      const trimmed = line.trim();
      // NUnit repeats the stack numbered (`1)    at …`): the first copy is kept.
      if (/^at /.test(trimmed)) stack.push(trimmed.replace(/ in (.+):(\d+)$/, (whole, file: string, line: string) => (/:line$/.test(file) ? whole : ` in ${file}:line ${line}`)));
      else if (!fromSeen && !/^\d+\)\s+at /.test(trimmed)) message.push(line.replace(/^ {2}/, ''));
    }
    i = j - 1;
    const first = /^at ([\w.`+<>]+)\(/.exec(stack[0] ?? '');
    const name = first?.[1]!.endsWith(`.${display}`) ? first[1]! : display;
    failures.push({ name, message: message.join('\n').trim(), stackTrace: stack.join('\n') });
  }
  return failures;
}

/** A text file a test app wrote (its first `maxBytes`): UTF-16 when it starts with its byte-order mark (an MTP app's output log under VSTest mode), else UTF-8. */
export function readLogText(file: string, maxBytes = 4 * 1024 * 1024): string {
  const handle = fs.openSync(file, 'r');
  let bytes: Buffer;
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes, fs.fstatSync(handle).size));
    bytes = buffer.subarray(0, fs.readSync(handle, buffer, 0, buffer.length, 0));
  } finally {
    fs.closeSync(handle);
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}
