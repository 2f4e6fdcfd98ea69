// The compact text of a report, for agents (verify_workspace) and the CLI's text output:
// fixed order, few tokens, the facts needed to act.
import type { VerificationReport } from './report';
import { runnerNames } from './testRunner';

export function renderReport(report: VerificationReport, limits = { diagnostics: 20, failedTests: 10 }): string {
  const lines: string[] = [`verify ${report.scope} ${report.target ?? '(no target)'} [${report.configuration}${report.framework ? `, ${report.framework}` : ''}]: ${report.summary}`];
  const selection = report.selection;
  if (selection && report.scope === 'affected') {
    lines.push(`selection: ${selection.wholeTarget ? 'whole target' : `${selection.projects.length} project(s)`} — ${selection.reason}`);
    if (!selection.wholeTarget) for (const project of selection.projects) lines.push(`  ${project.path}: ${project.reasons.join('; ')}`);
  }
  for (const prerequisite of report.prerequisites) lines.push(`missing ${prerequisite.kind}: ${prerequisite.message}${prerequisite.command ? `\n  run: ${prerequisite.command}` : ''}`);
  const build = report.build;
  if (build) {
    if (build.reason && build.status !== 'passed') lines.push(`build: ${build.reason}`);
    for (const d of build.diagnostics.filter((x) => x.severity === 'error').slice(0, limits.diagnostics)) {
      lines.push(`${d.file ?? ''}${d.line !== null ? `(${d.line},${d.column ?? 0})` : ''}: error ${d.code ?? ''}: ${d.message}`);
    }
    const shownErrors = Math.min(build.errors, limits.diagnostics);
    if (build.errors > shownErrors) lines.push(`… ${build.errors - shownErrors} more error(s)`);
  }
  const tests = report.tests;
  if (tests) {
    for (const project of tests.projects) {
      const c = project.counters;
      lines.push(`tests ${project.project} [${runnerNames[project.runner]}]: ${project.status} (${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped)${project.reason && project.status !== 'passed' ? ` — ${project.reason}` : ''}`);
    }
    for (const test of tests.failedTests.slice(0, limits.failedTests)) {
      lines.push(`FAILED ${test.name} [${test.project}, ${test.framework}]: ${test.message.split('\n')[0] ?? ''}`);
      const frame = test.stackTrace.split('\n').find((line) => /:line \d+/.test(line));
      if (frame) lines.push(`  ${frame.trim()}`);
    }
    const more = tests.failedTests.length - Math.min(tests.failedTests.length, limits.failedTests) + tests.omittedFailedTests;
    if (more > 0) lines.push(`… ${more} more failed test(s)`);
  }
  for (const note of report.notes) lines.push(`note: ${note}`);
  return lines.join('\n');
}
