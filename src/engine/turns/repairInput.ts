// What a repair pass is told about the failed check: bounded compiler diagnostics, the errors
// that are new against the turn's starting point first, then the failed tests with their
// messages. Agents pay for every byte: the text stays under maxBytes and says how much it left out.
import * as path from 'node:path';
import type { Diagnostic, FailedTest, VerificationReport } from '../verification/report';

export const defaultRepairInputBytes = 6 * 1024;

const keyOf = (diagnostic: Diagnostic) => `${diagnostic.code ?? ''}|${diagnostic.file ?? ''}|${diagnostic.message}`;

/** One diagnostic as agents read it: `- path(line,col): severity CODE: message`. */
export function diagnosticLine(diagnostic: Diagnostic, workspaceFolder: string): string {
  const file = diagnostic.file && path.isAbsolute(diagnostic.file) ? path.relative(workspaceFolder, diagnostic.file) : (diagnostic.file ?? '');
  const where = diagnostic.line === null ? file : `${file}(${diagnostic.line}${diagnostic.column === null ? '' : `,${diagnostic.column}`})`;
  return `- ${where}: ${diagnostic.severity} ${diagnostic.code ?? ''}: ${diagnostic.message}`.replace(/ {2,}/g, ' ');
}

function testLines(test: FailedTest): string[] {
  const message = test.message.trim().split('\n').slice(0, 6).join('\n  ');
  const stack = test.stackTrace.trim().split('\n').slice(0, 3).join('\n  ');
  return [`- ${test.name} (${test.project}, ${test.outcome}): ${message}`, ...(stack ? [`  ${stack}`] : [])];
}

/**
 * @param baseline the build diagnostics when the turn started (the cached report's), if any:
 *   errors not among them were made by this turn and come first.
 */
export function repairInput(report: VerificationReport, baseline: readonly Diagnostic[] | undefined, maxBytes = defaultRepairInputBytes): string {
  const errors = (report.build?.diagnostics ?? []).filter((diagnostic) => diagnostic.severity === 'error');
  const known = new Set((baseline ?? []).map(keyOf));
  const fresh = errors.filter((diagnostic) => !known.has(keyOf(diagnostic)));
  const older = errors.filter((diagnostic) => known.has(keyOf(diagnostic)));
  const failedTests = report.tests?.failedTests ?? [];
  const sections: { heading: string; lines: string[] }[] = [];
  if (fresh.length > 0) sections.push({ heading: baseline ? 'Errors new since the turn started:' : 'Build errors:', lines: fresh.map((d) => diagnosticLine(d, report.workspaceFolder)) });
  if (older.length > 0) sections.push({ heading: 'Errors that were there before the turn:', lines: older.map((d) => diagnosticLine(d, report.workspaceFolder)) });
  if (failedTests.length > 0) sections.push({ heading: 'Failed tests:', lines: failedTests.flatMap(testLines) });

  const head = `Verification ${report.status} (${report.scope}): ${report.summary}\nFix these, then stop; the check runs again automatically.`;
  const out: string[] = [head];
  let size = Buffer.byteLength(head);
  let omitted = 0;
  for (const section of sections) {
    const headingSize = Buffer.byteLength(section.heading) + 1;
    let wroteHeading = false;
    for (const line of section.lines) {
      const lineSize = Buffer.byteLength(line) + 1 + (wroteHeading ? 0 : headingSize);
      if (size + lineSize > maxBytes - 80) {
        omitted++;
        continue;
      }
      if (!wroteHeading) out.push(section.heading);
      wroteHeading = true;
      out.push(line);
      size += lineSize;
    }
  }
  const omittedByReport = (report.build?.omittedDiagnostics ?? 0) + (report.tests?.omittedFailedTests ?? 0);
  if (omitted + omittedByReport > 0) out.push(`(${omitted + omittedByReport} more diagnostics or failed tests not shown)`);
  return out.join('\n');
}
