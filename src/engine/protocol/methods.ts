// JSON-RPC method names the Roslyn host implements, with the schema of each result (and of the
// host's server-to-client traffic). The drift test walks this table, so whatever is added here
// is checked against the host's exported schema.
import { AuthorizeEvaluationParamsSchema, AuthorizeEvaluationResultSchema, LoadProgressSchema } from '../host/hostCallbacks';
import { AuthorizeWriteParamsSchema, EditHistoryParamsSchema, EditParamsSchema, EditResultSchema } from './edits';
import { HostStatusSchema, InitializeResultSchema } from './hostStatus';
import { BulkNavigateParamsSchema, BulkNavigateResultSchema, NavigateParamsSchema, NavigateResultSchema, SymbolsParamsSchema, SymbolsResultSchema } from './navigation';
import { ProjectGraphResultSchema, ResolveTargetResultSchema, SemanticErrorDataSchema, SolutionInspectResultSchema } from './semantic';
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

export const HostMethods = {
  status: 'sharpclaw/status',
  solutionInspect: 'sharpclaw/solutionInspect',
  projectGraph: 'sharpclaw/projectGraph',
  resolveTarget: 'sharpclaw/resolveTarget',
  symbolResolve: 'sharpclaw/symbolResolve',
  findReferences: 'sharpclaw/findReferences',
  typeHierarchy: 'sharpclaw/typeHierarchy',
  diagnostics: 'sharpclaw/diagnostics',
  navigate: 'sharpclaw/navigate',
  bulkNavigate: 'sharpclaw/bulkNavigate',
  symbols: 'sharpclaw/symbols',
  edit: 'sharpclaw/edit',
  undoEdit: 'sharpclaw/undoEdit',
  redoEdit: 'sharpclaw/redoEdit',
} as const;

export const protocolResultSchemas = {
  initialize: InitializeResultSchema,
  [HostMethods.status]: HostStatusSchema,
  [HostMethods.solutionInspect]: SolutionInspectResultSchema,
  [HostMethods.projectGraph]: ProjectGraphResultSchema,
  [HostMethods.resolveTarget]: ResolveTargetResultSchema,
  [HostMethods.symbolResolve]: SymbolResolveResultSchema,
  [HostMethods.findReferences]: FindReferencesResultSchema,
  [HostMethods.typeHierarchy]: TypeHierarchyResultSchema,
  [HostMethods.diagnostics]: DiagnosticsResultSchema,
  [HostMethods.navigate]: NavigateResultSchema,
  [HostMethods.bulkNavigate]: BulkNavigateResultSchema,
  [HostMethods.symbols]: SymbolsResultSchema,
  [`${HostMethods.navigate}:params`]: NavigateParamsSchema,
  [`${HostMethods.bulkNavigate}:params`]: BulkNavigateParamsSchema,
  [`${HostMethods.symbols}:params`]: SymbolsParamsSchema,
  [HostMethods.edit]: EditResultSchema,
  [HostMethods.undoEdit]: EditResultSchema,
  [HostMethods.redoEdit]: EditResultSchema,
  [`${HostMethods.edit}:params`]: EditParamsSchema,
  [`${HostMethods.undoEdit}:params`]: EditHistoryParamsSchema,
  [`${HostMethods.symbolResolve}:params`]: SymbolResolveParamsSchema,
  [`${HostMethods.findReferences}:params`]: FindReferencesParamsSchema,
  [`${HostMethods.typeHierarchy}:params`]: TypeHierarchyParamsSchema,
  [`${HostMethods.diagnostics}:params`]: DiagnosticsParamsSchema,
  'sharpclaw/authorizeEvaluation:params': AuthorizeEvaluationParamsSchema,
  'sharpclaw/authorizeEvaluation:result': AuthorizeEvaluationResultSchema,
  'sharpclaw/authorizeWrite:params': AuthorizeWriteParamsSchema,
  'sharpclaw/authorizeWrite:result': AuthorizeEvaluationResultSchema,
  'sharpclaw/loadProgress:params': LoadProgressSchema,
  'error:data': SemanticErrorDataSchema,
} as const;
