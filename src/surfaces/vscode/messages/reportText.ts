// A verification report in a person's words, for the toast after a verification and for the
// sidebar: "Verify Affected failed: build passed with 1 warning; 3 tests passed, 1 failed
// (OrdersOfExactlyOneHundredGetTheDiscount)." Agents keep report.summary and the raw statuses.
// No vscode import: the sidebar's webview bundles this file.
import type { VerificationReport } from '../../../engine/verification/report';
import { count, firstSentence } from './personText';

const statusWords: Record<string, string> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  notRun: 'not run',
  timedOut: 'timed out',
  cancelled: 'cancelled',
  missingPrerequisites: 'prerequisites missing',
  denied: 'permission denied',
};

/** "not run" for notRun, "timed out" for timedOut, …: never a raw enum value. */
export function statusWord(status: string): string {
  return statusWords[status] ?? status;
}

export const scopeTitle: Record<VerificationReport['scope'], string> = {
  affected: 'Verify Affected',
  all: 'Verify All',
  build: 'Verify Build',
  tests: 'Verify Tests',
};

/** "build passed with 1 warning", "build failed with 2 errors and 1 warning", "build not run". */
export function buildWords(build: NonNullable<VerificationReport['build']>): string {
  const warnings = build.warnings ? count(build.warnings, 'warning') : '';
  if (build.status === 'failed' && build.errors > 0) return `build failed with ${count(build.errors, 'error')}${warnings ? ` and ${warnings}` : ''}`;
  return `build ${statusWord(build.status)}${warnings ? ` with ${warnings}` : ''}`;
}

/** "3 tests passed, 1 failed", "tests not run". */
export function testWords(tests: NonNullable<VerificationReport['tests']>): string {
  const c = tests.counters;
  if (c.total === 0) return `tests ${statusWord(tests.status)}`;
  const rest = [c.failed ? `${c.failed} failed` : '', c.skipped ? `${c.skipped} skipped` : ''].filter(Boolean);
  return `${count(c.passed, 'test')} passed${rest.length ? `, ${rest.join(', ')}` : ''}`;
}

/** One sentence for the toast and the top of the report. */
export function reportSentence(report: VerificationReport): string {
  const title = scopeTitle[report.scope];
  if (report.status === 'denied') return `${title} did not run: ${firstSentence(report.notes[0] ?? 'permission was denied.')}`;
  const parts: string[] = [];
  if (report.build) parts.push(buildWords(report.build));
  if (report.tests) {
    const failing = report.tests.failedTests.map((test) => test.name.split('.').at(-1) ?? test.name);
    parts.push(`${testWords(report.tests)}${failing.length ? ` (${failing.slice(0, 3).join(', ')}${failing.length > 3 ? ', …' : ''})` : ''}`);
  }
  if (report.prerequisites.length) parts.push(count(report.prerequisites.length, 'missing prerequisite'));
  if (parts.length === 0) return `${title} ${statusWord(report.status)}: ${firstSentence(report.summary.replace(/^[A-Za-z]+: /, ''))}`;
  return `${title} ${statusWord(report.status)}: ${parts.join('; ')}.`;
}
