// Validates tool arguments the same way on every surface. Unknown or missing arguments give
// invalid_request with the valid names; array arguments may arrive as JSON strings.
import { z } from 'zod';
import type { AnyToolDefinition } from './toolDefinition';
import { ToolError } from './toolErrors';

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
  const input = decodeJsonStringArrays(tool.input, raw ?? {});
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
