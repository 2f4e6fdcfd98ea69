// The report of one verification while its steps fill it in, and the rules that turn its sections
// into a status and a summary: bounded diagnostics and texts, the build and test sections, and
// finish(), which every way out of a run (a stop or the end) goes through.
import * as path from 'node:path';
import type { DiagnosticCollector } from '../diagnostics';
import { commandLine, type ProcessOutcome } from '../processRunner';
import { emptyCounters, type BuildSection, type Prerequisite, type Selection, type Step, type TestSection, type VerificationReport, type VerificationStatus } from '../report';
import type { VerifyRequest } from '../request';

const maxDiagnostics = 200;
export const maxFailedTests = 100;
const maxTextLength = 4000;

/** `text`, cut at `max` characters with a note of how much was left out. */
export const clip = (text: string, max = maxTextLength) => (text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text);

export class ReportBuilder {
  /** When the run started; moved to the moment the person answered the approval (their wait is not the run's). */
  started = Date.now();
  readonly steps: Step[] = [];
  readonly prerequisites: Prerequisite[] = [];
  readonly notes: string[] = [];
  selection: Selection | null = null;
  build: BuildSection | null = null;
  tests: TestSection | null = null;
  lockWaitMs = 0;
  target: string | null = null;

  constructor(
    readonly request: VerifyRequest,
    readonly workspaceFolder: string,
  ) {}

  relative(file: string): string {
    return path.relative(this.workspaceFolder, file).split(path.sep).join('/') || path.basename(file);
  }

  addStep(step: Step): void {
    this.steps.push(step);
  }

  finish(status: VerificationStatus, summary: string): VerificationReport {
    const finished = Date.now();
    return {
      schemaVersion: 1,
      status,
      summary,
      scope: this.request.scope,
      workspaceFolder: this.workspaceFolder,
      target: this.target,
      configuration: this.request.configuration,
      framework: this.request.framework ?? null,
      restore: this.request.restore,
      timeoutSeconds: this.request.timeoutSeconds,
      startedAt: new Date(this.started).toISOString(),
      finishedAt: new Date(finished).toISOString(),
      durationMs: finished - this.started,
      lockWaitMs: this.lockWaitMs,
      selection: this.selection,
      prerequisites: this.prerequisites,
      steps: this.steps,
      build: this.build,
      tests: this.tests,
      notes: this.notes,
    };
  }

  /** A verification the permission policy (or the person) refused: it ran nothing. */
  denied(message: string): VerificationReport {
    this.notes.push(message);
    return this.finish('denied', `permission_denied: ${message}`);
  }

  /** The end of a run whose steps all ran: the status follows from the build and test sections. */
  finishFromSections(): VerificationReport {
    const build = this.build?.status;
    const tests = this.tests?.status;
    let status: VerificationStatus;
    if (build === 'cancelled' || tests === 'cancelled') status = 'cancelled';
    else if (build === 'timedOut' || tests === 'timedOut') status = 'timedOut';
    else if (build === 'failed' || tests === 'failed') status = 'failed';
    else if (build === 'missingPrerequisites' || tests === 'missingPrerequisites' || this.prerequisites.length > 0) status = 'missingPrerequisites';
    else if (this.request.scope === 'tests' && tests === 'skipped') status = 'skipped';
    else status = 'passed';
    return this.finish(status, this.summarize(status));
  }

  summarize(status: VerificationStatus): string {
    const parts: string[] = [];
    const build = this.build;
    if (build) {
      const unknown = build.warningsUnknownFor?.length ?? 0;
      parts.push(`build ${build.status} (${build.errors} error(s), ${build.warnings} warning(s)${unknown > 0 ? `; warnings of ${unknown} compile(s) not known, see the note` : ''})`);
    }
    const tests = this.tests;
    if (tests) {
      const c = tests.counters;
      parts.push(
        tests.status === 'notRun' || (tests.status === 'skipped' && c.total === 0)
          ? `tests ${tests.status}${tests.reason ? `: ${tests.reason}` : ''}`
          : `tests ${tests.status}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped in ${tests.projects.length} project(s)${tests.projects.some((p) => p.incomplete) ? ' (results incomplete)' : ''}`,
      );
      // --tests reached: which tests ran, in the summary every surface shows (sidebar, chat, CLI, MCP).
      if (tests.selection) parts.push(`tests: ${tests.selection}`);
      if (tests.failedTests.length > 0) parts.push(`failing: ${tests.failedTests.slice(0, 3).map((t) => t.name).join(', ')}${tests.failedTests.length > 3 ? ', …' : ''}`);
      // A failed project that no named failing test explains (its test host stopped, its TRX is missing,
      // its exit code contradicts its counts) is named with why: its counts alone would read as a pass.
      const unexplained = tests.projects.filter((p) => p.status === 'failed' && (p.incomplete !== undefined || !tests.failedTests.some((t) => t.project === p.project)));
      for (const project of unexplained.slice(0, 3)) parts.push(`${project.project}: ${project.incomplete ? `${project.incomplete}, so its results are incomplete` : clip(project.reason ?? 'failed', 200)}`);
      if (unexplained.length > 3) parts.push(`${unexplained.length - 3} more project(s) failed without a named test`);
    }
    if (this.prerequisites.length > 0) parts.push(`${this.prerequisites.length} missing prerequisite(s)`);
    return `${status}: ${parts.join('; ') || 'nothing ran'}`;
  }
}

/** What a step that needed no process reports, as a passing command's outcome would (a kept or in-host answer). */
export function answeredWithoutProcess(text: string, startedAt: string, durationMs: number): ProcessOutcome {
  return { kind: 'exited', exitCode: 0, signal: null, startedAt, durationMs, log: { text, truncated: false, totalBytes: Buffer.byteLength(text) } };
}

/** The report's record of one process. */
export function stepFrom(kind: Step['kind'], target: string, file: string, args: readonly string[], cwd: string, outcome: ProcessOutcome): Step {
  return {
    kind,
    target,
    commandLine: commandLine(file, args),
    cwd,
    startedAt: outcome.startedAt,
    durationMs: outcome.durationMs,
    outcome: outcome.kind,
    exitCode: outcome.exitCode,
    log: outcome.log,
  };
}

export function buildSection(status: BuildSection['status'], reason: string | null, collector: DiagnosticCollector): BuildSection {
  const diagnostics = collector.list();
  return {
    status,
    reason,
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
    diagnostics: diagnostics.slice(0, maxDiagnostics).map((d) => ({ ...d, message: clip(d.message, 1000) })),
    omittedDiagnostics: Math.max(0, diagnostics.length - maxDiagnostics),
  };
}

export function notRunTests(reason: string): TestSection {
  return { status: 'notRun', reason, counters: emptyCounters(), projects: [], failedTests: [], omittedFailedTests: 0, resultsDirectory: null };
}

/** A path or name as a person would type it in a shell command the report suggests. */
export function quoteForShell(value: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(value) ? value : `"${value.replace(/"/g, '\\"')}"`;
}
