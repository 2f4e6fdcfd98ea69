// csharp_symbol_resolve, csharp_find_references, csharp_type_hierarchy: exact compiler answers
// from the Roslyn host, addressed by name or by position.
import { z } from 'zod';
import { pagingArguments } from '../toolInput';
import { Methods } from '../../protocol/methods';
import { Bounds, rangeOf } from '../../protocol/paramRules';
import { hostTool } from '../hostTool';
import { namingOtherTools } from '../toolDefinition';
import { renderFindReferences, renderSymbolResolve, renderTypeHierarchy } from './renderSymbols';
import { requireNameOrPosition, symbolSelection, workspaceSelection } from './symbolSelector';

const loadNote = 'The first call loads the solution with MSBuild, with the user\'s approval.';

const ResolveInputSchema = requireNameOrPosition(z.strictObject({ ...symbolSelection, ...workspaceSelection }));
export const symbolResolveTool = hostTool({
  name: 'csharp_symbol_resolve',
  displayName: 'Resolve C# symbol',
  referenceName: 'csharpSymbolResolve',
  userDescription: 'Finds the exact C# symbol for a name or position, with its declarations.',
  modelDescription: `Resolve a C# symbol exactly, by name (Calculator.Add, Calculator.Add(int, int), Box.Box(int)) or by file, line and character, and get its kind, fully qualified name and declaration locations. Ambiguous names return ambiguous_symbol with candidates you can send back unchanged; unknown names return symbol_not_found with similar names. ${loadNote}`,
  tags: ['csharp', 'roslyn', 'symbols'],
  input: ResolveInputSchema,
  method: Methods.symbolResolve,
  params: (input) => input,
  render: renderSymbolResolve,
});

const ReferencesInputSchema = requireNameOrPosition(
  z.strictObject({
    ...symbolSelection,
    ...pagingArguments('references'),
    context: z.boolean().optional().describe('Show each reference with its trimmed source line.'),
    ...workspaceSelection,
  }),
);
export const findReferencesTool = hostTool({
  name: 'csharp_find_references',
  displayName: 'Find C# references',
  referenceName: 'csharpFindReferences',
  userDescription: 'Every reference to a C# symbol, by compiler identity, across projects.',
  ...namingOtherTools((names) => `Find every reference to a C# symbol by compiler identity across all projects (not text search), selected by name or position like ${names.of(symbolResolveTool)}. Paged with offset and limit (${rangeOf(Bounds.pageLimit)}, default ${Bounds.pageLimit.default}); a final truncated: line gives the total and the next offset. Source-generated occurrences are left out and counted. ${loadNote}`),
  tags: ['csharp', 'roslyn', 'references'],
  input: ReferencesInputSchema,
  method: Methods.findReferences,
  params: (input) => input,
  render: renderFindReferences,
});

const HierarchyInputSchema = requireNameOrPosition(
  z.strictObject({
    ...symbolSelection,
    limit: pagingArguments('items per relationship').limit,
    ...workspaceSelection,
  }),
);
export const typeHierarchyTool = hostTool({
  name: 'csharp_type_hierarchy',
  displayName: 'C# type hierarchy',
  referenceName: 'csharpTypeHierarchy',
  userDescription: 'Base types, interfaces, derived types and implementations of a C# type.',
  modelDescription: `Get a C# type's base types, implemented interfaces, derived types and (for interfaces) implementations across all projects, each list bounded by limit with its own truncation line. Select the type by name or position. ${loadNote}`,
  tags: ['csharp', 'roslyn', 'hierarchy'],
  input: HierarchyInputSchema,
  method: Methods.typeHierarchy,
  params: (input) => input,
  render: renderTypeHierarchy,
});
