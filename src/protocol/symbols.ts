// Mirrors SharpClaw.Protocol/Semantic/SymbolQueries.cs (symbol resolve, references, hierarchy).
import { z } from 'zod';
import { ExcludedAnalyzersSchema } from './semantic';

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

const answeredBy = {
  project: z.string(),
  targetFramework: z.string().nullable(),
};

export const SymbolResolveResultSchema = z.object({
  symbol: ResolvedSymbolSchema,
  ...answeredBy,
  excludedAnalyzers: z.array(ExcludedAnalyzersSchema).nullable(),
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
});

export type ResolvedSymbol = z.infer<typeof ResolvedSymbolSchema>;
export type SymbolResolveResult = z.infer<typeof SymbolResolveResultSchema>;
export type FindReferencesResult = z.infer<typeof FindReferencesResultSchema>;
export type TypeHierarchyResult = z.infer<typeof TypeHierarchyResultSchema>;
