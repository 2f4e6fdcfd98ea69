// The merges of `sharpclaw mcp setup` (and VS Code's Set Up MCP for Another Agent…): our server's
// entry put into the text of an agent's configuration file, everything else of the file kept
// (comments, other servers, formatting). Each merge edits the text in place, then parses the result
// with a real parser (jsonc-parser, smol-toml) and keeps it only when the document is exactly the
// old one with our one entry set to what we meant to write: exactly one "sharpclaw", equal to our
// entry, nothing else changed. A file the merge cannot edit that way is refused (invalid_request,
// naming the file and what to do), never written half right.
import { isDeepStrictEqual } from 'node:util';
import { applyEdits, modify, parse, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { ToolError } from '../errors';
import { parseToml, stringifyToml } from './toml';

export interface MergeResult {
  text: string;
  /** An entry of ours was there before (replaced, not added). */
  replaced: boolean;
}

const jsoncOptions = { allowTrailingComma: true, disallowComments: false };
/** Our entry indented the way the file is: tabs, or its first indentation's width of spaces (default 2). */
function formattingOf(text: string) {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return { formattingOptions: indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol } };
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/** The property nodes named `key` of an object node, duplicates included. */
function propertiesNamed(object: Node | undefined, key: string): Node[] {
  if (object?.type !== 'object') return [];
  return (object.children ?? []).filter((property) => property.children?.[0]?.value === key);
}

function parseJsonc(file: string, text: string): { root: unknown; tree: Node | undefined } {
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, jsoncOptions);
  if (errors.length > 0) {
    throw new ToolError('invalid_request', `${file} is not valid JSON with comments (${printParseErrorCode(errors[0]!.error)} at line ${lineOf(text, errors[0]!.offset)}); fix it or use --print, nothing was written.`);
  }
  return { root, tree: parseTree(text, [], jsoncOptions) };
}

const isTable = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** A parsed document as plain data (tables of either parser, TOML's dates and big integers), for comparing. */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Date) return `date ${String(value)}`;
  if (Array.isArray(value)) return value.map(plain);
  if (isTable(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  return value;
}

const sameDocument = (a: unknown, b: unknown) => isDeepStrictEqual(plain(a), plain(b));

/** The document as a client reads it, with our entry set to `entry`. */
function withEntry(root: Record<string, unknown>, serversKey: string, name: string, entry: unknown): Record<string, unknown> {
  const servers = isTable(root[serversKey]) ? root[serversKey] : {};
  return { ...root, [serversKey]: { ...servers, [name]: entry } };
}

/** Merges into JSON with comments (Claude Code, Cursor, VS Code, Copilot CLI). */
export function mergeJson(file: string, existing: string | undefined, serversKey: string, name: string, entry: Record<string, unknown>): MergeResult {
  const text = existing === undefined || existing.trim() === '' ? '{}\n' : existing;
  const { root, tree } = parseJsonc(file, text);
  if (!isTable(root)) throw new ToolError('invalid_request', `${file} does not hold a JSON object; nothing was written.`);
  const serversNodes = propertiesNamed(tree, serversKey);
  if (serversNodes.length > 1) {
    throw new ToolError('invalid_request', `"${serversKey}" appears ${serversNodes.length} times in ${file} (lines ${serversNodes.map((node) => lineOf(text, node.offset)).join(', ')}); clients read only one of them, so SharpClaw changed nothing. Keep one, then run again.`);
  }
  const servers = root[serversKey];
  if (servers !== undefined && !isTable(servers)) throw new ToolError('invalid_request', `"${serversKey}" in ${file} is not an object; nothing was written.`);
  const formatting = formattingOf(text);
  let merged = text;
  const ours = () => propertiesNamed(propertiesNamed(parseTree(merged, [], jsoncOptions), serversKey)[0]?.children?.[1], name).length;
  // Two entries of ours (a client keeps the last): drop all but one, then set that one.
  while (ours() > 1) merged = applyEdits(merged, modify(merged, [serversKey, name], undefined, formatting));
  merged = applyEdits(merged, modify(merged, [serversKey, name], entry, formatting));
  if (!merged.endsWith('\n')) merged += '\n';

  // The result, read back: one entry of ours, equal to `entry`, and nothing else changed.
  const reread = parseJsonc(file, merged);
  const serversAfter = propertiesNamed(reread.tree, serversKey);
  const entriesAfter = propertiesNamed(serversAfter[0]?.children?.[1], name);
  if (serversAfter.length !== 1 || entriesAfter.length !== 1 || !sameDocument(reread.root, withEntry(root, serversKey, name, entry))) {
    throw new ToolError('invalid_request', `SharpClaw could not put its entry into ${file} without changing something else; nothing was written. Add it by hand (--print shows it).`);
  }
  return { text: merged, replaced: servers !== undefined && Object.hasOwn(servers, name) };
}

/** Our table as smol-toml writes it: `[servers.name]` and the entry's keys. */
export function tomlTable(serversKey: string, name: string, entry: Record<string, unknown>): string {
  return stringifyToml({ [serversKey]: { [name]: entry } });
}

// Every valid TOML file parses: 64-bit integers beyond 2^53 as BigInt.
const tomlOptions = { integersAsBigInt: 'asNeeded' } as const;

function parseTomlDocument(file: string, text: string): Record<string, unknown> {
  try {
    return parseToml(text, tomlOptions) as Record<string, unknown>;
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '') : String(error);
    const line = (error as { line?: number }).line;
    throw new ToolError('invalid_request', `${file} is not valid TOML (${detail}${line ? ` at line ${line}` : ''}); fix it or use --print, nothing was written.`);
  }
}

/**
 * Merges into TOML (Codex): our `[servers.name]` table (and its sub-tables) replaced where it
 * stands, else appended. The header lines are found by their text, so each candidate edit is
 * parsed and compared; a line that only looks like a header (inside a multi-line string) never
 * survives that check. An entry in another form (an inline table, dotted keys) is refused.
 */
export function mergeToml(file: string, existing: string | undefined, serversKey: string, name: string, entry: Record<string, unknown>): MergeResult {
  const text = existing ?? '';
  const before = parseTomlDocument(file, text);
  const servers = before[serversKey];
  if (servers !== undefined && !isTable(servers)) throw new ToolError('invalid_request', `${serversKey} in ${file} is not a table; nothing was written.`);
  const had = servers !== undefined && Object.hasOwn(servers, name);
  const expected = withEntry(before, serversKey, name, entry);
  const table = tomlTable(serversKey, name, entry).replace(/\n$/, '');

  const lines = text.split('\n');
  const ourHeader = `${serversKey}.${name}`;
  /** true: a header of our table or a sub-table of it; false: another header; undefined: not a header. */
  const headerKind = (line: string): boolean | undefined => {
    const header = /^\s*\[\s*([^\][]+?)\s*\]\s*(#.*)?$/.exec(line)?.[1]?.replace(/\s*\.\s*/g, '.').replace(/"/g, '');
    if (header === undefined) return /^\s*\[\[/.test(line) ? false : undefined;
    return header === ourHeader || header.startsWith(`${ourHeader}.`);
  };
  /** The lines of the table starting at `start`: to the next header, blank lines before it kept. */
  const regionEnd = (start: number) => {
    let end = start + 1;
    while (end < lines.length && headerKind(lines[end]!) === undefined) end++;
    while (end > start + 1 && lines[end - 1]!.trim() === '') end--;
    return end;
  };
  const replacing = (starts: number[]): string => {
    const out: string[] = [];
    let next = 0;
    for (const [index, start] of starts.entries()) {
      out.push(...lines.slice(next, start));
      if (index === 0) out.push(...table.split('\n'));
      next = regionEnd(start);
    }
    out.push(...lines.slice(next));
    const joined = out.join('\n');
    return joined.endsWith('\n') ? joined : `${joined}\n`;
  };
  const appended = (): string => {
    const base = text.length === 0 || text.endsWith('\n') ? text : `${text}\n`;
    return `${base}${base.trim().length > 0 ? '\n' : ''}${table}\n`;
  };

  const starts = lines.flatMap((line, index) => (headerKind(line) === true ? [index] : []));
  const candidates: Array<() => string> = [];
  if (starts.length > 0) candidates.push(() => replacing(starts), ...starts.map((start) => () => replacing([start])));
  if (!had) candidates.push(appended);
  for (const candidate of candidates) {
    const merged = candidate();
    let after: Record<string, unknown>;
    try {
      after = parseToml(merged, tomlOptions) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (sameDocument(after, expected)) return { text: merged, replaced: had };
  }
  if (had) {
    throw new ToolError(
      'invalid_request',
      `${ourHeader} in ${file} is not written as a [${ourHeader}] table (an inline table or dotted keys), the one form SharpClaw edits, so nothing was written. Remove that entry, or replace it with the table --print shows, then run again.`,
    );
  }
  throw new ToolError('invalid_request', `SharpClaw could not add a [${ourHeader}] table to ${file} without changing something else (is ${serversKey} an inline table?), so nothing was written. Add the table --print shows by hand.`);
}
