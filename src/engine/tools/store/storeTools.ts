// csharp_symbol_search and csharp_workspace_search (MCP: symbol_search, workspace_search): answered
// by the host's syntax-only store, which parses the workspace's C# files and never evaluates MSBuild,
// so they need no approval, work in Restricted Mode and answer before any load.
import { z } from 'zod';
import { Methods } from '../../protocol/methods';
import { hostTool } from '../hostTool';
import { namingOtherTools, type ToolContext } from '../toolDefinition';
import { navigateTool } from '../navigation/navigationTools';
import { pagingArguments } from '../toolInput';
import { Bounds, globDialect } from '../../protocol/paramRules';
import { renderSymbolSearch, renderWorkspaceSearch } from './renderStore';

const paging = pagingArguments('results');

const noLoad = 'Syntax only: no MSBuild load, no approval needed; every answer says so in its first line.';

/** The call's answer time, for an index build that would pass it (the host then answers from what is indexed so far). */
const answerTime = (context: ToolContext): { answerBy?: number } => (context.answerBy !== undefined ? { answerBy: Math.round(context.answerBy) } : {});

export const declarationKinds = ['namespace', 'class', 'record', 'struct', 'interface', 'enum', 'delegate', 'method', 'constructor', 'operator', 'property', 'field', 'event'] as const;

export const SymbolSearchInputSchema = z.strictObject({
  query: z.string().min(1).describe('Declared name: exact, prefix, camel humps (CoCa for CountCalls) or substring; best matches first. Container.Name (Calculator.Add) searches inside that container.'),
  kind: z.enum(declarationKinds).optional().describe('Only this kind of declaration.'),
  container: z.string().min(1).optional().describe('Only declarations inside this namespace or type (a dotted suffix: Calculator, Core.Calculator).'),
  ...paging,
});
export type SymbolSearchInput = z.infer<typeof SymbolSearchInputSchema>;

export const symbolSearchTool = hostTool({
  name: 'csharp_symbol_search',
  mcpName: 'symbol_search',
  // A syntax-only answer is its text: its pages of long lines are cut to 8 KB there (renderStore.ts).
  structure: null,
  displayName: 'Search C# declarations',
  referenceName: 'csharpSymbolSearch',
  userDescription: 'Find C# declarations by name from the parsed files, without loading the solution.',
  ...namingOtherTools((names) => `Find C# declarations by name in the workspace's files (honouring .gitignore, without bin/obj): exact, prefix, camel humps, substring, best first; filter by kind and container. Lines are "path:line:char kind Name", and each Name can go to ${names.of(navigateTool)} as symbol; one under #if ends with its condition, (#if NET) or (#if !NET). Paged with offset and limit (default ${Bounds.pageLimit.default}). ${noLoad}`),
  tags: ['csharp', 'search', 'symbols'],
  input: SymbolSearchInputSchema,
  method: Methods.symbolSearch,
  params: (input, context) => ({ ...input, ...answerTime(context) }),
  render: renderSymbolSearch,
});

export const WorkspaceSearchInputSchema = z.strictObject({
  query: z.string().min(1).describe('Text to find on one line (case-insensitive unless caseSensitive), or a .NET regular expression with regex.'),
  regex: z.boolean().optional().describe('query is a regular expression.'),
  caseSensitive: z.boolean().optional().describe('Letter case must match. Default false.'),
  paths: z.array(z.string().min(1)).max(16).optional().describe(`Workspace-relative globs of the files to search (src/**/*.cs), the same dialect as the diagnostics tool's file: ${globDialect}.`),
  ...paging,
});
export type WorkspaceSearchInput = z.infer<typeof WorkspaceSearchInputSchema>;

export const workspaceSearchTool = hostTool({
  name: 'csharp_workspace_search',
  mcpName: 'workspace_search',
  // A syntax-only answer is its text: its pages of long lines are cut to 8 KB there (renderStore.ts).
  structure: null,
  displayName: 'Search C# text',
  referenceName: 'csharpWorkspaceSearch',
  userDescription: 'Find text or a regular expression in the workspace\'s C# files, without loading the solution.',
  modelDescription: `Search the text of the workspace's C# files (honouring .gitignore, without bin/obj) for a string or a regular expression, optionally only in files matching path globs. Lines are "path:line:char text" (the matching line, trimmed), by path then line. Paged with offset and limit (default ${Bounds.pageLimit.default}). ${noLoad}`,
  tags: ['csharp', 'search'],
  input: WorkspaceSearchInputSchema,
  method: Methods.workspaceSearch,
  params: (input, context) => ({ ...input, ...answerTime(context) }),
  render: renderWorkspaceSearch,
});
