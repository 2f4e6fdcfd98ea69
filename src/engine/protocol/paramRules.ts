// The host's rules on params, mirrored once on this side: the bounds of integer params and list
// lengths (SharpClaw.Protocol's [Bounds], [PageOffset], [PageLimit]) and the value sets of string
// params ([OneOf<…>]). The protocol's param schemas and the tools' input schemas both take them from
// here, so each rule is written once per side; the drift test (test/host-e2e/protocolDrift.test.ts)
// compares every minimum, maximum, default and enum with the JSON Schema the host exports.
import { z } from 'zod';

/** The largest integer the host reads (a C# int); every numeric param is bounded by it. */
export const maxHostInteger = 2_147_483_647;

/** A range and the value the host uses when the param is absent (none for a required list). */
export interface Bound {
  readonly minimum: number;
  readonly maximum: number;
  readonly default?: number;
}

/** The bounds, named as the host names them. */
export const Bounds = {
  /** [PageOffset]: skip this many items of a paged list. */
  pageOffset: { minimum: 0, maximum: maxHostInteger, default: 0 },
  /** [PageLimit]: at most this many items of a paged list. */
  pageLimit: { minimum: 1, maximum: 200, default: 50 },
  /** DiagnosticsParams.Limit: more than other lists, since a diagnostic line is short. */
  diagnosticsLimit: { minimum: 1, maximum: 250, default: 50 },
  /** BulkNavigateParams.Queries: how many queries one bulk call runs. */
  bulkQueries: { minimum: 1, maximum: 16 },
  /** ReachedTestsParams.Symbols: how many changed members one reachedTests request walks from. */
  reachedTestsSymbols: { minimum: 1, maximum: 1000 },
  /** ReachedTestsParams.Changes: how many changed C# files one reachedTests request compares. */
  reachedTestsChanges: { minimum: 1, maximum: 1000 },
  /** BulkNavigateParams.TimeoutSeconds: the bulk call's overall budget. */
  bulkTimeoutSeconds: { minimum: 1, maximum: 600, default: 120 },
} as const satisfies Record<string, Bound>;

/** NavigateActions: navigate's actions, and each bulk query's. */
export const navigateActions = [
  'definition',
  'type_definition',
  'implementation',
  'references',
  'reads',
  'writes',
  'callers',
  'callees',
  'supertypes',
  'subtypes',
  'hover',
  'source',
  'members',
  'impact',
  'tests',
] as const;
export type NavigateAction = (typeof navigateActions)[number];

/** DiagnosticSeverities: a diagnostics request's minimum severity, lowest first. */
export const diagnosticSeverities = ['hint', 'information', 'warning', 'error'] as const;

/**
 * The host's one glob dialect (SharpClaw.Server's PathGlob), as every tool that takes a path glob describes it:
 * csharp_diagnostics' file and csharp_workspace_search's paths read a glob the same way.
 */
export const globDialect = '* (in a folder), ** (any folders), ? (one character), [a-z] / [!a-z], {A,B}; without / it matches a file name at any depth';

/** An integer within `bound` (a tool argument: its description says the default, from describeBound). */
export function boundedInteger(bound: Bound) {
  return z.number().int().min(bound.minimum).max(bound.maximum);
}

/** A host param within `bound`: optional and nullable like every param, its default as JSON Schema metadata (the host applies it). */
export function boundedParam(bound: Bound) {
  const schema = boundedInteger(bound);
  return (bound.default === undefined ? schema : schema.meta({ default: bound.default })).nullable().optional();
}

/** "1–200": the range as a description says it. */
export function rangeOf(bound: Bound): string {
  return bound.maximum === maxHostInteger ? `${bound.minimum} or more` : `${bound.minimum}–${bound.maximum}`;
}

/** The paging params every paged list takes. */
export const pagingParams = {
  offset: boundedParam(Bounds.pageOffset),
  limit: boundedParam(Bounds.pageLimit),
};
