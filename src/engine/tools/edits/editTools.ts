// csharp_rename_symbol and csharp_edit: compiler-checked rename, file rename and code actions with
// previews (proposal ids) and validated writes. Writing needs FileSystemWrite permission, which the
// host asks for through the client's permission policy (kind `write`); no argument can grant it.
import { z } from 'zod';
import { maxHostInteger } from '../../protocol/paramRules';
import type { EditResult } from '../../protocol/edits';
import { Methods } from '../../protocol/methods';
import { hostTool } from '../hostTool';
import { namingOtherTools, type ToolContext } from '../toolDefinition';
import { symbolResolveTool } from '../symbols/symbolTools';
import { symbolSelection, workspaceSelection } from '../symbols/symbolSelector';
import { editSummary, renderEdit } from './renderEdits';

const writeNote =
  'Without apply the result is a preview whose first line holds a proposal ID; send { proposalId, apply: true } to write it (within 5 minutes, before its files or projects change). Writing asks the user. The receipt ends with the errors and warnings of the changed files.';

const proposal = {
  proposalId: z.string().min(1).optional().describe('The proposal ID of a preview or code action listing.'),
  apply: z.boolean().optional().describe('Write: the preview of proposalId, or a fresh rename or code action (actionIndex).'),
};

/** Tells the surface about a write (VS Code's Undo Last Edit replays them in order). */
function noteApplied(result: EditResult, context: ToolContext): EditResult {
  if (result.kind === 'applied') context.onEditApplied?.(editSummary(result));
  return result;
}

export const RenameSymbolInputSchema = z
  .strictObject({
    ...symbolSelection,
    newName: z.string().min(1).optional().describe('The new identifier (a keyword needs @, as in @class). Required unless applying a proposalId.'),
    ...proposal,
    ...workspaceSelection,
  })
  .refine((input) => input.proposalId !== undefined || (input.newName !== undefined && (input.name !== undefined || (input.path !== undefined && input.line !== undefined))), {
    message: 'Give name (or path with line and character) and newName, or proposalId with apply: true.',
  })
  .refine((input) => input.proposalId === undefined || input.apply === true, { message: 'proposalId needs apply: true.' });

export const renameSymbolTool = hostTool({
  name: 'csharp_rename_symbol',
  displayName: 'Rename C# symbol',
  referenceName: 'csharpRenameSymbol',
  userDescription: 'Renames a C# symbol everywhere with Roslyn, checked by the compiler, after a preview.',
  ...namingOtherTools((names) => `Rename one exact C# symbol (selected like ${names.of(symbolResolveTool)}: Calculator.Add, Calculator.Add(int, int), or path/line/character) to newName across every project, computed by Roslyn. Rejects invalid identifiers, unresolved conflicts, new compiler errors, generated files, paths outside the workspace and linked files whose edits disagree; refuses to write (unverified) what a source generator SharpClaw does not run can see, previewing it marked "cannot be applied". Does not rename files or change strings and comments. ${writeNote}`),
  tags: ['csharp', 'roslyn', 'rename', 'edit'],
  input: RenameSymbolInputSchema,
  confirmation: (input) =>
    input.apply ? { title: 'Rename C# symbol', message: input.proposalId ? `Apply proposal ${input.proposalId}.` : `Rename ${input.name ?? 'the symbol'} to ${input.newName ?? ''}.` } : undefined,
  method: Methods.edit,
  params: (input) => ({ ...input, action: 'rename' }),
  result: (result, _input, context) => noteApplied(result, context),
  // noteApplied returns the host's result unchanged.
  output: Methods.edit.result,
  // The text says it all; a copy beside it would say it twice (structuredResult.ts).
  structure: null,
  render: renderEdit,
});

export const EditInputSchema = z
  .strictObject({
    action: z.enum(['rename', 'rename_file', 'code_actions']).optional().describe('rename a symbol, rename_file a document, or list/resolve/apply code_actions. Not needed with proposalId: the proposal knows its action.'),
    ...symbolSelection,
    symbol: z.string().min(1).optional().describe('Alias of name (what the navigate tools call it).'),
    file: z.string().min(1).optional().describe('Alias of path: the file (workspace-relative or a unique suffix such as Calculator.cs).'),
    newName: z.string().min(1).optional().describe('rename: the new identifier. rename_file: the new file name (Sum.cs) or workspace-relative path.'),
    endLine: z.number().int().min(1).max(maxHostInteger).optional().describe('code_actions: end line of a selection.'),
    endCharacter: z.number().int().min(1).max(maxHostInteger).optional().describe('code_actions: end character of a selection.'),
    diagnostic: z.string().min(1).optional().describe('code_actions: the fixes of this code (CS0168) at its first occurrence in file.'),
    actionIndex: z.number().int().min(0).max(maxHostInteger).optional().describe('code_actions: the zero-based index of a listing entry.'),
    all: z.boolean().optional().describe('code_actions: also list the entries under Suppress or configure issues.'),
    ...proposal,
    ...workspaceSelection,
  })
  .refine((input) => input.path === undefined || input.file === undefined || input.path === input.file, { message: 'Give file or path, not both.' })
  .refine((input) => input.name === undefined || input.symbol === undefined || input.name === input.symbol, { message: 'Give symbol or name, not both.' })
  .refine((input) => input.action !== undefined || input.proposalId !== undefined, { message: 'Give action (rename, rename_file or code_actions), or the proposalId of a preview or listing.' });

export type EditInput = z.infer<typeof EditInputSchema>;

/** The host's flat params for an edit tool input (file is an alias of path, symbol of name). */
export function editParams({ file, symbol, ...rest }: EditInput) {
  return { ...rest, ...(file !== undefined ? { path: file } : {}), ...(symbol !== undefined ? { name: symbol } : {}) };
}

export const editTool = hostTool({
  name: 'csharp_edit',
  mcpName: 'edit',
  displayName: 'Edit C# with Roslyn',
  referenceName: 'csharpEdit',
  userDescription: 'Compiler-checked rename, file rename and code actions (fixes, refactorings) with previews.',
  modelDescription: `Safe C# edits computed by Roslyn. action=rename: symbol selectors + newName. action=rename_file: path + newName (namespaces and types stay). action=code_actions: file + line/character (+ endLine/endCharacter), or file + diagnostic; send the listing's proposalId with its zero-based actionIndex (no action needed) for a preview. ${writeNote}`,
  tags: ['csharp', 'roslyn', 'refactoring', 'edit'],
  input: EditInputSchema,
  confirmation: (input) => (input.apply ? { title: 'Edit C# files', message: input.proposalId ? `Apply proposal ${input.proposalId}.` : `Apply ${input.action ?? 'the edit'}.` } : undefined),
  method: Methods.edit,
  params: editParams,
  result: (result, _input, context) => noteApplied(result, context),
  // noteApplied returns the host's result unchanged.
  output: Methods.edit.result,
  // The text says it all; a copy beside it would say it twice (structuredResult.ts).
  structure: null,
  render: renderEdit,
});
