// Mirrors SharpClaw.Protocol/Semantic (the host's workspace loading and inspection records).
// The drift test compares these with the host's exported JSON Schema.
import { z } from 'zod';
import { InterruptedEditSchema } from './interruptedEdits';

/** What every workspace request carries (SharpClaw.Protocol's WorkspaceRequestParams). */
export const workspaceParams = {
  workspace: z.string().nullable().optional(),
  target: z.string().nullable().optional(),
  configuration: z.string().nullable().optional(),
  targetFramework: z.string().nullable().optional(),
  tool: z.string().nullable().optional(),
  /** The client's call id, echoed in the authorization requests this request causes (permissions/grants.ts). */
  call: z.string().nullable().optional(),
};

export const SolutionInspectParamsSchema = z.object(workspaceParams);
export const ProjectGraphParamsSchema = z.object({
  ...workspaceParams,
  /** "offer": a kept graph, or a collection the caller's build fills; then that collection's id (the host's BuildCollection). */
  buildCollection: z.string().nullable().optional(),
});

export const ProjectIssueSchema = z.object({ path: z.string(), reason: z.string() });

export const ExcludedAnalyzerSchema = z.object({
  path: z.string(),
  name: z.string(),
  origin: z.enum(['package', 'project', 'other']),
  package: z.string().nullable(),
});

export const ExcludedAnalyzersSchema = z.object({
  project: z.string(),
  targetFramework: z.string().nullable(),
  analyzers: z.array(ExcludedAnalyzerSchema),
});

export const RestoredPackageSchema = z.object({
  id: z.string(),
  requestedVersion: z.string().nullable(),
  resolvedVersion: z.string().nullable(),
  targetFramework: z.string(),
});

export const ProjectCompilationSchema = z.object({
  name: z.string(),
  targetFramework: z.string().nullable(),
  documentCount: z.number().int(),
  loaded: z.boolean(),
});

const TestProjectSourceSchema = z.enum(['evaluated', 'testSdkReference', 'testingPlatformApplication', 'absent']);

export const InspectedProjectSchema = z.object({
  path: z.string(),
  name: z.string(),
  isTestProject: z.boolean(),
  isTestProjectSource: TestProjectSourceSchema,
  outputType: z.string(),
  targetFrameworks: z.array(z.string()),
  restoredTargetFrameworks: z.array(z.string()),
  packages: z.array(RestoredPackageSchema),
  projectReferences: z.array(z.string()),
  assetsFile: z.string().nullable(),
  compilations: z.array(ProjectCompilationSchema),
});

export const SolutionInspectResultSchema = z.object({
  workspace: z.string(),
  target: z.string(),
  configuration: z.string(),
  targetFramework: z.string().nullable(),
  loadStatus: z.enum(['complete', 'partial']),
  /** Projects that failed to load; the rest are usable. */
  partialLoad: z.array(ProjectIssueSchema),
  /** Problems MSBuild reported for projects that still loaded. */
  loadWarnings: z.array(ProjectIssueSchema),
  projects: z.array(InspectedProjectSchema),
  excludedAnalyzers: z.array(ExcludedAnalyzersSchema),
  dynamicImports: z.array(z.string()),
  fromCache: z.boolean(),
  /** The context was rebuilt from the approved snapshot in the store (a warm restart: no evaluation, no approval). */
  fromSnapshot: z.boolean(),
  /** Projects the solution lists that SharpClaw does not load (F#, Visual Basic, other types, missing files), with why. */
  notLoaded: z.array(ProjectIssueSchema).optional(),
  /** How many projects the target lists, loaded or not. */
  listedProjects: z.number().int().nullable().optional(),
});

export const ProjectGraphNodeSchema = z.object({
  path: z.string(),
  isTestProject: z.boolean(),
  isTestProjectSource: TestProjectSourceSchema,
  targetFrameworks: z.array(z.string()),
  outputType: z.string(),
  assetsFile: z.string().nullable(),
  restored: z.boolean(),
  compileItems: z.array(z.string()),
  projectReferences: z.array(z.string()),
  imports: z.array(z.string()),
  /** EmbeddedResource, AdditionalFiles, Content and None items. */
  otherItems: z.array(z.string()),
  packageReferences: z.array(z.string()),
  isTestingPlatformApplication: z.boolean(),
  testingPlatformDotnetTestSupport: z.boolean(),
  outputs: z.array(z.object({ targetFramework: z.string(), targetPath: z.string().nullable(), intermediateAssembly: z.string().nullable() })),
});

export const ProjectGraphResultSchema = z.object({
  workspace: z.string(),
  target: z.string(),
  configuration: z.string(),
  targetFramework: z.string().nullable(),
  projects: z.array(ProjectGraphNodeSchema),
  excludedAnalyzers: z.array(ExcludedAnalyzersSchema),
  partialLoad: z.array(ProjectIssueSchema),
  dynamicImports: z.array(z.string()),
  fromCache: z.boolean(),
  /** Only for buildCollection "offer" when nothing kept is valid (then no projects): what the build's environment needs. */
  buildCollection: z.object({ id: z.string(), environment: z.record(z.string(), z.string()) }).nullable().optional(),
});

/** sharpclaw/resolveTarget: the target the read tools use, from files only. */
export const ResolveTargetParamsSchema = z.object(workspaceParams);
export const ResolveTargetResultSchema = z.object({
  workspace: z.string(),
  target: z.string(),
  kind: z.enum(['solution', 'project']),
  projects: z.array(z.string()),
});

/** sharpclaw/resolveSdk: the SDK dotnet would pick in the target's folder, answered in the host's process (the verifier's SDK check). */
export const ResolveSdkParamsSchema = z.object(workspaceParams);
export const ResolveSdkResultSchema = z.object({
  /** The installation the host asked (absolute): the answer holds only for a dotnet of that installation. */
  dotnetRoot: z.string().nullable(),
  /** What `dotnet --version` would print there, or null (then only the command can tell). */
  version: z.string().nullable(),
  reason: z.string().nullable(),
});

export const SymbolCandidateSchema = z.object({
  name: z.string(),
  kind: z.string(),
  path: z.string().nullable(),
  line: z.number().int().nullable(),
  character: z.number().int().nullable(),
  needsPath: z.boolean(),
  /** The candidate's line as every surface prints it (the host's one definition). */
  text: z.string(),
});

/**
 * The host's error kinds (SharpClaw.Protocol's SemanticErrorKind): one snake_case set, the agent-facing codes
 * themselves, so they pass through unchanged. The drift test checks the list against the host's enum.
 */
export const hostErrorKinds = [
  'target_ambiguous',
  'no_target',
  'permission_denied',
  'missing_prerequisites',
  'load_failed',
  'partial_load',
  'invalid_request',
  'ambiguous_symbol',
  'symbol_not_found',
  'ambiguous_file',
  'stale_edit',
  'unverified',
  'invalid_identifier',
  'rename_conflict',
  'new_errors',
  'outside_workspace',
  'generated_document',
  'linked_document_conflict',
  'edit_too_large',
  'write_failed',
  'content_changed',
  'nothing_to_undo',
  'read_only_file',
  /** Bulk navigate sections only. */
  'timeout',
  'cancelled',
] as const;
export type HostErrorKind = (typeof hostErrorKinds)[number];

/** `error.data` of the host's typed errors (JSON-RPC code -32001): the one schema, checked when an error arrives. */
export const SemanticErrorDataSchema = z.object({
  kind: z.enum(hostErrorKinds),
  message: z.string(),
  candidates: z.array(z.string()).nullable(),
  projects: z.array(ProjectIssueSchema).nullable(),
  command: z.string().nullable(),
  /** ambiguous_symbol / symbol_not_found only. */
  symbols: z.array(SymbolCandidateSchema).nullable().optional(),
  /** Edit errors: new errors, conflicts, residual changes and rollback errors, one per line. */
  details: z.array(z.string()).nullable().optional(),
  /** Edit, undo and redo errors: applies an earlier host left unfinished, recovered by this request. */
  interrupted: z.array(InterruptedEditSchema).nullable().optional(),
});

export type SolutionInspectResult = z.infer<typeof SolutionInspectResultSchema>;
export type ProjectGraphResult = z.infer<typeof ProjectGraphResultSchema>;
export type ExcludedAnalyzers = z.infer<typeof ExcludedAnalyzersSchema>;
