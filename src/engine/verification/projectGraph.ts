// What verification needs to know about each project, from MSBuild evaluation. The interface lets
// the C# host's `sharpclaw/projectGraph` replace the `dotnet msbuild` implementation later.
// Evaluation runs project code: callers ask for permission before they evaluate.
import type { Step } from './report';

export interface EvaluatedProject {
  /** Absolute project file. */
  path: string;
  name: string;
  /** Whether `dotnet test` runs it, by classifyTestProject. */
  isTestProject: boolean;
  /** The evidence that made it a test project (null when it is not one). */
  testProjectSource: TestProjectSource | null;
  /** Evaluated IsTestingPlatformApplication=true: a Microsoft.Testing.Platform app (xunit.v3 MTP, MSTest.Sdk, TUnit). */
  testingPlatformApplication: boolean;
  /** Evaluated TestingPlatformDotnetTestSupport=true: an MTP app that VSTest-mode `dotnet test` hands its options (after `--`). */
  testingPlatformDotnetTestSupport: boolean;
  targetFrameworks: string[];
  multiTargeted: boolean;
  outputType: string;
  /** Evaluated ProjectAssetsFile (obj/project.assets.json), when the project uses NuGet. */
  assetsFile: string | null;
  /** The output assembly per target framework. */
  targetPaths: Record<string, string>;
  /** The compiler's output (obj/…/Name.dll) per target framework: it changes exactly when the compiler runs. */
  intermediateAssemblies?: Record<string, string>;
  /** Absolute files the project claims: Compile (globs and links), EmbeddedResource, AdditionalFiles, Content, None. */
  ownedFiles: string[];
  /** Absolute project files it references. */
  projectReferences: string[];
  packageReferences: string[];
  /** MSBuildAllProjects: imports that registered themselves. */
  imports: string[];
}

export type TestProjectSource = 'IsTestProject' | 'IsTestingPlatformApplication' | 'Microsoft.NET.Test.Sdk';

/**
 * The one rule for "is this a test project", in order: evaluated IsTestProject (an explicit false
 * wins), then IsTestingPlatformApplication (MTP apps need neither IsTestProject nor the test SDK),
 * then a Microsoft.NET.Test.Sdk reference (an unrestored project whose props did not run yet).
 * `isTestProject` and `testingPlatformApplication` are the evaluated values of any target framework.
 */
export function classifyTestProject(evaluated: { isTestProject: string; testingPlatformApplication: boolean; packageReferences: readonly string[] }): TestProjectSource | null {
  const explicit = evaluated.isTestProject.trim().toLowerCase();
  if (explicit === 'true') return 'IsTestProject';
  if (explicit === 'false') return null;
  if (evaluated.testingPlatformApplication) return 'IsTestingPlatformApplication';
  return evaluated.packageReferences.some((name) => name.toLowerCase() === 'microsoft.net.test.sdk') ? 'Microsoft.NET.Test.Sdk' : null;
}

export interface ProjectGraph {
  projects: Map<string, EvaluatedProject>;
  evaluated: number;
  cached: number;
  durationMs: number;
}

export interface EvaluateOptions {
  workspaceFolder: string;
  configuration: string;
  /** Bounds the whole evaluation and each process in it. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Each evaluation process, for the report. */
  onStep?: (step: Step) => void;
}

export class EvaluationError extends Error {
  constructor(
    message: string,
    readonly outcome: 'failed' | 'timedOut' | 'cancelled',
    readonly output: string = '',
  ) {
    super(message);
    this.name = 'EvaluationError';
  }
}

export interface ProjectGraphSource {
  /** Evaluates `roots` and every project they reference, transitively. */
  evaluate(roots: readonly string[], options: EvaluateOptions): Promise<ProjectGraph>;
}

/** Projects that reference `project`, directly or through others. */
export function reverseDependents(graph: ProjectGraph, project: string): Map<string, string> {
  const via = new Map<string, string>();
  const queue = [project];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const candidate of graph.projects.values()) {
      if (candidate.projectReferences.includes(current) && !via.has(candidate.path) && candidate.path !== project) {
        via.set(candidate.path, current);
        queue.push(candidate.path);
      }
    }
  }
  return via;
}
