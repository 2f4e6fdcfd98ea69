// Finds what to verify: an explicit --target (a solution, a project, or a folder holding exactly
// one), or the one solution/project of the workspace. Reads files only; no process starts here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ToolError } from '../errors';
import { projectExtensions, readSolutionProjects, solutionExtensions } from './solutionFile';

export interface ResolvedTarget {
  /** Absolute path of the solution or project. */
  path: string;
  kind: 'solution' | 'project';
  /** Absolute paths of the projects it names (a project target names itself). */
  projects: string[];
}

export type TargetResolution = { kind: 'found'; target: ResolvedTarget } | { kind: 'none'; reason: string };

const ignoredFolders = new Set(['bin', 'obj', 'node_modules', '.git', '.vs', '.vscode', 'TestResults', '.sharpclaw']);

function isInside(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function entriesOf(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

const isSolution = (file: string) => solutionExtensions.includes(path.extname(file).toLowerCase());
const isProject = (file: string) => projectExtensions.includes(path.extname(file).toLowerCase());

/** Solutions first, then projects, in the shallowest folder (up to `depth` levels down) that has any. */
function findCandidates(root: string, depth: number): string[] {
  let level = [root];
  for (let d = 0; d <= depth && level.length > 0; d++) {
    const solutions: string[] = [];
    const projects: string[] = [];
    const next: string[] = [];
    for (const dir of level) {
      for (const entry of entriesOf(dir)) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!ignoredFolders.has(entry.name) && !entry.name.startsWith('.')) next.push(full);
        } else if (isSolution(entry.name)) solutions.push(full);
        else if (isProject(entry.name)) projects.push(full);
      }
    }
    if (solutions.length > 0) return solutions.sort();
    if (projects.length > 0) return projects.sort();
    level = next.sort();
  }
  return [];
}

function describe(targetPath: string): ResolvedTarget {
  return isSolution(targetPath)
    ? { path: targetPath, kind: 'solution', projects: readSolutionProjects(targetPath) }
    : { path: targetPath, kind: 'project', projects: [targetPath] };
}

export function resolveTarget(workspaceFolder: string, target?: string): TargetResolution {
  const root = path.resolve(workspaceFolder);
  if (target) {
    const full = path.resolve(root, target);
    if (!isInside(root, full)) throw new ToolError('invalid_request', `The target ${target} is outside the workspace ${root}.`);
    if (!fs.existsSync(full)) throw new ToolError('no_target', `The target ${target} does not exist in ${root}.`);
    if (fs.statSync(full).isDirectory()) {
      const candidates = findCandidates(full, 0);
      if (candidates.length === 0) throw new ToolError('no_target', `${target} holds no solution or project file.`);
      if (candidates.length > 1) throw new ToolError('target_ambiguous', `${target} holds several solutions or projects; name one.`, { candidates: candidates.map((c) => path.relative(root, c)) });
      return { kind: 'found', target: describe(candidates[0]!) };
    }
    if (!isSolution(full) && !isProject(full)) throw new ToolError('invalid_request', `The target must be a .sln, .slnx, .csproj, .fsproj or .vbproj file, not ${target}.`);
    return { kind: 'found', target: describe(full) };
  }
  const candidates = findCandidates(root, 3);
  if (candidates.length === 0) return { kind: 'none', reason: `No .NET solution or project was found in ${root} (searched 3 folder levels down).` };
  if (candidates.length > 1) {
    throw new ToolError('target_ambiguous', `The workspace has several solutions or projects; pass a target.`, { candidates: candidates.map((c) => path.relative(root, c)) });
  }
  return { kind: 'found', target: describe(candidates[0]!) };
}
