// The one byte budget of a call's whole result — its text, its structure (structuredContent) and
// the envelope around them — applied by runTool for every surface. An agent pays for every byte and
// clients cut answers past 8 KB, so when a rendered answer does not fit, the page is cut where text
// and structure fit together, and both are made again from the shorter page: the text's own
// `truncated: … next offset` line and the structure's `truncated`/`nextOffset` then say the same.
// An answer with no page to cut (one long source, one huge call site list) keeps its text when that fits
// (its renderer already cut it and said where) and its structure keeps its shape with long strings and
// lists cut to the room left; a text past the budget keeps the lines that fit and ends with an
// `omitted to fit:` line.
import type { AnyToolDefinition } from './toolDefinition';
import { structureOf, type StructureContext } from './structuredResult';

/** Bytes of a whole result as a client receives it, text, structure and envelope included. */
export const wholeResultBudget = 8 * 1024;

/** Room for what surrounds the result on the wire (JSON-RPC id, _meta, resultType, isError). */
const envelopeReserve = 512;

/** A page a result holds, which the budget may cut. */
export interface PageView {
  count: number;
  /** The result with its first `n` results only, saying where the next page starts. */
  keep(n: number): unknown;
}

export interface FittedAnswer {
  text: string;
  structured: Record<string, unknown> | undefined;
}

/** The serialized size of a result as MCP sends it (the CLI's JSON envelope carries the same two fields). */
export function resultBytes(answer: FittedAnswer): number {
  return Buffer.byteLength(JSON.stringify({ content: [{ type: 'text', text: answer.text }], ...(answer.structured ? { structuredContent: answer.structured } : {}) }));
}

const pageLists = ['locations', 'related', 'members', 'items', 'diagnostics', 'references'] as const;

/** The page of a host result that follows the protocol's paging (offset, truncated, nextOffset and one list). */
function protocolPage(result: unknown): PageView | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const record = result as Record<string, unknown>;
  if (typeof record.offset !== 'number' || !('nextOffset' in record)) return undefined;
  const field = pageLists.find((name) => Array.isArray(record[name]) && (record[name] as unknown[]).length > 0);
  if (!field) return undefined;
  const list = record[field] as unknown[];
  const offset = record.offset;
  return { count: list.length, keep: (n) => ({ ...record, [field]: list.slice(0, n), truncated: true, nextOffset: offset + n }) };
}

function answerOf(definition: AnyToolDefinition, result: unknown, context: StructureContext): FittedAnswer {
  return { text: definition.render(result, context.names), structured: structureOf(definition, result, context) };
}

/** Cuts long strings and lists of a structure until it fits `budget` bytes, keeping its shape. */
function shrinkStructure(structure: Record<string, unknown>, budget: number): Record<string, unknown> {
  const shrink = (value: unknown, stringLimit: number, listLimit: number): unknown => {
    if (typeof value === 'string') return value.length > stringLimit ? `${value.slice(0, stringLimit)}…` : value;
    if (Array.isArray(value)) return value.slice(0, listLimit).map((item) => shrink(item, stringLimit, listLimit));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, shrink(field, stringLimit, listLimit)]));
  };
  for (const [stringLimit, listLimit] of [[512, 64], [128, 16], [64, 4], [32, 1], [16, 0]] as const) {
    const shrunk = shrink(structure, stringLimit, listLimit) as Record<string, unknown>;
    if (Buffer.byteLength(JSON.stringify(shrunk)) <= budget) return shrunk;
  }
  return shrink(structure, 16, 0) as Record<string, unknown>;
}

/** The leading lines of `text` that fit `budget` bytes as JSON, and an `omitted to fit:` line for the rest. */
function cutText(text: string, budget: number): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(JSON.stringify(line)); // escaped; its quotes stand for its escaped newline
    if (bytes + size > budget) break;
    kept.push(line);
    bytes += size;
  }
  const left = lines.length - kept.length;
  const leftBytes = Buffer.byteLength(lines.slice(kept.length).join('\n'));
  return [...kept, `omitted to fit: ${left} line${left === 1 ? '' : 's'} (${leftBytes} bytes) past the 8 KB answer budget. Narrow the query to see them.`].join('\n');
}

/** Renders `result` and its structure within the whole-result budget (see the header). */
export function fitAnswer(definition: AnyToolDefinition, result: unknown, context: StructureContext, page: (result: unknown) => PageView | undefined = (value) => definition.page?.(value) ?? protocolPage(value)): FittedAnswer {
  const budget = wholeResultBudget - envelopeReserve;
  const whole = answerOf(definition, result, context);
  if (resultBytes(whole) <= budget) return whole;
  const view = page(result);
  if (view && view.count > 1) {
    // The longest page that fits: answers grow with the page, so a binary search finds it.
    let low = 1;
    let high = view.count - 1;
    let best: FittedAnswer | undefined;
    while (low <= high) {
      const middle = Math.floor((low + high) / 2);
      const answer = answerOf(definition, view.keep(middle), context);
      if (resultBytes(answer) <= budget) {
        best = answer;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (best) return best;
  }
  const start = view ? answerOf(definition, view.keep(1), context) : whole;
  if (resultBytes(start) <= budget) return start;
  // Nothing to page. The text was already fitted by its renderer (a long source says where it cut), so the
  // structure keeps its shape within the room the text leaves; only a text past the budget is cut itself.
  const textAlone = resultBytes({ text: start.text, structured: undefined });
  if (start.structured && textAlone < budget - 1024) {
    const fitted = { text: start.text, structured: shrinkStructure(start.structured, budget - textAlone - 32) };
    if (resultBytes(fitted) <= budget) return fitted;
  }
  const structured = start.structured ? shrinkStructure(start.structured, Math.floor(budget / 3)) : undefined;
  let textBudget = budget - (structured ? Buffer.byteLength(JSON.stringify(structured)) : 0) - 300;
  let answer = { text: cutText(start.text, textBudget), structured };
  while (resultBytes(answer) > budget && textBudget > 0) {
    textBudget -= 256;
    answer = { text: cutText(start.text, textBudget), structured };
  }
  return answer;
}
