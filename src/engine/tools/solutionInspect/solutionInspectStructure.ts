// What dotnet_solution_inspect sends beside its text (structuredContent, the CLI's JSON data): the
// facts its text gives, once — each project's frameworks and what differs from them, its direct
// packages less those every project has, the excluded analyzers grouped as the text groups them
// (names and packages, never their paths in the package cache) — and the same page of projects.
import { z } from 'zod';
import type { StructureView } from '../structuredResult';
import { excludedOnPage, frameworkFacts, ownPackages, sharedPackages, testProjectReasonOf, type InspectedSolution } from './renderSolutionInspect';

export const SolutionInspectStructureSchema = z.object({
  target: z.string(),
  configuration: z.string(),
  targetFramework: z.string().nullable(),
  loadStatus: z.enum(['complete', 'partial']),
  fromCache: z.boolean(),
  fromSnapshot: z.boolean(),
  /** Projects in the solution; `projects` holds the page from `offset`. */
  projectCount: z.number().int(),
  offset: z.number().int(),
  nextOffset: z.number().int().nullable(),
  packagesOfEveryProject: z.array(z.string()),
  projects: z.array(
    z.object({
      path: z.string(),
      outputType: z.string(),
      isTestProject: z.boolean(),
      /** What made it a test project: IsTestProject, IsTestingPlatformApplication or Microsoft.NET.Test.Sdk. */
      testProjectReason: z.string().nullable(),
      targetFrameworks: z.array(z.string()),
      notRestored: z.array(z.string()),
      notCompiled: z.array(z.string()),
      alsoCompiledFor: z.array(z.string()),
      projectReferences: z.array(z.string()),
      /** Direct packages as "Id version", less packagesOfEveryProject. */
      packages: z.array(z.string()),
    }),
  ),
  partialLoad: z.array(z.object({ path: z.string(), reason: z.string() })),
  dynamicImports: z.array(z.string()),
  /** One entry per distinct list: the projects and flavours that exclude it, and its analyzers as "Name (package)". */
  excludedAnalyzers: z.array(z.object({ projects: z.array(z.object({ project: z.string(), targetFrameworks: z.array(z.string()) })), analyzers: z.array(z.string()) })),
});

function excludedGroups(result: InspectedSolution): z.infer<typeof SolutionInspectStructureSchema>['excludedAnalyzers'] {
  const byList = new Map<string, { analyzers: string[]; projects: Map<string, string[]> }>();
  for (const entry of excludedOnPage(result)) {
    if (entry.analyzers.length === 0) continue;
    const analyzers = entry.analyzers.map((analyzer) => `${analyzer.name} (${analyzer.package ?? analyzer.origin})`);
    const key = analyzers.join('\n');
    const group = byList.get(key) ?? { analyzers, projects: new Map<string, string[]>() };
    byList.set(key, group);
    const frameworks = group.projects.get(entry.project) ?? [];
    group.projects.set(entry.project, frameworks);
    if (entry.targetFramework) frameworks.push(entry.targetFramework);
  }
  return [...byList.values()].map((group) => ({ projects: [...group.projects].map(([project, targetFrameworks]) => ({ project, targetFrameworks })), analyzers: group.analyzers }));
}

export const solutionInspectStructure: StructureView<InspectedSolution> = {
  schema: SolutionInspectStructureSchema,
  of: (result) => {
    const shared = sharedPackages(result.projects);
    return {
      target: result.target,
      configuration: result.configuration,
      targetFramework: result.targetFramework,
      loadStatus: result.loadStatus,
      fromCache: result.fromCache,
      fromSnapshot: result.fromSnapshot,
      projectCount: result.page?.total ?? result.projects.length,
      offset: result.page?.offset ?? 0,
      nextOffset: result.page?.nextOffset ?? null,
      packagesOfEveryProject: shared,
      projects: result.projects.map((project) => {
        const frameworks = frameworkFacts(project);
        return {
          path: project.path,
          outputType: project.outputType,
          isTestProject: project.isTestProject,
          testProjectReason: testProjectReasonOf(project),
          targetFrameworks: frameworks.declared,
          notRestored: frameworks.notRestored,
          notCompiled: frameworks.notCompiled,
          alsoCompiledFor: frameworks.alsoCompiledFor,
          projectReferences: project.projectReferences,
          packages: ownPackages(project, shared),
        };
      }),
      partialLoad: result.partialLoad,
      dynamicImports: result.dynamicImports,
      excludedAnalyzers: excludedGroups(result),
    };
  },
};
