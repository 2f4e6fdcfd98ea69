// csharp_navigate, csharp_bulk_navigate, csharp_symbols: the bridge tools' read actions, answered
// by the Roslyn host from the compiler, in compact text.
import { z } from 'zod';
import { pagingArguments } from '../toolInput';
import { Methods, type ParamsOf } from '../../protocol/methods';
import { Bounds, maxHostInteger, navigateActions, type NavigateAction } from '../../protocol/paramRules';
import { hostTool } from '../hostTool';
import { namingOtherTools } from '../toolDefinition';
import { symbolSelection, workspaceSelection } from '../symbols/symbolSelector';
import { renderBulkNavigate, renderNavigate, renderSymbols } from './renderNavigation';

const loadNote = 'The first call loads the solution with MSBuild, with the user\'s approval.';

/** What each action adds to its name in the argument's description (a new action fails to compile until it is here). */
const actionNotes: Record<NavigateAction, string> = {
  definition: '',
  type_definition: '',
  implementation: '',
  references: '',
  reads: '',
  writes: ' (of a field, property, local, parameter or event)',
  callers: '',
  callees: '',
  supertypes: '',
  subtypes: '',
  hover: '',
  source: ' (with its doc comment)',
  members: ' (of a type)',
  impact: ' (references, callers, implementations; of a type: references, subtypes)',
  tests: ' (tests reaching it)',
};

// The enum names every action; the description adds only what a name does not say.
const action = z.enum(navigateActions).describe(`${navigateActions.filter((name) => actionNotes[name]).map((name) => `${name}${actionNotes[name]}`).join(', ')}.`);

const target = {
  symbol: z
    .string()
    .min(1)
    .optional()
    .describe('Symbol name instead of a position: the end of the qualified name (Calculator.Add), with a parameter list for an overload or constructor (Calculator.Add(int, int)). Candidates from ambiguous_symbol go back unchanged.'),
  file: z.string().min(1).optional().describe('Workspace-relative path or unique suffix (Calculator.cs, Math/Calculator.cs). With symbol: the file that declares it.'),
  line: z.number().int().min(1).max(maxHostInteger).optional().describe('One-based line in file.'),
  character: z.number().int().min(1).max(maxHostInteger).optional().describe('One-based character (UTF-16) on that line. file and line alone work for source and members.'),
};

const options = {
  context: z.boolean().optional().describe('Each position on its own line, with its source line.'),
  ...pagingArguments('results', Bounds.pageLimit),
};

const needsTarget = (input: { symbol?: string | undefined; file?: string | undefined; line?: number | undefined }) => input.symbol !== undefined || (input.file !== undefined && input.line !== undefined);
const targetMessage = 'Give symbol, or file with line (and character).';

export const NavigateInputSchema = z
  .strictObject({
    action,
    ...target,
    container: symbolSelection.container,
    kind: symbolSelection.kind,
    project: symbolSelection.project,
    signature: symbolSelection.signature,
    ...options,
    ...workspaceSelection,
  })
  .refine(needsTarget, { message: targetMessage });
export type NavigateInput = z.infer<typeof NavigateInputSchema>;

/** Tool arguments → host params: symbol is the host's name, file its path. */
export function toNavigateParams({ symbol, file, ...rest }: NavigateInput) {
  return { ...rest, ...(symbol !== undefined ? { name: symbol } : {}), ...(file !== undefined ? { path: file } : {}) };
}

export const navigateTool = hostTool({
  name: 'csharp_navigate',
  mcpName: 'navigate',
  displayName: 'Navigate C#',
  referenceName: 'csharpNavigate',
  userDescription: 'Definitions, references, reads/writes, callers/callees, hierarchy, hover, source, members, impact and reaching tests of a C# symbol.',
  // The actions are the input's enum; the description says what the answer looks like.
  modelDescription: `Navigate C# code with the compiler: one action on a symbol given by name (symbol) or by file, line and character (one-based). Locations come one line per file (src/A.cs 12:9 40:17); related symbols as "path:line:char kind Name" with indented "calls" sites, and every name can be sent back as symbol. Paged (offset, limit; a final truncated: line). ambiguous_symbol / symbol_not_found list candidates. ${loadNote}`,
  tags: ['csharp', 'roslyn', 'navigation'],
  input: NavigateInputSchema,
  method: Methods.navigate,
  params: toNavigateParams,
  render: (result) => renderNavigate(result),
});

const QuerySchema = z
  .strictObject({ action, ...target })
  .refine(needsTarget, { message: targetMessage });

export const BulkNavigateInputSchema = z.strictObject({
  queries: z
    .array(QuerySchema)
    .min(Bounds.bulkQueries.minimum)
    .max(Bounds.bulkQueries.maximum)
    .describe('Navigate queries, each { action, symbol } or { action, file, line, character }; may be a JSON string.'),
  ...options,
  ...workspaceSelection,
});
export type BulkNavigateInput = z.infer<typeof BulkNavigateInputSchema>;

type BulkQueryParams = NonNullable<ParamsOf<typeof Methods.bulkNavigate>['queries']>[number];

export function toBulkNavigateParams({ queries, ...rest }: BulkNavigateInput) {
  return {
    ...rest,
    queries: queries.map(({ symbol, file, ...query }): BulkQueryParams => ({ ...query, ...(symbol !== undefined ? { name: symbol } : {}), ...(file !== undefined ? { path: file } : {}) })),
  };
}

export const bulkNavigateTool = hostTool({
  name: 'csharp_bulk_navigate',
  mcpName: 'bulk_navigate',
  // Its sections are fitted to the answer budget in the text (renderBulkNavigate); a copy beside it would say them twice.
  structure: null,
  displayName: 'Navigate C# (bulk)',
  referenceName: 'csharpBulkNavigate',
  userDescription: `Up to ${Bounds.bulkQueries.maximum} C# navigate queries in one call, answered concurrently.`,
  ...namingOtherTools((names) => `Run ${Bounds.bulkQueries.minimum} to ${Bounds.bulkQueries.maximum} ${names.of(navigateTool)} queries in one call, run concurrently; context, offset and limit apply to each. One section per query in request order, headed "## N action target"; a failing query shows its error there and the others still run. ${loadNote}`),
  tags: ['csharp', 'roslyn', 'navigation'],
  input: BulkNavigateInputSchema,
  method: Methods.bulkNavigate,
  params: toBulkNavigateParams,
  render: renderBulkNavigate,
});

export const SymbolsInputSchema = z
  .strictObject({
    file: z.string().min(1).optional().describe('Document symbols of this file (workspace-relative path or unique suffix such as Calculator.cs).'),
    query: z.string().min(1).optional().describe('Workspace symbols whose name matches: exact, prefix, substring or camel humps, best matches first.'),
    project: z.string().min(1).optional().describe('Only this project (name or workspace-relative path).'),
    offset: options.offset,
    limit: options.limit,
    ...workspaceSelection,
  })
  .refine((input) => (input.file === undefined) !== (input.query === undefined), { message: 'Give exactly one of file or query.' });
export type SymbolsInput = z.infer<typeof SymbolsInputSchema>;

export const symbolsTool = hostTool({
  name: 'csharp_symbols',
  mcpName: 'symbols',
  displayName: 'C# symbols',
  referenceName: 'csharpSymbols',
  userDescription: 'The declarations of a C# file, or the workspace symbols matching a name.',
  ...namingOtherTools((names) => `List C# symbols. With file: its declarations as "line:char-endLine:endChar kind Name", indented under their container. With query: workspace symbols as "path:line:char kind Name", best matches first. Names can be sent to ${names.of(navigateTool)} unchanged. Paged (offset, limit; a final truncated: line). ${loadNote}`),
  tags: ['csharp', 'roslyn', 'symbols'],
  input: SymbolsInputSchema,
  method: Methods.symbols,
  params: ({ file, ...rest }) => ({ ...rest, ...(file !== undefined ? { path: file } : {}) }),
  render: renderSymbols,
});
