// What a new turn's prompt says about the code's current state: the diagnostics of the most
// recent authorized verification whose build ran, when one is cached. Prompt assembly never
// builds anything; without a cached build result it says nothing. Bounded: errors first, then
// warnings, under maxBytes, with a count of what it left out.
import type { VerificationReport } from '../verification/report';
import { diagnosticLine } from './repairInput';
import { namedUpTo } from '../verification/compileMemory';

export const defaultPromptDiagnosticsBytes = 2 * 1024;

export function promptDiagnostics(report: VerificationReport | undefined, workspaceFolder: string, maxBytes = defaultPromptDiagnosticsBytes): string | undefined {
  const build = report?.build;
  if (!report || !build || report.workspaceFolder !== workspaceFolder) return undefined;
  // Compiles whose warnings the verifier could not see (compileMemory.ts) are named, so the model does not read "0 warnings" as all clear.
  const unknown = build.warningsUnknownFor?.length ? ` (warnings not known for ${namedUpTo(build.warningsUnknownFor, 5)})` : '';
  const head = `The most recent verification (${report.scope}, finished ${report.finishedAt}) built with ${build.errors} error(s) and ${build.warnings} warning(s)${unknown}${build.diagnostics.length > 0 ? ':' : '.'}`;
  const ordered = [...build.diagnostics.filter((d) => d.severity === 'error'), ...build.diagnostics.filter((d) => d.severity !== 'error')];
  const lines = [head];
  let size = Buffer.byteLength(head);
  let omitted = build.omittedDiagnostics;
  for (const diagnostic of ordered) {
    const line = diagnosticLine(diagnostic, report.workspaceFolder);
    if (size + Buffer.byteLength(line) + 1 > maxBytes - 60) {
      omitted++;
      continue;
    }
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  if (omitted > 0) lines.push(`(${omitted} more not shown)`);
  return lines.join('\n');
}
