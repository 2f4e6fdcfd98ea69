// Mirrors SharpClaw.Protocol/Semantic/Edits.cs: sharpclaw/edit, undoEdit, redoEdit and the
// server-to-client write authorization request.
import { z } from 'zod';
import { InterruptedEditSchema } from './interruptedEdits';
import { resolvedFile, selectorParams, workspaceParams } from './symbols';

export { InterruptedEditFileSchema, InterruptedEditSchema } from './interruptedEdits';

export const EditParamsSchema = z.object({
  ...selectorParams,
  action: z.string().nullable().optional(),
  newName: z.string().nullable().optional(),
  proposalId: z.string().nullable().optional(),
  apply: z.boolean().nullable().optional(),
  actionIndex: z.number().int().nullable().optional(),
  endLine: z.number().int().nullable().optional(),
  endCharacter: z.number().int().nullable().optional(),
  diagnostic: z.string().nullable().optional(),
  all: z.boolean().nullable().optional(),
  includeTexts: z.boolean().nullable().optional(),
});

export const EditFileTextSchema = z.object({
  path: z.string(),
  newPath: z.string().nullable(),
  before: z.string(),
  after: z.string(),
  occurrences: z.number().int(),
});

export const EditHistoryParamsSchema = z.object(workspaceParams);

/** One group of changed lines of a preview: the whole old lines and the whole new lines (without line breaks). */
export const EditExcerptSchema = z.object({
  line: z.number().int(),
  character: z.number().int(),
  removed: z.array(z.string()),
  added: z.array(z.string()),
});

export const EditFileOperationSchema = z.object({
  operation: z.string(),
  path: z.string(),
  newPath: z.string().nullable(),
  occurrences: z.number().int(),
  /** A preview: the file's excerpts in file order; else null. */
  excerpts: z.array(EditExcerptSchema).nullable().optional(),
});

export const EditDiagnosticSchema = z.object({
  path: z.string(),
  line: z.number().int(),
  character: z.number().int(),
  severity: z.string(),
  id: z.string(),
  message: z.string(),
});

/** The errors and warnings of the changed C# files of an applied edit. */
export const EditDiagnosticsSchema = z.object({
  /** How many changed C# files there are. */
  files: z.number().int(),
  /** Set when there were more than this many and none was checked. */
  skippedAbove: z.number().int().nullable(),
  items: z.array(EditDiagnosticSchema),
});

export const CodeActionEntrySchema = z.object({
  index: z.number().int(),
  title: z.string(),
  hidden: z.boolean(),
  /** Applying it would be refused as unverified: a source generator SharpClaw does not run can see the change. */
  unverified: z.boolean(),
});

/** sharpclaw/interruptedEdits: what a killed host left unfinished, recovered now (empty: nothing). */
export const InterruptedEditsResultSchema = z.object({ interrupted: z.array(InterruptedEditSchema) });

export const EditResultSchema = z.object({
  kind: z.enum(['preview', 'listing', 'applied']),
  proposalId: z.string().nullable(),
  operations: z.array(EditFileOperationSchema),
  actions: z.array(CodeActionEntrySchema).nullable(),
  hiddenActions: z.number().int(),
  refreshed: z.boolean(),
  files: z.array(EditFileTextSchema).nullable().optional(),
  /** listing: the file the code actions are for. */
  path: z.string().nullable().optional(),
  /** applied and refreshed: the diagnostics of the changed C# files. */
  diagnostics: EditDiagnosticsSchema.nullable().optional(),
  ...resolvedFile,
  /** Edits a killed host left unfinished, recovered (and journaled for undo) before this one. */
  interrupted: z.array(InterruptedEditSchema).nullable().optional(),
  /** A preview SharpClaw refuses to write (unverified): why; it has no proposal id. */
  cannotApply: z.string().nullable().optional(),
  /** With cannotApply: the projects and generators behind the refusal. */
  cannotApplyDetails: z.array(z.string()).nullable().optional(),
});

export const WriteFileSchema = z.object({
  path: z.string(),
  newPath: z.string().nullable(),
  occurrences: z.number().int(),
});

export const AuthorizeWriteParamsSchema = z.object({
  workspace: z.string(),
  operation: z.string(),
  summary: z.string(),
  files: z.array(WriteFileSchema),
  tool: z.string().nullable(),
  /** The call id of the request that writes (its `call` param; null: none). */
  call: z.string().nullable(),
  /** Every file's planned texts: a client with its own editor model may apply them itself. */
  changes: z.array(EditFileTextSchema).nullable().optional(),
});

export type EditParams = z.infer<typeof EditParamsSchema>;
export type EditResult = z.infer<typeof EditResultSchema>;
export type EditFileOperation = z.infer<typeof EditFileOperationSchema>;
export type EditExcerpt = z.infer<typeof EditExcerptSchema>;
export type EditDiagnostics = z.infer<typeof EditDiagnosticsSchema>;
export type { InterruptedEdit } from './interruptedEdits';
export type AuthorizeWriteParams = z.infer<typeof AuthorizeWriteParamsSchema>;
