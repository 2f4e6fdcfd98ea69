// Mirrors SharpClaw.Protocol/Semantic/Navigation.cs (navigate, bulk navigate, symbols).
import { z } from 'zod';
import { Bounds, boundedParam, navigateActions, pagingParams } from './paramRules';
import { ExcludedAnalyzersSchema, hostErrorKinds } from './semantic';
import { answeredBy, flavours, generatorGaps, ResolvedSymbolSchema, resolvedFile, selectorParams, SourceLocationSchema, workspaceParams } from './symbols';

export const NavigateLocationSchema = z.object({
  path: z.string(),
  line: z.number().int(),
  character: z.number().int(),
  context: z.string().nullable(),
});

export const RelatedSymbolSchema = z.object({
  name: z.string(),
  kind: z.string(),
  location: SourceLocationSchema.nullable(),
  callSites: z.array(NavigateLocationSchema).nullable(),
  /** callers: the interface or base member called, which dispatches to the requested one; absent for a direct call. */
  via: z.string().nullable().optional(),
});

export const SourcePartSchema = z.object({
  path: z.string(),
  firstLine: z.number().int(),
  lastLine: z.number().int(),
  kind: z.string(),
  name: z.string(),
  text: z.string(),
});

export const MemberItemSchema = z.object({
  path: z.string(),
  line: z.number().int(),
  character: z.number().int(),
  kind: z.string(),
  name: z.string(),
});

export const ImpactSectionSchema = z.object({
  action: z.string(),
  total: z.number().int(),
  locations: z.array(NavigateLocationSchema).nullable(),
  related: z.array(RelatedSymbolSchema).nullable(),
  omittedGenerated: z.number().int(),
});

export const OmittedSectionSchema = z.object({ action: z.string(), total: z.number().int(), lines: z.number().int() });

export const UnfollowablePlaceSchema = z.object({ kind: z.string(), path: z.string(), line: z.number().int(), character: z.number().int() });

/** tests: where the walk met code it cannot follow; absent when none. */
export const UnfollowableNoteSchema = z.object({ total: z.number().int(), kinds: z.array(z.string()), places: z.array(UnfollowablePlaceSchema) });

export const NavigateResultSchema = z.object({
  action: z.string(),
  symbol: ResolvedSymbolSchema,
  ...answeredBy,
  locations: z.array(NavigateLocationSchema).nullable(),
  related: z.array(RelatedSymbolSchema).nullable(),
  hover: z.string().nullable(),
  sources: z.array(SourcePartSchema).nullable(),
  members: z.array(MemberItemSchema).nullable(),
  sections: z.array(ImpactSectionSchema).nullable(),
  omittedToFit: z.array(OmittedSectionSchema).nullable(),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  truncated: z.boolean(),
  nextOffset: z.number().int().nullable(),
  omittedGenerated: z.number().int(),
  omittedAccesses: z.number().int(),
  excludedAnalyzers: z.array(ExcludedAnalyzersSchema).nullable(),
  ...resolvedFile,
  ...flavours,
  ...generatorGaps,
  unfollowable: UnfollowableNoteSchema.nullable().optional(),
  walkLimit: z.number().int().nullable().optional(),
});

export const BulkNavigateErrorSchema = z.object({ code: z.enum(hostErrorKinds), message: z.string(), candidates: z.array(z.string()).nullable() });

export const BulkNavigateSectionSchema = z.object({
  index: z.number().int(),
  action: z.string(),
  target: z.string(),
  result: NavigateResultSchema.nullable(),
  error: BulkNavigateErrorSchema.nullable(),
});

export const BulkNavigateResultSchema = z.object({ sections: z.array(BulkNavigateSectionSchema), timedOut: z.boolean() });

export const SymbolItemSchema = z.object({
  name: z.string(),
  kind: z.string(),
  path: z.string(),
  line: z.number().int(),
  character: z.number().int(),
  endLine: z.number().int().nullable(),
  endCharacter: z.number().int().nullable(),
  depth: z.number().int(),
});

export const SymbolsResultSchema = z.object({
  path: z.string().nullable(),
  query: z.string().nullable(),
  items: z.array(SymbolItemSchema),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  truncated: z.boolean(),
  nextOffset: z.number().int().nullable(),
  projects: z.array(z.object({ project: z.string(), targetFramework: z.string().nullable() })),
  incomplete: z.boolean(),
  excludedAnalyzers: z.array(ExcludedAnalyzersSchema).nullable(),
  ...resolvedFile,
});

export const NavigateParamsSchema = z.object({
  ...selectorParams,
  action: z.enum(navigateActions).nullable().optional(),
  context: z.boolean().nullable().optional(),
  ...pagingParams,
});

export const BulkNavigateParamsSchema = z.object({
  ...workspaceParams,
  queries: z
    .array(
      z.object({
        action: z.enum(navigateActions).nullable().optional(),
        name: z.string().nullable().optional(),
        path: z.string().nullable().optional(),
        line: z.number().int().nullable().optional(),
        character: z.number().int().nullable().optional(),
      }),
    )
    .min(Bounds.bulkQueries.minimum)
    .max(Bounds.bulkQueries.maximum)
    .nullable()
    .optional(),
  context: z.boolean().nullable().optional(),
  ...pagingParams,
  timeoutSeconds: boundedParam(Bounds.bulkTimeoutSeconds),
});

export const SymbolsParamsSchema = z.object({
  ...workspaceParams,
  path: z.string().nullable().optional(),
  query: z.string().nullable().optional(),
  project: z.string().nullable().optional(),
  ...pagingParams,
});

export type NavigateLocation = z.infer<typeof NavigateLocationSchema>;
export type RelatedSymbol = z.infer<typeof RelatedSymbolSchema>;
export type SourcePart = z.infer<typeof SourcePartSchema>;
export type NavigateResult = z.infer<typeof NavigateResultSchema>;
export type BulkNavigateResult = z.infer<typeof BulkNavigateResultSchema>;
export type SymbolsResult = z.infer<typeof SymbolsResultSchema>;
