// Parses MSBuild's canonical error format out of build output and de-duplicates it: the console
// logger repeats diagnostics in its summary, and multi-targeted builds repeat them per framework.
//   origin(line,col[,endLine,endCol]): [subcategory ]error|warning [CODE]: text [project[::TargetFramework=tfm]]
import type { Diagnostic } from './report';

const canonical =
  /^\s*(?<origin>.*?)(?:\((?<line>\d+)(?:-\d+)?(?:,(?<column>\d+)(?:-\d+)?)?(?:,(?<endLine>\d+),(?<endColumn>\d+))?\))?\s*:\s*(?:[^:]*?\s)?(?<severity>error|warning)(?:\s+(?<code>[A-Za-z]+\d+))?\s*:\s*(?<text>.*)$/;
const projectSuffix = /\s+\[(?<project>[^\][]+?)(?:::TargetFramework=(?<tfm>[^\]]+))?\]\s*$/;

export function parseDiagnosticLine(line: string): Diagnostic | undefined {
  const match = canonical.exec(line);
  if (!match?.groups) return undefined;
  const groups = match.groups as Record<string, string | undefined>;
  let text = groups.text ?? '';
  let project: string | null = null;
  let framework: string | undefined;
  const suffix = projectSuffix.exec(text);
  if (suffix?.groups) {
    project = suffix.groups.project ?? null;
    framework = suffix.groups.tfm;
    text = text.slice(0, suffix.index);
  }
  const origin = (groups.origin ?? '').trim();
  // Lines such as "Build FAILED." or timestamps are not diagnostics; an origin always looks like a path or a tool name.
  if (origin.length > 0 && /\s{2,}/.test(origin)) return undefined;
  const num = (value: string | undefined) => (value === undefined ? null : Number(value));
  return {
    severity: groups.severity as 'error' | 'warning',
    code: groups.code ?? null,
    message: text.trim(),
    file: origin.length > 0 ? origin : null,
    line: num(groups.line),
    column: num(groups.column),
    endLine: num(groups.endLine),
    endColumn: num(groups.endColumn),
    project,
    frameworks: framework ? [framework] : [],
  };
}

/** Collects diagnostics line by line, keeping each (file, line, column, code, text) once. */
export class DiagnosticCollector {
  private readonly byKey = new Map<string, Diagnostic>();

  add(line: string): void {
    const diagnostic = parseDiagnosticLine(line);
    if (diagnostic) this.addDiagnostic(diagnostic);
  }

  addDiagnostic(diagnostic: Diagnostic): void {
    const key = [diagnostic.severity, diagnostic.file, diagnostic.line, diagnostic.column, diagnostic.code, diagnostic.message].join('\u0000');
    const existing = this.byKey.get(key);
    if (!existing) {
      this.byKey.set(key, diagnostic);
      return;
    }
    for (const framework of diagnostic.frameworks) if (!existing.frameworks.includes(framework)) existing.frameworks.push(framework);
    existing.project ??= diagnostic.project;
  }

  list(): Diagnostic[] {
    return [...this.byKey.values()].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  }
}

/** Codes that mean "something must be installed or restored", not "the code is wrong". */
export const prerequisiteCodes: Record<string, 'assets' | 'sdk' | 'runtime'> = {
  NETSDK1004: 'assets', // assets file not found
  NETSDK1005: 'assets', // assets file has no target for the framework
  NETSDK1047: 'assets', // assets file has no target for the framework and runtime
  NETSDK1045: 'sdk', // the SDK does not support the target framework
  NETSDK1141: 'sdk', // unable to resolve the SDK version in global.json
  MSB4236: 'sdk', // the SDK specified could not be found
  NETSDK1127: 'sdk', // targeting pack not installed
  NETSDK1112: 'assets', // runtime pack not downloaded
  NETSDK1083: 'sdk', // the RuntimeIdentifier is not recognized
};

/** Codes that mean another build touched the same files at the same time. */
export const interferenceCodes = new Set(['CS2012', 'MSB3713', 'MSB3026', 'MSB3027', 'MSB3021', 'NU1403']);
