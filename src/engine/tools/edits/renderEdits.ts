// Compact text of csharp_rename_symbol / csharp_edit results, from the host's typed edit result:
// previews (`proposal ID: N files, not applied`, then per file `change PATH` or `rename A -> B` with
// `@@ L:C` excerpts of `-`/`+` lines), code action listings and receipts (status line, one line per
// completed operation, then the diagnostics of the changed C# files). The one place that formats them.
import type { EditDiagnostics, EditExcerpt, EditFileOperation, EditResult } from '../../protocol/edits';
import { interruptedLines } from '../../protocol/interruptedEdits';

/** The interrupted-apply report's text (one definition, protocol/interruptedEdits.ts), for the surfaces that print it on recovery. */
export { interruptedLines };
import { resolvedFileLines } from '../symbols/renderSymbols';
import { diagnosticsTool } from '../symbols/diagnosticsTool';
import { solutionInspectTool } from '../solutionInspect/solutionInspectTool';
import { lmToolNames, type ToolNames } from '../toolDefinition';

/** A preview stops adding files before it would pass this many characters (less 200 for the final line). */
export const maxPreviewChars = 32_000;
/** Lines of one excerpt side before it is cut. */
export const maxExcerptLines = 40;
/** Operation lines a receipt shows before it ends with a `truncated:` line. */
export const maxReceiptOperations = 100;

const files = (count: number) => (count === 1 ? '1 file' : `${count} files`);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** `-`/`+` lines of one excerpt side; true when it was cut. */
function appendSide(out: string[], sign: '-' | '+', lines: readonly string[]): boolean {
  for (const line of lines.slice(0, maxExcerptLines)) out.push(`${sign} ${line}\n`);
  return lines.length > maxExcerptLines;
}

function appendExcerpts(out: string[], excerpts: readonly EditExcerpt[]): boolean {
  let cut = false;
  for (const excerpt of excerpts) {
    out.push(`@@ ${excerpt.line}:${excerpt.character}\n`);
    cut = appendSide(out, '-', excerpt.removed) || cut;
    cut = appendSide(out, '+', excerpt.added) || cut;
  }
  return cut;
}

function operationLine(operation: EditFileOperation, withOccurrences: boolean): string {
  if (operation.newPath !== null) return `rename ${operation.path} -> ${operation.newPath}\n`;
  return withOccurrences ? `change ${operation.path} (${plural(operation.occurrences, 'occurrence')})\n` : `change ${operation.path}\n`;
}

function preview(result: EditResult): string {
  const operations = result.operations;
  // A refused edit is still shown, so a person can read it; it has no proposal id to apply.
  let text = result.cannotApply
    ? `proposal cannot be applied: ${result.cannotApply}\n${(result.cannotApplyDetails ?? []).map((detail) => `  ${detail}\n`).join('')}${files(operations.length)}, not applied\n`
    : `proposal ${result.proposalId ?? '?'}: ${files(operations.length)}, not applied\n`;
  let shown = 0;
  let cutExcerpts = false;
  for (const operation of operations) {
    const block: string[] = [operationLine(operation, false)];
    cutExcerpts = appendExcerpts(block, operation.excerpts ?? []) || cutExcerpts;
    const joined = block.join('');
    if (text.length + joined.length > maxPreviewChars - 200) break;
    text += joined;
    shown++;
  }
  if (shown < operations.length) {
    text += `truncated: ${shown} of ${operations.length} files shown within ${maxPreviewChars} characters; applying the proposal writes all of them.\n`;
  } else if (cutExcerpts) {
    text += `truncated: some excerpts were cut at ${maxExcerptLines} lines; applying the proposal writes the complete edit.\n`;
  }
  return text;
}

function listing(result: EditResult, names: ToolNames): string {
  const shown = result.actions ?? [];
  const hiddenNotShown = result.hiddenActions - shown.filter((entry) => entry.hidden).length;
  let text = `proposal ${result.proposalId ?? '?'}: ${shown.length} code action${shown.length === 1 ? '' : 's'} for ${result.path ?? '?'}\n`;
  for (const entry of shown) text += `${entry.index} ${entry.title}${entry.unverified ? ' (unverified)' : ''}\n`;
  if (shown.some((entry) => entry.unverified)) {
    text += `unverified: applying these would be refused; a source generator SharpClaw does not run can see this file's project (see ${names.of(solutionInspectTool)}).\n`;
  }
  if (shown.length + hiddenNotShown === 0) text += 'no code actions here\n';
  if (hiddenNotShown > 0) text += `hidden: ${result.hiddenActions} entries under Suppress or configure issues; set all to list them.\n`;
  return text;
}

/** The changed files' errors and warnings in the csharp_diagnostics format, with its totals line. */
function diagnosticsText(diagnostics: EditDiagnostics, names: ToolNames): string {
  if (diagnostics.skippedAbove !== null) {
    return `diagnostics skipped: ${diagnostics.files} changed C# files (more than ${diagnostics.skippedAbove}); run ${names.of(diagnosticsTool)} on them.\n`;
  }
  let text = '';
  let file: string | undefined;
  let withDiagnostics = 0;
  for (const item of diagnostics.items) {
    if (item.path !== file) {
      text += `${(file = item.path)}\n`;
      withDiagnostics++;
    }
    text += `  ${item.line}:${item.character} ${item.severity} ${item.id} ${item.message}\n`;
  }
  return `${text}${plural(diagnostics.files, 'file')} checked, ${plural(diagnostics.items.length, 'diagnostic')} in ${plural(withDiagnostics, 'file')}\n`;
}

function receipt(result: EditResult, names: ToolNames): string {
  const operations = result.operations;
  let text = `writes finished${result.refreshed ? ', Roslyn refreshed' : ', Roslyn not refreshed (it reloads on the next request)'}: ${files(operations.length)}\n`;
  for (const operation of operations.slice(0, maxReceiptOperations)) text += operationLine(operation, true);
  if (result.diagnostics) text += diagnosticsText(result.diagnostics, names);
  if (operations.length > maxReceiptOperations) {
    text += `truncated: ${operations.length} operations in total, ${maxReceiptOperations} shown; every one of them was written.\n`;
  }
  return text;
}

function renderBody(result: EditResult, names: ToolNames): string {
  return result.kind === 'preview' ? preview(result) : result.kind === 'listing' ? listing(result, names) : receipt(result, names);
}

/** The preview, listing or receipt, after the report of recovered interrupted edits and the `resolved file:` line. */
export function renderEdit(result: EditResult, names: ToolNames = lmToolNames): string {
  const body = renderBody(result, names);
  return [...(result.interrupted ?? []).flatMap(interruptedLines), ...resolvedFileLines(result), body.replace(/\n+$/, '')].join('\n').trimEnd();
}

/** One line naming an edit: the first line of its preview, listing or receipt. */
export function editSummary(result: EditResult): string {
  return renderBody(result, lmToolNames).split('\n', 1)[0] ?? result.kind;
}
