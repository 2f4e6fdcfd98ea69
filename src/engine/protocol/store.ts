// Mirrors SharpClaw.Protocol/Store/SearchRequests.cs: symbol_search and workspace_search, answered
// from the host's syntax-only store (no MSBuild, no authorization).
import { z } from 'zod';
import { pagingParams as paging } from './paramRules';

export const SymbolSearchParamsSchema = z.object({
  workspace: z.string().nullable().optional(),
  tool: z.string().nullable().optional(),
  query: z.string().nullable().optional(),
  kind: z.string().nullable().optional(),
  container: z.string().nullable().optional(),
  /** When the answer is due (Unix ms): a longer index build answers from the files indexed so far (mcpLoadWait.ts). */
  answerBy: z.number().int().nullable().optional(),
  ...paging,
});

export const SymbolSearchItemSchema = z.object({
  name: z.string(),
  kind: z.string(),
  container: z.string().nullable(),
  signature: z.string(),
  path: z.string(),
  line: z.number().int(),
  character: z.number().int(),
  endLine: z.number().int(),
  endCharacter: z.number().int(),
  /** The #if condition the declaration is under (NET, !NET, NET8_0_OR_GREATER && DEBUG); absent when unconditional. */
  condition: z.string().nullable().optional(),
});

const page = {
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  truncated: z.boolean(),
  nextOffset: z.number().int().nullable(),
};

export const SymbolSearchResultSchema = z.object({
  query: z.string(),
  items: z.array(SymbolSearchItemSchema),
  ...page,
  indexedFiles: z.number().int(),
  reindexedFiles: z.number().int(),
  /** New or changed files not indexed yet: the build passed the call's answer time and goes on in the background; absent when none. */
  pendingFiles: z.number().int().nullable().optional(),
});

export const WorkspaceSearchParamsSchema = z.object({
  workspace: z.string().nullable().optional(),
  tool: z.string().nullable().optional(),
  query: z.string().nullable().optional(),
  regex: z.boolean().nullable().optional(),
  caseSensitive: z.boolean().nullable().optional(),
  paths: z.array(z.string()).nullable().optional(),
  /** When the answer is due (Unix ms): a longer index build answers from the files indexed so far (mcpLoadWait.ts). */
  answerBy: z.number().int().nullable().optional(),
  ...paging,
});

export const WorkspaceSearchMatchSchema = z.object({
  path: z.string(),
  line: z.number().int(),
  character: z.number().int(),
  text: z.string(),
});

export const WorkspaceSearchResultSchema = z.object({
  query: z.string(),
  matches: z.array(WorkspaceSearchMatchSchema),
  ...page,
  files: z.number().int(),
  indexedFiles: z.number().int(),
  reindexedFiles: z.number().int(),
  /** New or changed files not indexed yet: the build passed the call's answer time and goes on in the background; absent when none. */
  pendingFiles: z.number().int().nullable().optional(),
  /** With paths and no match: how many indexed files the globs let through (0: none); absent otherwise. */
  pathsMatchedFiles: z.number().int().nullable().optional(),
});

export const ClearStoreParamsSchema = z.object({
  workspace: z.string().nullable().optional(),
});

export const ClearStoreResultSchema = z.object({
  path: z.string(),
  deleted: z.boolean(),
  bytes: z.number().int(),
});

export type SymbolSearchResult = z.infer<typeof SymbolSearchResultSchema>;
export type WorkspaceSearchResult = z.infer<typeof WorkspaceSearchResultSchema>;
