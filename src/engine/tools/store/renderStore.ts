// Compact text of symbol_search and workspace_search: one "path:line:char kind Name" or
// "path:line:char text" line per result, after a first line saying the answer is syntax-only. The
// result lines stop at the answer budget (long generated lines, long parameter lists) and say where
// to page on.
import type { SymbolSearchResult, WorkspaceSearchResult } from '../../protocol/store';
import { linesWithinBudget } from '../answerBudget';
import { navigateTool } from '../navigation/navigationTools';
import { symbolResolveTool } from '../symbols/symbolTools';
import { lmToolNames, type ToolNames } from '../toolDefinition';

/** The one line both tools start with, so an agent knows when to move to the compiler-backed tools (named as its surface names them). */
export function syntaxOnlyLineFor(names: ToolNames): string {
  return `syntax-only: from the files as parsed, not compiled (no MSBuild, no approval); for exact symbols, references and types use ${names.of(navigateTool)} / ${names.of(symbolResolveTool)}.`;
}

/** The line as VS Code and the CLI show it. */
export const syntaxOnlyLine = syntaxOnlyLineFor(lmToolNames);

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The line of an answer made before the index build ended (the call's wait would have passed): what it did not see. */
function partialLine(result: { indexedFiles: number; pendingFiles?: number | null | undefined }): string[] {
  if (!result.pendingFiles) return [];
  const files = result.indexedFiles + result.pendingFiles;
  return [`partial: from ${result.indexedFiles} of ${plural(files, 'C# file')}; the index build goes on (${result.pendingFiles} left), call again for every file.`];
}

export function renderSymbolSearch(result: SymbolSearchResult, names: ToolNames = lmToolNames): string {
  const lines = [syntaxOnlyLineFor(names), ...partialLine(result)];
  if (result.total === 0) lines.push(`no declarations match ${result.query} (${plural(result.indexedFiles, 'C# file')} indexed)`);
  else if (result.items.length === 0) lines.push(`offset ${result.offset} is past the last of ${plural(result.total, 'declaration')}`);
  const items = result.items.map((item) => `${item.path}:${item.line}:${item.character} ${item.kind} ${item.name}${item.condition ? ` (#if ${item.condition})` : ''}`);
  const shown = linesWithinBudget(items);
  lines.push(...items.slice(0, shown));
  if (shown < items.length) lines.push(`truncated: ${shown} of ${plural(result.total, 'declaration')} shown to stay under 8 KB, next offset: ${result.offset + shown}. Narrow the query (kind, container) or page on.`);
  else if (result.truncated && result.nextOffset !== null) lines.push(`truncated: ${result.total} declarations in total, next offset: ${result.nextOffset}. Raise limit or narrow the query (kind, container).`);
  return lines.join('\n');
}

/** Which files an empty answer searched: every indexed one, or those the paths let through (none: the globs match no file). */
function searchedFiles(result: WorkspaceSearchResult): string {
  const indexed = plural(result.indexedFiles, 'C# file');
  const within = result.pathsMatchedFiles;
  if (within === undefined || within === null) return `(${indexed} indexed)`;
  return within === 0 ? `(paths match none of the ${indexed} indexed)` : `(in the ${within} of ${indexed} indexed that paths match)`;
}

export function renderWorkspaceSearch(result: WorkspaceSearchResult, names: ToolNames = lmToolNames): string {
  const lines = [syntaxOnlyLineFor(names), ...partialLine(result)];
  if (result.total === 0) lines.push(`no matches for ${result.query} ${searchedFiles(result)}`);
  else if (result.matches.length === 0) lines.push(`offset ${result.offset} is past the last of ${plural(result.total, 'match')}`);
  const matches = result.matches.map((match) => `${match.path}:${match.line}:${match.character} ${match.text}`);
  const shown = linesWithinBudget(matches);
  lines.push(...matches.slice(0, shown));
  if (shown < matches.length) lines.push(`truncated: ${shown} of ${plural(result.total, 'matching line')} in ${plural(result.files, 'file')} shown to stay under 8 KB, next offset: ${result.offset + shown}. Narrow the query or paths, or page on.`);
  else if (result.truncated && result.nextOffset !== null) lines.push(`truncated: ${result.total} matching lines in ${plural(result.files, 'file')}, next offset: ${result.nextOffset}. Raise limit or narrow the query or paths.`);
  return lines.join('\n');
}
