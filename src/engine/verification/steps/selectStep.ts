// Step 3 of a verification: which projects it builds and tests. Every scope but affected takes the
// whole target; affected takes the owners of the changed files (the request's list, else Git's)
// and everything that depends on them, and the whole target when a change cannot be placed.
// Nothing changed ends the run as skipped.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isBuildInput, selectAffected } from '../affected';
import { gitChanges, type GitChanges } from '../gitChanges';
import type { EvaluatedProject, ProjectGraph } from '../projectGraph';
import type { Change, SelectedProject } from '../report';
import { notRunTests } from './reportBuilder';
import { StepStop, type VerificationRun } from './verificationRun';

export interface SelectedProjects {
  /** The whole target (built as the target), or the affected projects (built through their roots). */
  wholeTarget: boolean;
  /** Absolute paths of the selected projects. */
  paths: string[];
  /** The selected projects. */
  projects: EvaluatedProject[];
  /** Every project the build compiles: the whole target, or the selection and what it references. */
  toBuild: EvaluatedProject[];
  /** The selected test projects that have the requested framework. */
  testProjects: EvaluatedProject[];
}

/** `changes`: Git's changes when the runner already asked for them beside the evaluation (affected without a change list). */
export async function select(run: VerificationRun, graph: ProjectGraph, changes?: Promise<GitChanges>): Promise<SelectedProjects | StepStop> {
  const paths = await selectPaths(run, graph, changes);
  if (paths === undefined) return new StepStop(run.report.finish('skipped', `Skipped: ${run.report.selection!.reason}`));
  const wholeTarget = run.report.selection!.wholeTarget;
  const projects = paths.map((p) => graph.projects.get(p)).filter((p): p is EvaluatedProject => p !== undefined);
  const framework = run.request.framework;
  const supportsFramework = (project: EvaluatedProject) => !framework || project.targetFrameworks.length === 0 || project.targetFrameworks.includes(framework);
  return {
    wholeTarget,
    paths,
    projects,
    toBuild: wholeTarget ? [...graph.projects.values()] : closure(graph, paths),
    testProjects: projects.filter((project) => project.isTestProject && supportsFramework(project)),
  };
}

/** The selected project paths, with report.selection filled in; undefined when nothing changed. */
async function selectPaths(run: VerificationRun, graph: ProjectGraph, pendingGit: Promise<GitChanges> | undefined): Promise<string[] | undefined> {
  const { report, request, target } = run;
  const all = [...graph.projects.keys()];
  const describe = (projectPath: string, reasons: string[]): SelectedProject => {
    const project = graph.projects.get(projectPath)!;
    return { path: report.relative(project.path), name: project.name, isTestProject: project.isTestProject, testProjectSource: project.testProjectSource, targetFrameworks: project.targetFrameworks, reasons };
  };
  const evaluation = { projects: graph.projects.size, evaluated: graph.evaluated, cached: graph.cached, durationMs: graph.durationMs };
  if (request.scope !== 'affected') {
    report.selection = {
      wholeTarget: true,
      reason: `Scope ${request.scope} covers the whole target.`,
      changeSource: null,
      changes: [],
      projects: all.map((p) => describe(p, [target.kind === 'solution' && target.projects.includes(p) ? `in ${path.basename(target.path)}` : target.projects.includes(p) ? 'the target' : 'referenced by the target'])),
      evaluation,
    };
    return all;
  }
  let changes: Change[];
  let changeSource: 'request' | 'git' | 'none';
  if (request.changedFiles) {
    changeSource = 'request';
    changes = request.changedFiles.map((file) => {
      const absolute = path.resolve(report.workspaceFolder, file);
      return { path: absolute, kind: fs.existsSync(absolute) ? 'modified' : 'deleted' } satisfies Change;
    });
  } else {
    const git = await (pendingGit ?? gitChanges(report.workspaceFolder, run.signal));
    if (git.kind === 'unavailable') {
      changeSource = 'none';
      changes = [];
      report.notes.push(`${git.reason} Without a change list or Git, affected selects the whole target.`);
      report.selection = {
        wholeTarget: true,
        reason: `No change list was given and Git is unavailable (${git.reason}); the whole target is selected.`,
        changeSource,
        changes,
        projects: all.map((p) => describe(p, ['whole target: changes unknown'])),
        evaluation,
      };
      return all;
    }
    changeSource = 'git';
    const workspace = report.workspaceFolder;
    changes = git.changes.filter((change) => {
      // Build outputs are not sources, except restore outputs, which are build inputs.
      if (/[\\/](bin|obj)[\\/]/.test(change.path) && !isBuildInput(change.path)) return false;
      const relative = path.relative(workspace, change.path);
      const inside = !relative.startsWith('..') && !path.isAbsolute(relative);
      // Outside the workspace only build inputs in its parent folders matter (Directory.Build.props above it).
      return inside || (isBuildInput(change.path) && workspace.startsWith(path.dirname(change.path)));
    });
  }
  const affected = selectAffected(graph, changes, report.workspaceFolder);
  const shownChanges = changes.map((change) => ({ ...change, path: report.relative(change.path) }));
  if (affected.wholeTarget) {
    report.selection = {
      wholeTarget: true,
      reason: affected.reason,
      changeSource,
      changes: shownChanges,
      projects: all.map((p) => describe(p, [`whole target: ${affected.reason}`])),
      evaluation,
    };
    return all;
  }
  report.selection = {
    wholeTarget: false,
    reason: affected.reason,
    changeSource,
    changes: shownChanges,
    projects: [...affected.projects].map(([p, reasons]) => describe(p, reasons)),
    evaluation,
  };
  if (affected.projects.size === 0) {
    report.tests = { ...notRunTests('No files changed, so nothing was tested.'), status: 'skipped' };
    return undefined;
  }
  return [...affected.projects.keys()];
}

/** The projects `roots` reference, directly or through others, and the roots themselves. */
function closure(graph: ProjectGraph, roots: readonly string[]): EvaluatedProject[] {
  const seen = new Set<string>();
  const visit = (project: string) => {
    if (seen.has(project)) return;
    seen.add(project);
    graph.projects.get(project)?.projectReferences.forEach(visit);
  };
  roots.forEach(visit);
  return [...seen].map((p) => graph.projects.get(p)).filter((p): p is EvaluatedProject => p !== undefined);
}
