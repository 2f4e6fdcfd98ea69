// The affected scope: which projects own the changed files (by their evaluated items: compile
// globs, linked files, resources) plus everyone that references them. Anything we cannot place
// — a deleted or missing file, a file no project claims, a build or configuration input —
// conservatively selects the whole target.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reverseDependents, type ProjectGraph } from './projectGraph';
import type { Change } from './report';

export interface AffectedSelection {
  wholeTarget: boolean;
  reason: string;
  /** Absolute project path → why it was selected. */
  projects: Map<string, string[]>;
}

/** Build and configuration inputs by file name: props, targets, project and solution files, global.json, NuGet.config, … */
export const buildInputPattern = /(\.(props|targets|csproj|fsproj|vbproj|proj|sln|slnx|slnf|rsp)$)|(^(global\.json|nuget\.config|packages\.lock\.json|directory\.packages\.props|\.editorconfig|\.globalconfig)$)/i;

/** Files that configure builds for many projects at once, whoever claims them. */
export function isBuildInput(file: string): boolean {
  const name = path.basename(file);
  if (buildInputPattern.test(name)) return true;
  if (/^directory\..+/i.test(name)) return true;
  if (/^project\.assets\.json$/i.test(name) || /\.nuget\.g\.(props|targets)$/i.test(name)) return true;
  if (/(^|[\\/])\.config[\\/]dotnet-tools\.json$/i.test(file)) return true;
  return false;
}

export function selectAffected(graph: ProjectGraph, changes: readonly Change[], workspaceFolder: string): AffectedSelection {
  const relative = (file: string) => path.relative(workspaceFolder, file) || file;
  const whole = (reason: string): AffectedSelection => ({ wholeTarget: true, reason, projects: new Map() });
  const owners = new Map<string, string[]>();
  for (const file of graph.projects.values()) {
    for (const owned of file.ownedFiles) {
      const list = owners.get(owned) ?? [];
      list.push(file.path);
      owners.set(owned, list);
    }
  }
  const selected = new Map<string, string[]>();
  const addReason = (project: string, reason: string) => {
    const reasons = selected.get(project) ?? [];
    if (!reasons.includes(reason)) reasons.push(reason);
    selected.set(project, reasons);
  };
  for (const change of changes) {
    const file = path.resolve(workspaceFolder, change.path);
    const shown = relative(file);
    if (change.kind === 'deleted') return whole(`${shown} was deleted; the projects that used it cannot be known from the current evaluation.`);
    if (change.kind === 'unknown') return whole(`The kind of change to ${shown} is unknown.`);
    if (isBuildInput(file)) return whole(`${shown} is a build or configuration input that can affect every project.`);
    if (!fs.existsSync(file)) return whole(`${shown} is missing on disk.`);
    const claimedBy = owners.get(file) ?? owners.get(safeRealpath(file)) ?? [];
    if (claimedBy.length === 0) return whole(`No project of the target claims ${shown}.`);
    for (const owner of claimedBy) addReason(owner, `owns ${shown}`);
  }
  if (selected.size === 0) return { wholeTarget: false, reason: 'No files changed.', projects: selected };
  for (const owner of [...selected.keys()]) {
    const ownerName = graph.projects.get(owner)?.name ?? path.basename(owner);
    for (const [dependent, via] of reverseDependents(graph, owner)) {
      const viaName = graph.projects.get(via)?.name ?? path.basename(via);
      addReason(dependent, via === owner ? `references ${ownerName}` : `depends on ${ownerName} through ${viaName}`);
    }
  }
  const ownerCount = [...selected.values()].filter((reasons) => reasons.some((r) => r.startsWith('owns '))).length;
  return {
    wholeTarget: false,
    reason: `${changes.length} changed file(s) owned by ${ownerCount} project(s); ${selected.size - ownerCount} dependent project(s) added.`,
    projects: selected,
  };
}

function safeRealpath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/** The projects to hand to `dotnet build`: selected ones that no other selected project references (transitively). */
export function buildRoots(graph: ProjectGraph, selected: readonly string[]): string[] {
  const referencedBySelected = new Set<string>();
  const visit = (project: string, seen: Set<string>) => {
    for (const reference of graph.projects.get(project)?.projectReferences ?? []) {
      if (seen.has(reference)) continue;
      seen.add(reference);
      referencedBySelected.add(reference);
      visit(reference, seen);
    }
  };
  for (const project of selected) visit(project, new Set());
  return selected.filter((project) => !referencedBySelected.has(project));
}
