// The protocol table: every JSON-RPC method of the Roslyn host bound to its params schema, its
// result schema and its authorization effect (read or write, protocol/effects.ts), plus the host's server-to-client callbacks (rust-analyzer's
// lsp_ext.ts, vscode-csharp's roslynProtocol.ts). Callers go through callHost (callHost.ts), so
// params and results are typed from here; the drift test walks this table and checks every schema
// against the one the host exports (`--print-protocol-schema`).
import { z } from 'zod';
import type { Effect } from './effects';
import { AuthorizeEvaluationParamsSchema, AuthorizeEvaluationResultSchema, LoadProgressSchema } from './callbacks';
import { AuthorizeWriteParamsSchema, EditHistoryParamsSchema, EditParamsSchema, EditResultSchema, InterruptedEditsResultSchema } from './edits';
import { HostStatusSchema, InitializeResultSchema } from './hostStatus';
import { LspRequestParamsSchema, LspRequestResultSchema } from './lsp';
import { BulkNavigateParamsSchema, BulkNavigateResultSchema, NavigateParamsSchema, NavigateResultSchema, SymbolsParamsSchema, SymbolsResultSchema } from './navigation';
import { ReachedTestsParamsSchema, ReachedTestsResultSchema } from './reachedTests';
import {
  ProjectGraphParamsSchema,
  ProjectGraphResultSchema,
  ResolveSdkParamsSchema,
  ResolveSdkResultSchema,
  ResolveTargetParamsSchema,
  ResolveTargetResultSchema,
  SemanticErrorDataSchema,
  SolutionInspectParamsSchema,
  SolutionInspectResultSchema,
} from './semantic';
import {
  DiagnosticsParamsSchema,
  DiagnosticsResultSchema,
  FindReferencesParamsSchema,
  FindReferencesResultSchema,
  SymbolResolveParamsSchema,
  SymbolResolveResultSchema,
  TypeHierarchyParamsSchema,
  TypeHierarchyResultSchema,
} from './symbols';
import { ClearStoreParamsSchema, ClearStoreResultSchema, SymbolSearchParamsSchema, SymbolSearchResultSchema, WorkspaceSearchParamsSchema, WorkspaceSearchResultSchema } from './store';

/**
 * What a host method may do, in the authorization vocabulary: `read` answers (loading a compilation may
 * need an MSBuild evaluation, which the host asks the client to authorize), `write` may change workspace
 * files (the host asks `sharpclaw/authorizeWrite` first). No host method builds. A host-backed tool has its
 * method's effect (hostTool.ts); how the host schedules the method is the host's table, checked against this.
 */
export type HostMethodEffects = Extract<Effect, 'read' | 'write'>;

/** A client → host request. */
export interface HostRequest<Name extends string = string, Params extends z.ZodType = z.ZodType, Result extends z.ZodType = z.ZodType> {
  readonly method: Name;
  readonly params: Params;
  readonly result: Result;
  readonly effects: HostMethodEffects;
  /** False where the host exports no params schema (LSP initialize, parameterless status). */
  readonly paramsChecked: boolean;
}

/** A host → client request (answered by the client's permission policy). */
export interface ClientRequest<Name extends string = string, Params extends z.ZodType = z.ZodType, Result extends z.ZodType = z.ZodType> {
  readonly method: Name;
  readonly params: Params;
  readonly result: Result;
}

/** A host → client notification. */
export interface ClientNotification<Name extends string = string, Params extends z.ZodType = z.ZodType> {
  readonly method: Name;
  readonly params: Params;
}

export type ParamsOf<M extends { params: z.ZodType }> = z.input<M['params']>;
export type ResultOf<M extends { result: z.ZodType }> = z.output<M['result']>;

function request<const Name extends string, Params extends z.ZodType, Result extends z.ZodType>(
  method: Name,
  params: Params,
  result: Result,
  effects: HostMethodEffects,
  paramsChecked = true,
): HostRequest<Name, Params, Result> {
  return { method, params, result, effects, paramsChecked };
}

/** sharpclaw/status takes no params. */
const NoParamsSchema = z.object({});

/** LSP initialize's params are vscode-languageclient's / vscode-jsonrpc's business; the host checks what it reads. */
const InitializeParamsSchema = z.looseObject({});

/** Client → host requests. */
export const Methods = {
  initialize: request('initialize', InitializeParamsSchema, InitializeResultSchema, 'read', false),
  status: request('sharpclaw/status', NoParamsSchema, HostStatusSchema, 'read', false),
  solutionInspect: request('sharpclaw/solutionInspect', SolutionInspectParamsSchema, SolutionInspectResultSchema, 'read'),
  projectGraph: request('sharpclaw/projectGraph', ProjectGraphParamsSchema, ProjectGraphResultSchema, 'read'),
  /** Discovery from files only: nothing is evaluated, so nothing needs authorization. */
  resolveTarget: request('sharpclaw/resolveTarget', ResolveTargetParamsSchema, ResolveTargetResultSchema, 'read'),
  /** The SDK check without a process where no global.json applies: hostfxr's resolver in the host, global.json and SDK folders only. */
  resolveSdk: request('sharpclaw/resolveSdk', ResolveSdkParamsSchema, ResolveSdkResultSchema, 'read'),
  symbolResolve: request('sharpclaw/symbolResolve', SymbolResolveParamsSchema, SymbolResolveResultSchema, 'read'),
  findReferences: request('sharpclaw/findReferences', FindReferencesParamsSchema, FindReferencesResultSchema, 'read'),
  typeHierarchy: request('sharpclaw/typeHierarchy', TypeHierarchyParamsSchema, TypeHierarchyResultSchema, 'read'),
  diagnostics: request('sharpclaw/diagnostics', DiagnosticsParamsSchema, DiagnosticsResultSchema, 'read'),
  navigate: request('sharpclaw/navigate', NavigateParamsSchema, NavigateResultSchema, 'read'),
  bulkNavigate: request('sharpclaw/bulkNavigate', BulkNavigateParamsSchema, BulkNavigateResultSchema, 'read'),
  symbols: request('sharpclaw/symbols', SymbolsParamsSchema, SymbolsResultSchema, 'read'),
  /** The verifier's request: the union of the tests that reach a change's members, and whether the walk met what it cannot follow. */
  reachedTests: request('sharpclaw/reachedTests', ReachedTestsParamsSchema, ReachedTestsResultSchema, 'read'),
  /** A raw LSP request answered from the loaded solution; rename returns the WorkspaceEdit and writes nothing. */
  lspRequest: request('sharpclaw/lspRequest', LspRequestParamsSchema, LspRequestResultSchema, 'read'),
  /** A preview or listing reads; `apply` writes. */
  edit: request('sharpclaw/edit', EditParamsSchema, EditResultSchema, 'write'),
  undoEdit: request('sharpclaw/undoEdit', EditHistoryParamsSchema, EditResultSchema, 'write'),
  redoEdit: request('sharpclaw/redoEdit', EditHistoryParamsSchema, EditResultSchema, 'write'),
  /** Recovers (journals for undo) and reports the applies a killed host left unfinished; asked when a host starts. */
  interruptedEdits: request('sharpclaw/interruptedEdits', EditHistoryParamsSchema, InterruptedEditsResultSchema, 'write'),
  /** The syntax-only store: parses files, never evaluates MSBuild, so never asks for authorization. */
  symbolSearch: request('sharpclaw/symbolSearch', SymbolSearchParamsSchema, SymbolSearchResultSchema, 'read'),
  workspaceSearch: request('sharpclaw/workspaceSearch', WorkspaceSearchParamsSchema, WorkspaceSearchResultSchema, 'read'),
  /** Deletes the workspace's store in the state folder (SharpClaw: Clear Cache); nothing in the workspace. */
  clearStore: request('sharpclaw/clearStore', ClearStoreParamsSchema, ClearStoreResultSchema, 'read'),
} as const;

/** Host → client traffic. */
export const Callbacks = {
  authorizeEvaluation: { method: 'sharpclaw/authorizeEvaluation', params: AuthorizeEvaluationParamsSchema, result: AuthorizeEvaluationResultSchema } satisfies ClientRequest,
  authorizeWrite: { method: 'sharpclaw/authorizeWrite', params: AuthorizeWriteParamsSchema, result: AuthorizeEvaluationResultSchema } satisfies ClientRequest,
  loadProgress: { method: 'sharpclaw/loadProgress', params: LoadProgressSchema } satisfies ClientNotification,
} as const;

/** `error.data` of the host's typed errors (JSON-RPC code -32001). */
export const HostErrorData = SemanticErrorDataSchema;

/** The method names, for code that only needs a name (logs, traces, handler registration). */
export const HostMethods = Object.fromEntries(Object.entries(Methods).map(([key, entry]) => [key, entry.method])) as {
  readonly [K in keyof typeof Methods]: (typeof Methods)[K]['method'];
};

/**
 * Every schema of the table under the key the host exports it with: a request's result under its
 * method, its params under `method:params`, a callback's under `method:params` / `method:result`,
 * and the error data under `error:data`. The drift test compares each with the host's.
 */
export function protocolSchemas(): Record<string, z.ZodType> {
  const schemas: Record<string, z.ZodType> = {};
  for (const entry of Object.values(Methods) as HostRequest[]) {
    schemas[entry.method] = entry.result;
    if (entry.paramsChecked) schemas[`${entry.method}:params`] = entry.params;
  }
  for (const entry of Object.values(Callbacks) as Array<ClientRequest | ClientNotification>) {
    schemas[`${entry.method}:params`] = entry.params;
    if ('result' in entry) schemas[`${entry.method}:result`] = entry.result;
  }
  schemas['error:data'] = HostErrorData;
  return schemas;
}
