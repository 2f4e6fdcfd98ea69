// Compact text for symbol results: positions as line:character, one line per file, fixed order.
import type { FindReferencesResult, FlavourNote, GeneratorGap, ResolvedSymbol, SymbolResolveResult, TypeHierarchyResult } from '../../protocol/symbols';
import type { ExcludedAnalyzers } from '../../protocol/semantic';
import { excludedAnalyzersLine } from '../solutionInspect/renderSolutionInspect';

/** "src/A.cs 12:9 40:17" lines, one per file, files and positions in order. */
export function renderLocationLines(locations: ReadonlyArray<{ path: string; line: number; character: number }>): string[] {
  const byFile = new Map<string, string[]>();
  for (const location of locations) byFile.set(location.path, [...(byFile.get(location.path) ?? []), `${location.line}:${location.character}`]);
  return [...byFile.entries()].map(([file, positions]) => `${file} ${positions.join(' ')}`);
}

export function renderSymbolLine(symbol: ResolvedSymbol): string {
  const first = symbol.locations[0];
  return `${first ? `${first.path}:${first.line}:${first.character} ` : ''}${symbol.kind} ${symbol.name}`;
}

/** "A, B, C and 4 more": the first names of a list of `total`. */
export function namedList(names: readonly string[], total: number): string {
  const more = total > names.length ? ` and ${total - names.length} more` : '';
  return `${names.join(', ')}${more}`;
}

/**
 * The lines that keep a list answer from being a confident "none" or "all": each excluded generator that runs in
 * projects that can see the symbol could add to it with code SharpClaw never sees, e.g.
 * "may be incomplete: Markers.Gen (project generator, not run) could implement it in Shapes.Models/Shapes.Models.csproj".
 */
export function generatorGapLines(gaps: readonly GeneratorGap[] | null | undefined, could: string): string[] {
  return (gaps ?? []).map((gap) =>
    gap.declares
      ? // The generator may declare the type itself (Jab's IServiceProvider<T>): there its implementers bind to nothing.
        `${gap.generator} (${gap.origin}, not run) may declare ${gap.declares}: ${gap.unresolvedUses === 1 ? '1 use (base type, attribute or typeof)' : `${gap.unresolvedUses ?? 0} uses (base types, attributes, typeof)`} in ${namedList(gap.projects, gap.projectCount)} name it and bind to nothing, so what implements or uses it there cannot be listed`
      : `may be incomplete: ${gap.generator} (${gap.origin}, not run) could ${could} it in ${namedList(gap.projects, gap.projectCount)}`,
  );
}

/** The first line when a file-name or suffix argument was resolved to a workspace file. */
export function resolvedFileLines(result: { resolvedFile?: string | null | undefined }): string[] {
  return result.resolvedFile ? [`resolved file: ${result.resolvedFile}`] : [];
}

/**
 * The project line of a symbol answer. For a multi-targeted declaring project it names the flavours once:
 * "(netstandard2.0, netstandard2.1; searched both)" when every flavour was searched and merged, else the
 * answering flavour and why it is the default ("netstandard2.1: 3 of 4 dependent projects compile against it").
 */
export function projectLine(result: { project: string; targetFramework: string | null; flavours?: FlavourNote | null | undefined }): string {
  const flavours = result.flavours;
  if (!flavours || flavours.frameworks.length < 2) return `project: ${result.project}${result.targetFramework ? ` (${result.targetFramework})` : ''}`;
  const all = flavours.frameworks;
  if (flavours.searched) return `project: ${result.project} (${all.join(', ')}; searched ${all.length === 2 ? 'both' : `all ${all.length}`})`;
  const others = all.filter((framework) => framework !== result.targetFramework);
  const why = flavours.dependents === 0 ? 'no project depends on it' : `${flavours.compileAgainst} of ${flavours.dependents} dependent projects compile against it`;
  return `project: ${result.project} (${result.targetFramework ?? 'unknown'}: ${why}; not searched: ${others.join(', ')})`;
}

export function answeredBy(result: { project: string; targetFramework: string | null; excludedAnalyzers: ExcludedAnalyzers[] | null; flavours?: FlavourNote | null | undefined }, withExclusion = true): string[] {
  return [projectLine(result), ...(withExclusion ? excludedAnalyzersLine(result.excludedAnalyzers ?? [], [result.project]) : [])];
}

export function renderSymbolResolve(result: SymbolResolveResult): string {
  return [...resolvedFileLines(result), `${result.symbol.kind} ${result.symbol.name}`, ...renderLocationLines(result.symbol.locations), ...answeredBy(result)].join('\n');
}

export function renderFindReferences(result: FindReferencesResult): string {
  const lines = [...resolvedFileLines(result), `references of ${result.symbol.kind} ${result.symbol.name}`];
  if (result.total === 0) lines.push('no references');
  else if (result.references.length === 0) lines.push(`offset ${result.offset} is past the last of ${result.total} references`);
  else if (result.references.some((reference) => reference.context !== null)) {
    for (const reference of result.references) lines.push(`${reference.path}:${reference.line}:${reference.character} ${reference.context ?? ''}`.trimEnd());
  } else lines.push(...renderLocationLines(result.references));
  if (result.omittedGenerated > 0) lines.push(`${result.omittedGenerated} source-generated occurrences left out`);
  lines.push(...generatorGapLines(result.generatorGaps, 'reference'));
  lines.push(...answeredBy(result));
  if (result.truncated && result.nextOffset !== null) {
    lines.push(`truncated: ${result.total} locations in total, next offset: ${result.nextOffset}. Raise limit or narrow the query.`);
  }
  return lines.join('\n');
}

export function renderTypeHierarchy(result: TypeHierarchyResult): string {
  const lines = [...resolvedFileLines(result), `${result.symbol.kind} ${result.symbol.name}`];
  const sections: Array<[string, TypeHierarchyResult['baseTypes']]> = [
    ['base types', result.baseTypes],
    ['interfaces', result.interfaces],
    ['derived types', result.derivedTypes],
    ['implementations', result.implementations],
  ];
  for (const [title, collection] of sections) {
    lines.push(`## ${title}`);
    // Where a generator SharpClaw does not run may declare the type, "none" is only what the compiled code shows.
    if (collection.items.length === 0) lines.push(`no ${title}${(result.generatorGaps ?? []).some((gap) => gap.declares) ? ' in the compiled code' : ''}`);
    for (const item of collection.items) lines.push(renderSymbolLine(item));
    if (collection.truncated) lines.push(`truncated: ${collection.total} ${title} in total; raise limit (${result.limit}) to see more.`);
  }
  lines.push(...generatorGapLines(result.generatorGaps, result.symbol.kind === 'interface' ? 'implement' : 'derive from'));
  lines.push(...answeredBy(result));
  return lines.join('\n');
}
