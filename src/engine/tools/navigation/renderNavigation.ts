// Compact text for csharp_navigate, csharp_bulk_navigate and csharp_symbols, in the bridge-tools
// formats: locations one line per file, related symbols as "path:line:char kind Name" with indented
// call sites, fixed order, a final truncated: line when a page leaves results out.
import type { BulkNavigateResult, NavigateLocation, NavigateResult, RelatedSymbol, SourcePart, SymbolsResult } from '../../protocol/navigation';
import { linesWithinBudget, resultLinesBudget } from '../answerBudget';
import { ToolError } from '../../errors';
import { answeredBy, generatorGapLines, renderLocationLines, resolvedFileLines } from '../symbols/renderSymbols';
import { excludedAnalyzersLine } from '../solutionInspect/renderSolutionInspect';
import type { NavigateAction } from '../../protocol/paramRules';
import type { GeneratorGap } from '../../protocol/symbols';

const locationActions = new Set<string>(['definition', 'type_definition', 'implementation', 'references', 'reads', 'writes'] satisfies NavigateAction[]);
const relatedActions = new Set<string>(['callers', 'callees', 'supertypes', 'subtypes', 'tests'] satisfies NavigateAction[]);

const emptyLocations: Partial<Record<NavigateAction, string>> & Record<string, string | undefined> = {
  definition: 'no definition in source (declared in metadata)',
  type_definition: 'no type definition in source (declared in metadata, or the symbol has no named type)',
  implementation: 'no implementations',
  references: 'no references',
  reads: 'no reads',
  writes: 'no writes',
};

export const noCallersNote = 'Reflection or code outside the workspace may still call it.';

/** What code an excluded generator writes could do to the symbol, by action: "could implement it". */
export const generatorCould: Record<string, string> = {
  implementation: 'implement',
  subtypes: 'implement or derive from',
  references: 'reference',
  reads: 'read',
  writes: 'write',
  callers: 'call',
  impact: 'reference, call or implement',
  tests: 'call',
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function positionLines(locations: readonly NavigateLocation[], withContext: boolean): string[] {
  if (!withContext) return renderLocationLines(locations);
  return locations.map((location) => `${location.path}:${location.line}:${location.character} ${location.context ?? ''}`.trimEnd());
}

/** Call sites under a related symbol: "  calls 7:59 9:3", or one per line with context. A site in another file than expected carries its path. */
function callSiteLines(sites: readonly NavigateLocation[], expectedPath: string | undefined): string[] {
  const at = (site: NavigateLocation) => `${site.path === expectedPath ? '' : `${site.path}:`}${site.line}:${site.character}`;
  if (sites.some((site) => site.context !== null)) return sites.map((site) => `  calls ${at(site)} ${site.context ?? ''}`.trimEnd());
  return sites.length ? [`  calls ${sites.map(at).join(' ')}`] : [];
}

export function renderRelatedLine(symbol: RelatedSymbol): string {
  const where = symbol.location ? `${symbol.location.path}:${symbol.location.line}:${symbol.location.character} ` : '';
  return `${where}${symbol.kind} ${symbol.name}${symbol.via ? ` via ${symbol.via}` : ''}`;
}

function relatedLines(action: string, related: readonly RelatedSymbol[], requestedPath: string | undefined): string[] {
  const lines: string[] = [];
  for (const symbol of related) {
    lines.push(renderRelatedLine(symbol));
    if (symbol.callSites) lines.push(...callSiteLines(symbol.callSites, action === 'callers' ? symbol.location?.path : requestedPath));
  }
  return lines;
}

function generatedCallsLine(count: number): string {
  return `${plural(count, 'source-generated call site')} left out`;
}

/** The empty list's line; "in the compiled code" where an excluded generator may declare the type itself. */
function emptyRelated(action: string, compiledOnly: boolean): string[] {
  const where = compiledOnly ? ' in the compiled code' : '';
  if (action === 'tests') return [`no tests reach it${where}`];
  return action === 'callers' ? [`no callers${where}`, noCallersNote] : [`no ${action}${where}`];
}

/**
 * tests: one line naming where the walk met code it cannot follow (reflection, DI by type, ...), with the
 * first places; and one when it stopped at its member limit. Either means the list may miss tests.
 */
function testWalkLines(result: NavigateResult): string[] {
  const lines: string[] = [];
  const note = result.unfollowable;
  if (note) {
    const places = note.places.map((place) => `${place.path}:${place.line}:${place.character} ${place.kind}`).join(', ');
    const more = note.total > note.places.length ? ` (first ${note.places.length} of ${note.total})` : '';
    lines.push(`cannot follow: ${places}${more}; tests reaching it only through ${note.total === 1 ? 'it' : 'these'} are not listed`);
  }
  if (result.walkLimit) lines.push(`walk limit: stopped after ${result.walkLimit} members; more tests may reach it`);
  return lines;
}

function pageNoun(action: string): string {
  if (action === 'tests') return 'tests';
  if (relatedActions.has(action)) return 'symbols';
  if (action === 'members') return 'members';
  return 'locations';
}

/**
 * Each declaration's header and text, cut where the text reaches the answer budget (a large class is
 * hundreds of KB), with a line that says where the left-out text starts.
 */
function sourceLines(parts: readonly SourcePart[]): string[] {
  const lines: string[] = [];
  const at: Array<{ path: string; line: number } | undefined> = []; // Each text line's file and line; headers have none.
  for (const part of parts) {
    lines.push(`${part.path}:${part.firstLine}-${part.lastLine} ${part.kind} ${part.name}`);
    at.push(undefined);
    part.text.split(/\r?\n/).forEach((text, i) => {
      lines.push(text);
      at.push({ path: part.path, line: part.firstLine + i });
    });
  }
  const shown = linesWithinBudget(lines);
  if (shown === lines.length) return lines;
  const next = at[shown] ?? at[shown + 1];
  const left = at.slice(shown).filter((line) => line !== undefined).length;
  return [...lines.slice(0, shown), `truncated: ${plural(left, 'line')} of source left out to stay under 8 KB${next ? `; read ${next.path} from line ${next.line}` : ''}, or ask members for the outline.`];
}

const withContext = (list: ReadonlyArray<{ context: string | null }>) => list.some((item) => item.context !== null);

/**
 * How many locations fit the answer budget when each comes with its source line (context), or
 * undefined when all do: without context they are a few positions per file line and always fit.
 */
function locationsWithinBudget(result: NavigateResult): number | undefined {
  const locations = result.locations ?? [];
  if (!locationActions.has(result.action) || !withContext(locations)) return undefined;
  const shown = linesWithinBudget(positionLines(locations, true));
  return shown < locations.length ? shown : undefined;
}

/** Whether an excluded generator may declare the symbol's type itself (its uses bind to nothing somewhere). */
function declaredByGenerator(result: { generatorGaps?: readonly GeneratorGap[] | null | undefined }): boolean {
  return (result.generatorGaps ?? []).some((gap) => gap.declares);
}

function body(result: NavigateResult, shownLocations: number | undefined): string[] {
  const { action } = result;
  const pastTheEnd = `offset ${result.offset} is past the last of ${plural(result.total, pageNoun(action).replace(/s$/, ''))}`;
  if (locationActions.has(action)) {
    const locations = (result.locations ?? []).slice(0, shownLocations);
    // Where a generator SharpClaw does not run may declare the type, "none" is only what the compiled code shows.
    const empty = `${emptyLocations[action] ?? `no ${action}`}${declaredByGenerator(result) ? ' in the compiled code' : ''}`;
    const lines = result.total === 0 ? [empty] : locations.length === 0 ? [pastTheEnd] : positionLines(locations, withContext(locations));
    if (result.omittedGenerated > 0) lines.push(`${result.omittedGenerated} source-generated occurrences left out`);
    return lines;
  }
  if (relatedActions.has(action)) {
    const related = result.related ?? [];
    const lines = result.total === 0 ? emptyRelated(action, declaredByGenerator(result)) : related.length === 0 ? [pastTheEnd] : relatedLines(action, related, result.symbol.locations[0]?.path);
    if (action === 'callees' && result.omittedAccesses > 0) lines.push(`${result.omittedAccesses} property, field and constant accesses left out`);
    if (action === 'callers' && result.omittedGenerated > 0) lines.push(generatedCallsLine(result.omittedGenerated));
    if (action === 'tests') lines.push(...testWalkLines(result));
    return lines;
  }
  switch (action) {
    case 'hover':
      return [result.hover ?? ''];
    case 'source':
      return sourceLines(result.sources ?? []);
    case 'members': {
      const first = result.symbol.locations[0];
      const lines = [`${first ? `${first.path}:${first.line}:${first.character} ` : ''}${result.symbol.kind} ${result.symbol.name}`];
      const members = result.members ?? [];
      if (result.total === 0) lines.push('no members');
      else if (members.length === 0) lines.push(pastTheEnd);
      let file: string | undefined;
      for (const member of members) {
        if (member.path !== file) lines.push((file = member.path));
        lines.push(`  ${member.line}:${member.character} ${member.kind} ${member.name}`);
      }
      return lines;
    }
    case 'impact': {
      const sections = (result.sections ?? []).map((section) => {
        const lines = [`## ${section.action}`];
        if (section.locations) lines.push(...(section.locations.length ? positionLines(section.locations, withContext(section.locations)) : ['no references']));
        if (section.related) lines.push(...(section.related.length ? relatedLines(section.action, section.related, result.symbol.locations[0]?.path) : emptyRelated(section.action, declaredByGenerator(result))));
        if (section.omittedGenerated > 0) lines.push(section.action === 'callers' ? generatedCallsLine(section.omittedGenerated) : `${section.omittedGenerated} source-generated occurrences left out`);
        return { action: section.action, lines, bytes: Buffer.byteLength(lines.join('\n')) + 1 };
      });
      // The host leaves out its largest sections past a count of lines; long lines (context, long
      // names) can still pass the answer budget, so the largest sections by bytes go the same way.
      const omitted = (result.omittedToFit ?? []).map((section) => ({ action: section.action, lines: section.lines }));
      let bytes = sections.reduce((sum, section) => sum + section.bytes, 0);
      while (sections.length > 0 && bytes > resultLinesBudget) {
        const largest = sections.reduce((a, b) => (b.bytes > a.bytes ? b : a));
        sections.splice(sections.indexOf(largest), 1);
        omitted.push({ action: largest.action, lines: largest.lines.length - 1 });
        bytes -= largest.bytes;
      }
      const lines = sections.flatMap((section) => section.lines);
      if (omitted.length) lines.push(`omitted to fit: ${omitted.map((section) => `${section.action} (${plural(section.lines, 'line')})`).join(', ')}. Request those alone.`);
      return lines;
    }
    default:
      return [];
  }
}

export function renderNavigate(result: NavigateResult, withExclusion = true): string {
  const shown = locationsWithinBudget(result);
  const could = generatorCould[result.action];
  const gaps = could ? generatorGapLines(result.generatorGaps, could) : [];
  const lines = [...resolvedFileLines(result), ...body(result, shown), ...gaps, ...answeredBy(result, withExclusion)];
  if (shown !== undefined) {
    lines.push(`truncated: ${shown} of ${plural(result.total, 'location')} shown to stay under 8 KB (each with its source line), next offset: ${result.offset + shown}. Page on, or ask without context.`);
  } else if (result.truncated && result.nextOffset !== null) {
    lines.push(`truncated: ${result.total} ${pageNoun(result.action)} in total, next offset: ${result.nextOffset}. Raise limit or narrow the query.`);
  }
  return lines.join('\n');
}

export function renderBulkNavigate(result: BulkNavigateResult): string {
  const lines: string[] = [];
  // The exclusion line once for the whole answer, naming what the answering projects exclude.
  const answered = result.sections.flatMap((section) => (section.result ? [section.result] : []));
  // Sections in request order while they fit the answer budget together; one that does not is
  // named with its size, so the agent asks for it alone (sixteen sources would be far past 8 KB).
  let bytes = 0;
  for (const section of result.sections) {
    lines.push(`## ${section.index} ${section.action} ${section.target}`);
    const text = section.result
      ? renderNavigate(section.result, false)
      : section.error
        ? new ToolError(section.error.code, section.error.message, section.error.candidates?.length ? { candidates: section.error.candidates } : {}).render()
        : undefined;
    if (text === undefined) continue;
    const size = Buffer.byteLength(text) + 1;
    if (bytes + size > resultLinesBudget) {
      lines.push(`omitted to fit under 8 KB (${plural(text.split('\n').length, 'line')}, ${size} bytes): ask for this query alone.`);
      continue;
    }
    bytes += size;
    lines.push(text);
  }
  const first = answered.find((section) => section.excludedAnalyzers?.length);
  if (first) lines.push(...excludedAnalyzersLine(first.excludedAnalyzers ?? [], [...new Set(answered.map((section) => section.project))]));
  return lines.join('\n');
}

export function renderSymbols(result: SymbolsResult): string {
  const lines = resolvedFileLines(result);
  if (result.total === 0) lines.push('no symbols');
  else if (result.items.length === 0) lines.push(`offset ${result.offset} is past the last of ${plural(result.total, 'symbol')}`);
  for (const item of result.items) {
    if (result.path !== null) {
      const end = item.endLine !== null ? `-${item.endLine}:${item.endCharacter ?? 1}` : '';
      lines.push(`${'  '.repeat(item.depth)}${item.line}:${item.character}${end} ${item.kind} ${item.name}`);
    } else {
      lines.push(`${item.path}:${item.line}:${item.character} ${item.kind} ${item.name}`);
    }
  }
  if (result.incomplete && result.path) lines.push(`incomplete: ${result.path} is in no project, so these declarations come from its syntax alone`);
  const projects = result.projects.map((project) => `${project.project}${project.targetFramework ? ` (${project.targetFramework})` : ''}`);
  if (projects.length) lines.push(`${projects.length === 1 ? 'project' : 'projects'}: ${projects.join(', ')}`);
  lines.push(...excludedAnalyzersLine(result.excludedAnalyzers ?? [], result.projects.map((project) => project.project)));
  if (result.truncated && result.nextOffset !== null) lines.push(`truncated: ${result.total} symbols in total, next offset: ${result.nextOffset}. Raise limit or narrow the query.`);
  return lines.join('\n');
}
