// Validates tool arguments the same way on every surface. Unknown or missing arguments give
// invalid_request with the valid names; array arguments may arrive as JSON strings. Input larger than
// the one input bound (input/inputLimits.ts), input nested
// deeper than the host reads, NUL bytes and lone UTF-16 surrogates are invalid_request too,
// naming the argument, before anything reaches the host.
import { z } from 'zod';
import type { AnyToolDefinition } from './toolDefinition';
import { ToolError } from '../errors';
import { checkMessageSize } from '../input/inputLimits';
import { type Bound, Bounds, boundedInteger } from '../protocol/paramRules';

/** offset and limit of a paged tool, with the host's bounds (protocol/paramRules.ts) and the defaults it applies. */
export function pagingArguments(items: string, limit: Bound = Bounds.pageLimit, offsetNote = '') {
  return {
    offset: boundedInteger(Bounds.pageOffset).optional().describe(`Skip this many ${items}${offsetNote} (paging). Default ${Bounds.pageOffset.default}.`),
    limit: boundedInteger(limit).optional().describe(`At most this many ${items}. Default ${limit.default}.`),
  };
}

/** Deepest nesting of a tool input (objects and arrays); the host refuses deeper messages too. */
export const maxInputDepth = 32;

/**
 * The first argument that cannot travel: too deep, a NUL byte, or a lone surrogate. Also for JSON an
 * argument carries as text (the lsp tool's parameters), once parsed, at the depth of that argument.
 */
export function unreadableArgument(value: unknown, where: string, depth: number): string | undefined {
  if (typeof value === 'string') {
    const nul = value.indexOf('\0');
    if (nul >= 0) return `${where}: contains a NUL character at position ${nul + 1}`;
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(value);
    if (lone) return `${where}: contains a lone UTF-16 surrogate U+${lone[0].charCodeAt(0).toString(16).toUpperCase()} at position ${lone.index + 1}`;
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= maxInputDepth) return `${where}: nested deeper than ${maxInputDepth} levels`;
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  for (const [key, item] of entries) {
    const problem = unreadableArgument(item, where === 'input' ? key : `${where}.${key}`, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

function validNames(schema: z.ZodType): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape as Record<string, unknown>) : [];
}

/** Agents sometimes send arrays as JSON text: accept `"[...]"` where the schema wants an array. */
function decodeJsonStringArrays(schema: z.ZodType, input: unknown): unknown {
  if (!(schema instanceof z.ZodObject) || typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const shape = schema.shape as Record<string, z.ZodType>;
  const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const [key, value] of Object.entries(copy)) {
    let field = shape[key];
    while (field instanceof z.ZodOptional || field instanceof z.ZodDefault) field = field.unwrap() as z.ZodType;
    if (field instanceof z.ZodArray && typeof value === 'string' && value.trim().startsWith('[')) {
      try {
        copy[key] = JSON.parse(value);
      } catch {
        // Leave it: the schema reports the wrong type.
      }
    }
  }
  return copy;
}

export function parseToolInput<T>(tool: AnyToolDefinition, raw: unknown): T {
  // Depth first: serializing a 10,000-deep input to measure it would overflow the stack.
  const unreadableRaw = unreadableArgument(raw ?? {}, 'input', 0);
  if (unreadableRaw) throw new ToolError('invalid_request', `${unreadableRaw}.`);
  checkMessageSize('The input', JSON.stringify(raw ?? {}));
  const input = decodeJsonStringArrays(tool.input, raw ?? {});
  const unreadable = unreadableArgument(input, 'input', 0);
  if (unreadable) throw new ToolError('invalid_request', `${unreadable}.`);
  const parsed = tool.input.safeParse(input);
  if (parsed.success) return parsed.data as T;
  const names = validNames(tool.input);
  const problems = parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') return `unknown argument ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    const where = issue.path.length ? issue.path.join('.') : 'input';
    return `${where}: ${issue.message.replace(/\.$/, '')}`;
  });
  throw new ToolError('invalid_request', `${problems.join('; ')}.${names.length ? ` Valid arguments: ${names.join(', ')}.` : ''}`);
}
