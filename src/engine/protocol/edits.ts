// Mirrors SharpClaw.Protocol/Semantic/Edits.cs: sharpclaw/edit, undoEdit, redoEdit and the
// server-to-client write authorization request.
import { z } from 'zod';
import { selectorParams, workspaceParams } from './symbols';

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

export const EditFileOperationSchema = z.object({
  operation: z.string(),
  path: z.string(),
  newPath: z.string().nullable(),
  occurrences: z.number().int(),
});

export const CodeActionEntrySchema = z.object({
  index: z.number().int(),
  title: z.string(),
  hidden: z.boolean(),
  /** Applying it would be refused as unverified: a source generator SharpClaw does not run can see the change. */
  unverified: z.boolean(),
});

export const EditResultSchema = z.object({
  kind: z.enum(['preview', 'listing', 'applied']),
  proposalId: z.string().nullable(),
  /** The compact text agents read, formatted by the host (the one place that formats it). */
  text: z.string(),
  operations: z.array(EditFileOperationSchema),
  actions: z.array(CodeActionEntrySchema).nullable(),
  hiddenActions: z.number().int(),
  refreshed: z.boolean(),
  files: z.array(EditFileTextSchema).nullable().optional(),
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
  /** Every file's planned texts: a client with its own editor model may apply them itself. */
  changes: z.array(EditFileTextSchema).nullable().optional(),
});

export type EditParams = z.infer<typeof EditParamsSchema>;
export type EditResult = z.infer<typeof EditResultSchema>;
export type AuthorizeWriteParams = z.infer<typeof AuthorizeWriteParamsSchema>;
