// Mirrors SharpClaw.Protocol/Semantic/SymbolQueries.cs (symbol resolve, references, hierarchy).
import { z } from 'zod';
import { Bounds, boundedParam, diagnosticSeverities, pagingParams } from './paramRules';
import { ExcludedAnalyzersSchema, workspaceParams } from './semantic';

export const SourceLocationSchema = z.object({
  path: z.string(),
  line: z.number().int(),
  character: z.number().int(),
  generated: z.boolean().nullable().optional(),
});

export const ResolvedSymbolSchema = z.object({
  name: z.string(),
  kind: z.string(),
  container: z.string().nullable(),
  locations: z.array(SourceLocationSchema),
});

export const answeredBy = {
  project: z.string(),
  targetFramework: z.string().nullable(),
};

/** Which flavours (target frameworks) of a multi-targeted declaring project answered; absent for a project with one. */
export const FlavourNoteSchema = z.object({
  frameworks: z.array(z.string()),
  searched: z.boolean(),
  dependents: z.number().int(),
  compileAgainst: z.number().int(),
});

/** The workspace-relative file a file-name or suffix argument resolved to; absent when the path was exact. */
export const resolvedFile = { resolvedFile: z.string().nullable().optional() };

/** Symbol answers: the flavours of a multi-targeted declaring project they used. */
export const flavours = { flavours: FlavourNoteSchema.nullable().optional() };

export const SymbolResolveResultSchema = z.object({
  symbol: ResolvedSymbolSchema,
  ...answeredBy,
  excludedAnalyzers: z.array(ExcludedAnalyzersSchema).nullable(),
  ...resolvedFile,
  ...flavours,
});

export const SymbolReferenceSchema = z.object({
  path: z.string(),
  line: z.number().int(),
  character: z.number().int(),
  context: z.string().nullable(),
});

export const FindReferencesResultSchema = z.object({
  symbol: ResolvedSymbolSchema,
  ...answeredBy,
  references: z.array(SymbolReferenceSchema),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  truncated: z.boolean(),
  nextOffset: z.number().int().nullable(),
  omittedGenerated: z.number().int(),
  excludedAnalyzers: z.array(ExcludedAnalyzersSchema).nullable(),
  ...resolvedFile,
  ...flavours,
});

export const SymbolCollectionSchema = z.object({
  items: z.array(ResolvedSymbolSchema),
  total: z.number().int(),
  truncated: z.boolean(),
});

export const TypeHierarchyResultSchema = z.object({
  symbol: ResolvedSymbolSchema,
  ...answeredBy,
  baseTypes: SymbolCollectionSchema,
  interfaces: SymbolCollectionSchema,
  derivedTypes: SymbolCollectionSchema,
  implementations: SymbolCollectionSchema,
  limit: z.number().int(),
  excludedAnalyzers: z.array(ExcludedAnalyzersSchema).nullable(),
  ...resolvedFile,
  ...flavours,
});

export type FlavourNote = z.infer<typeof FlavourNoteSchema>;

export { workspaceParams };

export const selectorParams = {
  ...workspaceParams,
  name: z.string().nullable().optional(),
  container: z.string().nullable().optional(),
  kind: z.string().nullable().optional(),
  project: z.string().nullable().optional(),
  path: z.string().nullable().optional(),
  signature: z.string().nullable().optional(),
  line: z.number().int().nullable().optional(),
  character: z.number().int().nullable().optional(),
};

export const SymbolResolveParamsSchema = z.object(selectorParams);
export const FindReferencesParamsSchema = z.object({
  ...selectorParams,
  ...pagingParams,
  context: z.boolean().nullable().optional(),
});
export const TypeHierarchyParamsSchema = z.object({ ...selectorParams, limit: pagingParams.limit });
export const DiagnosticsParamsSchema = z.object({
  ...workspaceParams,
  project: z.string().nullable().optional(),
  path: z.string().nullable().optional(),
  severity: z.enum(diagnosticSeverities).nullable().optional(),
  ids: z.array(z.string()).nullable().optional(),
  summary: z.boolean().nullable().optional(),
  offset: pagingParams.offset,
  limit: boundedParam(Bounds.diagnosticsLimit),
});

export const DiagnosticItemSchema = z.object({
  path: z.string(),
  line: z.number().int(),
  character: z.number().int(),
  endLine: z.number().int(),
  endCharacter: z.number().int(),
  severity: z.string(),
  id: z.string(),
  message: z.string(),
  project: z.string(),
  /** An error of a kind an absent generator causes, in a project whose generators (named here) SharpClaw excluded. */
  excludedGenerator: z.string().nullable().optional(),
});

export const DiagnosticSummaryLineSchema = z.object({
  id: z.string(),
  count: z.number().int(),
  severity: z.string(),
  example: SourceLocationSchema,
  message: z.string(),
});

export const DiagnosticsResultSchema = z.object({
  projects: z.array(z.object({ project: z.string(), targetFramework: z.string().nullable() })),
  diagnostics: z.array(DiagnosticItemSchema).nullable(),
  summary: z.array(DiagnosticSummaryLineSchema).nullable(),
  severity: z.string(),
  filteredByIds: z.boolean(),
  filesChecked: z.number().int(),
  total: z.number().int(),
  filesWithDiagnostics: z.number().int(),
  belowSeverity: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  truncated: z.boolean(),
  nextOffset: z.number().int().nullable(),
  incomplete: z.array(z.string()),
  excludedAnalyzers: z.array(ExcludedAnalyzersSchema).nullable(),
  ...resolvedFile,
  /** Of total, the errors marked as possibly from an excluded generator. */
  possiblyFromExcludedGenerators: z.number().int().optional(),
});

export type DiagnosticsResult = z.infer<typeof DiagnosticsResultSchema>;
export type ResolvedSymbol = z.infer<typeof ResolvedSymbolSchema>;
export type SymbolResolveResult = z.infer<typeof SymbolResolveResultSchema>;
export type FindReferencesResult = z.infer<typeof FindReferencesResultSchema>;
export type TypeHierarchyResult = z.infer<typeof TypeHierarchyResultSchema>;
