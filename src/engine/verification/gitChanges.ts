// The working-tree and index changes of the workspace's Git repository (simple-git), for a
// standalone affected call without a change list.
import * as path from 'node:path';
import { simpleGit } from 'simple-git';
import type { Change } from './report';

export type GitChanges = { kind: 'changes'; changes: Change[]; root: string } | { kind: 'unavailable'; reason: string };

export async function gitChanges(workspaceFolder: string, signal?: AbortSignal): Promise<GitChanges> {
  const git = simpleGit({ baseDir: workspaceFolder, ...(signal ? { abort: signal } : {}), timeout: { block: 30_000 } });
  let root: string;
  try {
    if (!(await git.checkIsRepo())) return { kind: 'unavailable', reason: `${workspaceFolder} is not in a Git repository.` };
    root = (await git.revparse(['--show-toplevel'])).trim();
  } catch (error) {
    return { kind: 'unavailable', reason: `Git could not describe ${workspaceFolder}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const status = await git.status(['--untracked-files=all', '--no-renames']);
  const changes: Change[] = [];
  for (const file of status.files) {
    const codes = `${file.index}${file.working_dir}`;
    const absolute = path.resolve(root, file.path);
    let kind: Change['kind'];
    if (codes.includes('D')) kind = 'deleted';
    else if (codes.includes('?') || codes.includes('A')) kind = 'added';
    else if (codes.includes('M') || codes.includes('T')) kind = 'modified';
    else if (codes.includes('R') || codes.includes('C')) kind = 'renamed';
    else kind = 'unknown'; // unmerged (U) and anything newer
    changes.push({ path: absolute, kind });
  }
  return { kind: 'changes', changes, root };
}
