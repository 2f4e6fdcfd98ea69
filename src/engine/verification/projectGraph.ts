// What verification needs to know about each project, from MSBuild evaluation by the C# host
// (`sharpclaw/projectGraph`, hostGraph.ts), and the graph walks the verifier does on it.
// Evaluation runs project code: callers ask for permission before they evaluate.

export interface EvaluatedProject {
  /** Absolute project file. */
  path: string;
  name: string;
  /** Whether `dotnet test` runs it, by the host's one rule (ResultBuilder.ResolveIsTestProject). */
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

export interface ProjectGraph {
  projects: Map<string, EvaluatedProject>;
  evaluated: number;
  cached: number;
  durationMs: number;
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
