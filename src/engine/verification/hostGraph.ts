// The verifier's view of the C# host: the target (sharpclaw/resolveTarget, files only, the same
// rule every read tool uses) and the evaluated project graph (sharpclaw/projectGraph, one MSBuild
// process for the whole target, cached by the host). Paths come back workspace-relative and
// leave here absolute.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { z } from 'zod';
import type { HostRequester } from '../host/hostRequester';
import { callHost } from '../protocol/callHost';
import { Methods } from '../protocol/methods';
import type { ProjectGraphNodeSchema, ProjectGraphResultSchema } from '../protocol/semantic';
import { ToolError } from '../errors';
import { EvaluationError, type EvaluatedProject, type ProjectGraph, type TestProjectSource } from './projectGraph';

export interface ResolvedTarget {
  /** Absolute path of the solution or project. */
  path: string;
  /** Workspace-relative, as the host names it (and as the read tools report it). */
  relative: string;
  kind: 'solution' | 'project';
  /** Absolute paths of the projects it names (a project target names itself). */
  projects: string[];
}

export type TargetResolution = { kind: 'found'; target: ResolvedTarget } | { kind: 'none'; reason: string };

const absolute = (workspace: string, file: string) => path.resolve(workspace, file);

/**
 * The target the read tools would use. No target and no candidate anywhere below is a non-.NET
 * workspace (`none`: verification is skipped); no top-level target but nested candidates is the
 * host's NoTarget error with the candidates as hints, exactly what csharp_diagnostics answers.
 */
export async function resolveTarget(host: HostRequester, workspaceFolder: string, target: string | undefined, signal?: AbortSignal): Promise<TargetResolution> {
  try {
    const result = await callHost(host, Methods.resolveTarget, { workspace: workspaceFolder, ...(target ? { target } : {}) }, signal);
    return {
      kind: 'found',
      target: { path: absolute(workspaceFolder, result.target), relative: result.target, kind: result.kind, projects: result.projects.map((p) => absolute(workspaceFolder, p)) },
    };
  } catch (error) {
    if (!target && error instanceof ToolError && error.code === 'no_target' && (error.details.candidates?.length ?? 0) === 0) {
      return { kind: 'none', reason: error.message };
    }
    throw error;
  }
}

/**
 * The SDK version `dotnet --version` would print in the target's folder, as the host's in-process
 * resolver answers it, or null when only the command can tell: no answer, a global.json applies, or
 * the host runs on another installation than `dotnetRoot` (the one the verifier would run).
 */
export async function sdkVersionFromHost(host: HostRequester, workspaceFolder: string, target: ResolvedTarget, dotnetRoot: string, signal?: AbortSignal): Promise<string | null> {
  try {
    const answer = await callHost(host, Methods.resolveSdk, { workspace: workspaceFolder, target: target.relative }, signal);
    if (!answer.version || !answer.dotnetRoot) return null;
    return sameFolder(answer.dotnetRoot, dotnetRoot) ? answer.version : null;
  } catch {
    return null; // an older or busy host, a recorded one: the command answers instead
  }
}

function sameFolder(a: string, b: string): boolean {
  try {
    const [left, right] = [fs.realpathSync(a), fs.realpathSync(b)];
    return process.platform === 'win32' ? left.toLowerCase() === right.toLowerCase() : left === right;
  } catch {
    return false;
  }
}

const sourceOf = (node: z.infer<typeof ProjectGraphNodeSchema>): TestProjectSource | null => {
  if (!node.isTestProject) return null;
  switch (node.isTestProjectSource) {
    case 'evaluated':
      return 'IsTestProject';
    case 'testingPlatformApplication':
      return 'IsTestingPlatformApplication';
    case 'testSdkReference':
      return 'Microsoft.NET.Test.Sdk';
    default:
      return null;
  }
};

/** One node of the host's graph as the verifier uses it (exported for the unit test of the mapping). */
export function toEvaluatedProject(workspaceFolder: string, node: z.infer<typeof ProjectGraphNodeSchema>): EvaluatedProject {
  const full = absolute(workspaceFolder, node.path);
  const targetPaths: Record<string, string> = {};
  const intermediateAssemblies: Record<string, string> = {};
  for (const output of node.outputs) {
    if (output.targetPath) targetPaths[output.targetFramework] = absolute(workspaceFolder, output.targetPath);
    if (output.intermediateAssembly) intermediateAssemblies[output.targetFramework] = absolute(workspaceFolder, output.intermediateAssembly);
  }
  const testProjectSource = sourceOf(node);
  return {
    path: full,
    name: path.basename(full, path.extname(full)),
    isTestProject: testProjectSource !== null,
    testProjectSource,
    testingPlatformApplication: node.isTestingPlatformApplication,
    testingPlatformDotnetTestSupport: node.testingPlatformDotnetTestSupport,
    targetFrameworks: node.targetFrameworks,
    multiTargeted: node.targetFrameworks.length > 1,
    outputType: node.outputType,
    assetsFile: node.assetsFile ? absolute(workspaceFolder, node.assetsFile) : null,
    targetPaths,
    intermediateAssemblies,
    ownedFiles: [...new Set([...node.compileItems, ...node.otherItems].map((file) => absolute(workspaceFolder, file)))].sort(),
    projectReferences: [...new Set(node.projectReferences.map((file) => absolute(workspaceFolder, file)))].sort(),
    packageReferences: [...node.packageReferences].sort(),
    imports: node.imports.map((file) => absolute(workspaceFolder, file)),
  };
}

export interface HostEvaluateOptions {
  workspaceFolder: string;
  target: ResolvedTarget;
  configuration: string;
  framework?: string;
  /** Bounds the evaluation. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The tool or command, for the host's log and any authorization request. */
  requestedBy: string;
  /** The verification's call id: the host names it when it asks to evaluate, and the call's approval answers. */
  call: string;
  /** The id of a collection a build filled ({@link offerBuildCollection}): the host reads it, or evaluates when it is incomplete. */
  buildCollection?: string;
}

/** What a build needs to collect its own evaluation for the host (the host's BuildCollection): its environment, and the id to ask with after it. */
export type BuildCollectionOffer = NonNullable<z.infer<typeof ProjectGraphResultSchema>['buildCollection']>;

export const isBuildCollectionOffer = (answer: ProjectGraph | BuildCollectionOffer): answer is BuildCollectionOffer => 'environment' in answer;

/**
 * The graph the host keeps for the target when one is still valid; else, instead of evaluating, a collection for the
 * whole-target build to fill (steps/buildStep.ts), read with {@link evaluateWithHost} and its id once the build ran.
 * Nothing runs and nothing is authorized here.
 */
export function offerBuildCollection(host: HostRequester, options: HostEvaluateOptions): Promise<ProjectGraph | BuildCollectionOffer> {
  return requestGraph(host, { ...options, buildCollection: 'offer' });
}

/**
 * Evaluates the target and every project it references, in the host. Call it only after the
 * person approved the verification: that approval granted this call one evaluation of exactly this
 * target and configuration (permissions/permissionGate.ts), which answers the host's authorizeEvaluation.
 */
export async function evaluateWithHost(host: HostRequester, options: HostEvaluateOptions): Promise<ProjectGraph> {
  const answer = await requestGraph(host, options);
  if (isBuildCollectionOffer(answer)) throw new Error('The host offered a build collection that was not asked for.');
  return answer;
}

async function requestGraph(host: HostRequester, options: HostEvaluateOptions): Promise<ProjectGraph | BuildCollectionOffer> {
  const { workspaceFolder, target } = options;
  const missing = target.projects.filter((project) => !fs.existsSync(project));
  if (missing.length > 0) throw missingProjects(missing, workspaceFolder);

  const started = performance.now();
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  try {
    const request = callHost(
      host,
      Methods.projectGraph,
      {
        workspace: workspaceFolder,
        target: target.relative,
        configuration: options.configuration,
        ...(options.framework ? { targetFramework: options.framework } : {}),
        tool: options.requestedBy,
        call: options.call,
        ...(options.buildCollection ? { buildCollection: options.buildCollection } : {}),
      },
      controller.signal,
    );
    request.catch(() => undefined); // a request abandoned at the timeout rejects later: not an unhandled rejection
    const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    let result: z.infer<typeof ProjectGraphResultSchema>;
    try {
      result = await Promise.race([request, aborted]);
    } catch (error) {
      if (timedOut) throw new EvaluationError(`Evaluating ${target.relative} did not finish within the timeout.`, 'timedOut');
      if (options.signal?.aborted) throw new EvaluationError(`Evaluating ${target.relative} was cancelled.`, 'cancelled');
      if (error instanceof ToolError && (error.code === 'load_failed' || error.code === 'partial_load')) {
        throw new EvaluationError(error.message, 'failed', (error.details.projects ?? []).map((p) => `${p.path}: ${p.reason}`).join('\n'));
      }
      throw error;
    }
    if (result.buildCollection) return result.buildCollection;
    if (result.partialLoad.length > 0) {
      const lines = result.partialLoad.map((issue) => `${issue.path}: ${issue.reason}`);
      throw new EvaluationError(`MSBuild could not evaluate ${result.partialLoad.length === 1 ? 'a project' : `${result.partialLoad.length} projects`} of ${target.relative}: ${lines.join('; ')}`, 'failed', lines.join('\n'));
    }
    const projects = new Map<string, EvaluatedProject>();
    for (const node of result.projects) {
      const project = toEvaluatedProject(workspaceFolder, node);
      projects.set(project.path, project);
    }
    return {
      projects,
      evaluated: result.fromCache ? 0 : projects.size,
      cached: result.fromCache ? projects.size : 0,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** Project files the solution lists that do not exist: named, instead of a failed evaluation. */
function missingProjects(projects: readonly string[], workspaceFolder: string): EvaluationError {
  const names = projects.map((project) => path.relative(workspaceFolder, project) || project);
  return new EvaluationError(
    `${names.length === 1 ? 'A listed project file does not exist' : `${names.length} listed project files do not exist`}: ${names.join(', ')}. Restore them or remove them from the solution.`,
    'failed',
  );
}
