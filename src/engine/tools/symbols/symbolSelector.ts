// The selector every symbol tool shares: an exact name (with optional disambiguators) or a
// declaration position. The host resolves it; these are only the agent-facing argument rules.
import { z } from 'zod';
import { maxHostInteger } from '../../protocol/paramRules';

export const workspaceSelection = {
  target: z.string().min(1).optional().describe('Workspace-relative .sln, .slnx or .csproj. Default: the one top-level solution, else project.'),
  configuration: z.string().min(1).optional().describe('MSBuild configuration. Default: Debug.'),
  targetFramework: z.string().min(1).optional().describe('Target framework of multi-targeted projects, e.g. net8.0.'),
};

export const symbolSelection = {
  name: z
    .string()
    .min(1)
    .optional()
    .describe('Exact symbol name. A qualified name matches the end of the fully qualified name (Calculator.Add); a parameter list selects an overload (Calculator.Add(int, int)); a constructor needs its parameter list (Box.Box(int)).'),
  container: z.string().min(1).optional().describe('Containing type or namespace, to disambiguate.'),
  kind: z.string().min(1).optional().describe('Symbol kind: class, interface, struct, enum, method, property, field, event, constructor, ...'),
  project: z.string().min(1).optional().describe('Project name or workspace-relative project path.'),
  path: z.string().min(1).optional().describe('File of the declaration: a workspace-relative path or a unique path suffix such as Calculator.cs.'),
  signature: z.string().min(1).optional().describe('Parameter list, e.g. (int, int).'),
  line: z.number().int().min(1).max(maxHostInteger).optional().describe('One-based line of the declaration or a use (with path).'),
  character: z.number().int().min(1).max(maxHostInteger).optional().describe('One-based character (UTF-16 code units) on that line.'),
};

/** Either a name or a position (path, line, character) must select the symbol. */
export function requireNameOrPosition<T extends { name?: string | undefined; path?: string | undefined; line?: number | undefined }>(schema: z.ZodType<T>) {
  return schema.refine((input) => input.name !== undefined || (input.path !== undefined && input.line !== undefined), {
    message: 'Give name, or path with line (and character) of the symbol.',
  });
}
