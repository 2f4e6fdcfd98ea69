// The selector every symbol tool shares: an exact name (with optional disambiguators) or a
// declaration position. The host resolves it; these are only the agent-facing argument rules.
import { z } from 'zod';
import { maxHostInteger } from '../../protocol/paramRules';

export const workspaceSelection = {
  target: z.string().min(1).optional().describe('Workspace-relative .sln, .slnx or .csproj. Default: the top-level one.'),
  configuration: z.string().min(1).optional().describe('MSBuild configuration. Default: Debug.'),
  targetFramework: z.string().min(1).optional().describe('Target framework of multi-targeted projects, e.g. net8.0.'),
};

export const symbolSelection = {
  name: z
    .string()
    .min(1)
    .optional()
    .describe('Exact symbol name: the end of the fully qualified name (Calculator.Add), with a parameter list for an overload or a constructor (Calculator.Add(int, int), Box.Box(int)).'),
  container: z.string().min(1).optional().describe('Containing type or namespace, to disambiguate.'),
  kind: z.string().min(1).optional().describe('Symbol kind: class, method, property, ...'),
  project: z.string().min(1).optional().describe('Project name or workspace-relative project path.'),
  path: z.string().min(1).optional().describe('File of the declaration (workspace-relative path or unique suffix such as Calculator.cs).'),
  signature: z.string().min(1).optional().describe('Parameter list, e.g. (int, int).'),
  line: z.number().int().min(1).max(maxHostInteger).optional().describe('One-based line of the declaration or a use.'),
  character: z.number().int().min(1).max(maxHostInteger).optional().describe('One-based character (UTF-16 code units) on that line.'),
};

/** Either a name or a position (path, line, character) must select the symbol. */
export function requireNameOrPosition<T extends { name?: string | undefined; path?: string | undefined; line?: number | undefined }>(schema: z.ZodType<T>) {
  return schema.refine((input) => input.name !== undefined || (input.path !== undefined && input.line !== undefined), {
    message: 'Give name, or path with line (and character) of the symbol.',
  });
}
