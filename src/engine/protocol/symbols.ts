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

/** An excluded generator whose code could add to a list answer: it runs in projects that can see the symbol. */
export const GeneratorGapSchema = z.object({
  generator: z.string(),
  origin: z.string(),
  projectCount: z.number().int(),
  projects: z.array(z.string()),
  /** The type the generator may declare itself: where its name binds to nothing, nothing there can be listed. */
  declares: z.string().nullable().optional(),
  unresolvedUses: z.number().int().nullable().optional(),
});

/** List answers: the excluded generators that could add to them; absent when none could. */
export const generatorGaps = { generatorGaps: z.array(GeneratorGapSchema).nullable().optional() };

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
  ...generatorGaps,
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
  ...generatorGaps,
});

export type FlavourNote = z.infer<typeof FlavourNoteSchema>;
export type GeneratorGap = z.infer<typeof GeneratorGapSchema>;

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
  /** An error in a project whose compilation lacks an excluded generator's output: the generators named here may cause it. */
  excludedGenerator: z.string().nullable().optional(),
  /** With excludedGenerator: the partial type it lies in, which a generator of its own project may complete. */
  partialType: z.string().nullable().optional(),
  /** An error in a project whose restore failed: what the restore could not do ("NU1101 Jab"), which may cause it. */
  restoreFailed: z.string().nullable().optional(),
});

/** The project-level caveat of a project whose restore failed: its errors may come from what it could not restore. */
export const RestoreCaveatSchema = z.object({
  project: z.string(),
  failure: z.string(),
  errors: z.number().int(),
});

/** The project-level caveat: an excluded generator whose output the checked projects lack. */
export const GeneratorCaveatSchema = z.object({
  generator: z.string(),
  origin: z.string(),
  errors: z.number().int(),
  projectCount: z.number().int(),
  projects: z.array(z.string()),
});

export const DiagnosticSummaryLineSchema = z.object({
  id: z.string(),
  count: z.number().int(),
  severity: z.string(),
  example: SourceLocationSchema,
  message: z.string(),
  /** The excluded generators that may explain every diagnostic of this line. */
  excludedGenerator: z.string().nullable().optional(),
  /** Every diagnostic of this line is in a project whose restore failed. */
  restoreFailed: z.boolean().optional(),
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
  /** One per excluded generator that may explain listed errors, said before them. */
  generatorCaveats: z.array(GeneratorCaveatSchema).nullable().optional(),
  /** Of total, the errors in projects whose restore failed (listed after those that stand). */
  possiblyFromFailedRestores: z.number().int().optional(),
  /** One per project whose restore failed and that has listed errors (at most three). */
  restoreCaveats: z.array(RestoreCaveatSchema).nullable().optional(),
});

export type DiagnosticsResult = z.infer<typeof DiagnosticsResultSchema>;
export type ResolvedSymbol = z.infer<typeof ResolvedSymbolSchema>;
export type SymbolResolveResult = z.infer<typeof SymbolResolveResultSchema>;
export type FindReferencesResult = z.infer<typeof FindReferencesResultSchema>;
export type TypeHierarchyResult = z.infer<typeof TypeHierarchyResultSchema>;
