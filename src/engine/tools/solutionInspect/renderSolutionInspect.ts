// Compact text of a solution inspection: one block per project, fixed order, few tokens, a page of
// projects at a time when the whole does not fit the answer budget.
import type { ExcludedAnalyzers, SolutionInspectResult } from '../../protocol/semantic';

/** The excluded-analyzer limitation, shared by every result it can affect. */
/**
 * The exclusion in one line, for every answer but dotnet_solution_inspect (which lists them all): how many
 * analyzers/generators were not run in how many projects, and the names in the projects that answered.
 */
export function excludedAnalyzersLine(excluded: readonly ExcludedAnalyzers[], relevantProjects: readonly string[] = []): string[] {
  const withAnalyzers = excluded.filter((entry) => entry.analyzers.length > 0);
  if (withAnalyzers.length === 0) return [];
  const total = new Set(withAnalyzers.flatMap((entry) => entry.analyzers.map((analyzer) => `${entry.project}\0${analyzer.name}`))).size;
  const projects = new Set(withAnalyzers.map((entry) => entry.project)).size;
  const names = [...new Set(withAnalyzers.filter((entry) => relevantProjects.includes(entry.project)).flatMap((entry) => entry.analyzers.map((analyzer) => analyzer.name)))].sort();
  const shown = names.length > 5 ? `${names.slice(0, 5).join(', ')}, +${names.length - 5} more` : names.join(', ');
  return [`excluded: ${total} project/package analyzer(s)/generator(s) in ${projects} project(s) not run${shown ? `; in the answering project: ${shown}` : ''} (full list: dotnet_solution_inspect)`];
}

/**
 * The full list, for dotnet_solution_inspect: one line per distinct list, naming every project and flavour
 * (target framework) that excludes exactly it (a 15-project solution whose test projects share one analyzer
 * set in three flavours each wrote that set 30 times).
 */
export function renderExcludedAnalyzers(excluded: readonly ExcludedAnalyzers[]): string[] {
  const withAnalyzers = excluded.filter((entry) => entry.analyzers.length > 0);
  if (withAnalyzers.length === 0) return [];
  const byList = new Map<string, Map<string, string[]>>();
  for (const entry of withAnalyzers) {
    const names = entry.analyzers.map((analyzer) => `${analyzer.name}${analyzer.package ? ` (${analyzer.package})` : ` (${analyzer.origin})`}`).join(', ');
    const projects = byList.get(names) ?? new Map<string, string[]>();
    byList.set(names, projects);
    const frameworks = projects.get(entry.project) ?? [];
    projects.set(entry.project, frameworks);
    if (entry.targetFramework) frameworks.push(entry.targetFramework);
  }
  const lines = ['excluded analyzers/generators (project- or package-supplied; results miss what they add or report):'];
  for (const [names, projects] of byList) {
    const where = [...projects].map(([project, frameworks]) => `${project}${frameworks.length ? ` [${frameworks.join(', ')}]` : ''}`);
    lines.push(`  ${where.join(', ')}: ${names}`);
  }
  return lines;
}

/** What made a project a test project, as the person would look it up. */
const testProjectReason: Partial<Record<SolutionInspectResult['projects'][number]['isTestProjectSource'], string>> = {
  evaluated: 'IsTestProject',
  testingPlatformApplication: 'IsTestingPlatformApplication',
  testSdkReference: 'Microsoft.NET.Test.Sdk',
};

/** A project's direct packages, each "Id version" once. */
function directPackages(project: SolutionInspectResult['projects'][number]): string[] {
  const direct = project.packages.filter((pkg) => pkg.requestedVersion !== null);
  return [...new Set(direct.map((pkg) => `${pkg.id} ${pkg.resolvedVersion ?? pkg.requestedVersion}`))];
}

/**
 * The frameworks line: the declared frameworks, then only what differs from them (not restored, not
 * compiled) — a 14-project solution wrote the same list three times per project, past the 8 KB answer budget.
 */
function frameworksLine(project: SolutionInspectResult['projects'][number]): string {
  const { declared, notRestored, notCompiled, alsoCompiledFor: extraCompiled } = frameworkFacts(project);
  const parts = [`frameworks: ${declared.join(', ') || 'none'}`];
  if (notRestored.length) parts.push(`not restored: ${notRestored.join(', ')}`);
  if (notCompiled.length) parts.push(`not compiled: ${notCompiled.join(', ')}`);
  if (extraCompiled.length) parts.push(`also compiled for: ${extraCompiled.join(', ')}`);
  return `  ${parts.join('; ')}`;
}

/** A solution inspection as the tool answers it: the host's result with one page of its projects. */
export type InspectedSolution = SolutionInspectResult & {
  /** Absent: every project is shown. */
  page?: { offset: number; total: number; nextOffset: number | null };
};

/** The test project's reason, as the text and the structure say it. */
export function testProjectReasonOf(project: SolutionInspectResult['projects'][number]): string | null {
  return project.isTestProject ? (testProjectReason[project.isTestProjectSource] ?? 'Microsoft.NET.Test.Sdk') : null;
}

/** The packages every project references (build tooling such as SourceLink), said once. */
export function sharedPackages(projects: SolutionInspectResult['projects']): string[] {
  const packageLists = projects.map(directPackages);
  return packageLists.length > 1 ? packageLists[0]!.filter((pkg) => packageLists.every((list) => list.includes(pkg))) : [];
}

/** A project's direct packages, less those every project has. */
export function ownPackages(project: SolutionInspectResult['projects'][number], shared: readonly string[]): string[] {
  return directPackages(project).filter((pkg) => !shared.includes(pkg));
}

/** The frameworks a project declares, and what differs from them. */
export function frameworkFacts(project: SolutionInspectResult['projects'][number]): { declared: string[]; notRestored: string[]; notCompiled: string[]; alsoCompiledFor: string[] } {
  const declared = project.targetFrameworks;
  const compiled = new Set(project.compilations.filter((compilation) => compilation.loaded).map((compilation) => compilation.targetFramework ?? 'unknown'));
  const restored = new Set(project.restoredTargetFrameworks);
  return {
    declared,
    notRestored: declared.filter((framework) => !restored.has(framework)),
    notCompiled: declared.filter((framework) => !compiled.has(framework)),
    alsoCompiledFor: [...compiled].filter((framework) => !declared.includes(framework)),
  };
}

/** The excluded analyzers of the projects on the page (the rest are on their own pages). */
export function excludedOnPage(result: InspectedSolution): ExcludedAnalyzers[] {
  if (!result.page) return result.excludedAnalyzers;
  const shown = new Set(result.projects.map((project) => project.name));
  const shownPaths = new Set(result.projects.map((project) => project.path));
  return result.excludedAnalyzers.filter((entry) => shown.has(entry.project) || shownPaths.has(entry.project));
}

export function renderSolutionInspect(result: InspectedSolution): string {
  // Every project the solution lists is counted; the ones not loaded are named with why, never silently dropped.
  const notLoaded = result.notLoaded ?? [];
  const listed = Math.max(result.listedProjects ?? 0, (result.page?.total ?? result.projects.length) + notLoaded.length);
  const count = notLoaded.length ? `${listed} projects (${listed - notLoaded.length} loaded, ${notLoaded.length} not)` : `${listed} projects`;
  const lines = [
    `target: ${result.target} (${result.configuration}${result.targetFramework ? `, ${result.targetFramework}` : ''}), ${count}, load ${result.loadStatus}${result.fromSnapshot ? ', from approved snapshot' : result.fromCache ? ', cached' : ''}`,
  ];
  for (const issue of notLoaded) lines.push(`not loaded: ${issue.path}: ${issue.reason}`);
  const shared = sharedPackages(result.projects);
  if (shared.length) lines.push(`packages of every project: ${shared.join(', ')}`);
  for (const project of result.projects) {
    const reason = testProjectReasonOf(project);
    lines.push(`${project.path}: ${project.outputType.toLowerCase()}${reason ? `, test project (${reason})` : ''}`);
    lines.push(frameworksLine(project));
    if (project.projectReferences.length) lines.push(`  references: ${project.projectReferences.join(', ')}`);
    const own = ownPackages(project, shared);
    if (own.length) lines.push(`  packages: ${own.join(', ')}`);
  }
  for (const issue of result.partialLoad) lines.push(`partial load: ${issue.path}: ${issue.reason}`);
  if (result.dynamicImports.length) lines.push(`dynamic imports (re-evaluated with approval on every call): ${result.dynamicImports.join(', ')}`);
  lines.push(...renderExcludedAnalyzers(excludedOnPage(result)));
  if (result.page && result.page.nextOffset !== null) {
    lines.push(`truncated: ${result.page.total} projects in total, projects ${result.page.offset + 1}-${result.page.offset + result.projects.length} shown, next offset: ${result.page.nextOffset}. Page on with offset.`);
  } else if (result.page && result.projects.length === 0) {
    lines.push(`offset ${result.page.offset} is past the last of ${result.page.total} projects`);
  }
  return lines.join('\n');
}
