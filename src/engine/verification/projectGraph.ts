// What verification needs to know about each project, from MSBuild evaluation. The interface lets
// the C# host's `sharpclaw/projectGraph` replace the `dotnet msbuild` implementation later.
// Evaluation runs project code: callers ask for permission before they evaluate.
import type { Step } from './report';

export interface EvaluatedProject {
  /** Absolute project file. */
  path: string;
  name: string;
  /** Evaluated IsTestProject=true (in any target framework); an explicit false wins over the test SDK. */
  isTestProject: boolean;
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
