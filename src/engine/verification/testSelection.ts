// verify --tests reached: which tests of the selected test projects run. The changed files (the
// request's list, else Git's) are compared with HEAD's text by the host (sharpclaw/reachedTests:
// ChangedMembers, then one walk to the tests that reach those members); anything that cannot be
// reduced to changed member bodies runs every test, and says why. Also the one sentence every
// surface shows for the selection (testSelectionLine).
import * as path from 'node:path';
import { simpleGit } from 'simple-git';
import { callHost } from '../protocol/callHost';
import { Methods } from '../protocol/methods';
import type { HostRequester } from '../host/hostRequester';
import { gitChanges } from './gitChanges';
import type { ReachedTest } from './testFilter';

export type TestSelectionOutcome =
  | { kind: 'all'; reason: string }
  | { kind: 'reached'; tests: ReachedTest[]; changedMembers: number; projectTests: ReadonlyMap<string, number> };

export interface TestSelectionInput {
  workspaceFolder: string;
  host: HostRequester;
  /** Workspace-relative changed files; absent: Git's working tree and index changes. */
  changedFiles?: readonly string[] | undefined;
  /** What the host request carries for authorization and the target. */
  hostParams: { target: string; configuration: string; targetFramework?: string; tool: string; call: string };
  signal?: AbortSignal | undefined;
}

/** The reached tests of the change, or why every test runs instead. */
export async function selectReachedTests(input: TestSelectionInput): Promise<TestSelectionOutcome> {
  const git = simpleGit({ baseDir: input.workspaceFolder, ...(input.signal ? { abort: input.signal } : {}), timeout: { block: 30_000 } });
  let root: string;
  let changed: string[];
  if (input.changedFiles) {
    try {
      if (!(await git.checkIsRepo())) return { kind: 'all', reason: 'the workspace is not in a Git repository, so there is no HEAD to compare with' };
      root = (await git.revparse(['--show-toplevel'])).trim();
    } catch (error) {
      return { kind: 'all', reason: `Git could not describe the workspace (${error instanceof Error ? error.message : String(error)})` };
    }
    changed = input.changedFiles.map((file) => path.resolve(input.workspaceFolder, file));
  } else {
    const status = await gitChanges(input.workspaceFolder, input.signal);
    if (status.kind === 'unavailable') return { kind: 'all', reason: `no Git: ${status.reason}` };
    root = status.root;
    changed = status.changes.map((change) => change.path);
  }
  const relative = (file: string) => path.relative(input.workspaceFolder, file).split(path.sep).join('/');
  if (changed.length === 0) return { kind: 'all', reason: 'no changed file was found' };
  const notCSharp = changed.find((file) => !file.toLowerCase().endsWith('.cs'));
  if (notCSharp) return { kind: 'all', reason: `${relative(notCSharp)} is not a C# file` };
  const outside = changed.find((file) => relative(file).startsWith('../') || path.isAbsolute(relative(file)));
  if (outside) return { kind: 'all', reason: `${outside} is outside the workspace` };

  const changes: Array<{ path: string; before: string | null }> = [];
  for (const file of changed) {
    const inRepository = path.relative(root, file).split(path.sep).join('/');
    let before: string | null;
    try {
      before = await git.show([`HEAD:${inRepository}`]);
    } catch {
      before = null; // Not in HEAD: a new file (the host reports it as a reason to run everything).
    }
    changes.push({ path: relative(file), before });
  }
  const result = await callHost(input.host, Methods.reachedTests, { workspace: input.workspaceFolder, ...input.hostParams, changes }, input.signal);
  if (result.fallbacks.length > 0) return { kind: 'all', reason: result.fallbacks.slice(0, 3).join('; ') + (result.fallbacks.length > 3 ? ` (and ${result.fallbacks.length - 3} more)` : '') };
  if (result.failures.length > 0) return { kind: 'all', reason: `a changed member did not resolve (${result.failures[0]!.message})` };
  if (result.limitReached) return { kind: 'all', reason: 'the walk from the changed members reached its limit' };
  if (result.unfollowable) return { kind: 'all', reason: `the walk met code it cannot follow (${result.unfollowable.kinds.join(', ')} at ${result.unfollowable.total} place${result.unfollowable.total === 1 ? '' : 's'})` };
  if (result.generatorGaps?.length) return { kind: 'all', reason: `code of an excluded source generator could call a changed member (${result.generatorGaps.map((gap) => gap.generator).join(', ')})` };
  if (result.changedMembers === 0) return { kind: 'all', reason: 'the changed C# files changed no member (comments or whitespace only, as far as the compiler sees)' };
  return { kind: 'reached', tests: result.tests, changedMembers: result.changedMembers, projectTests: new Map(result.projectTests.map((p) => [p.project, p.tests])) };
}

/** The facts of one run's selection, as the test step gathered them. */
export type TestSelectionFacts =
  | { kind: 'all'; reason: string }
  | {
      kind: 'reached';
      /** Tests run: the reached ones filtered on, and every test of a project run whole. */
      run: number;
      /** Tests of the selected test projects (run or skipped), counted the same way. */
      total: number;
      changedMembers: number;
      skippedProjects: number;
      wholeProjects: Array<{ project: string; reason: string }>;
      /** Projects run by the reached tests' classes (a superset), with why. */
      classProjects: Array<{ project: string; reason: string }>;
    };

/** The one line every surface shows for which tests ran (renderReport, the sidebar, the chat turn). */
export function testSelectionLine(facts: TestSelectionFacts): string {
  if (facts.kind === 'all') return `all run — ${facts.reason}`;
  const members = `${facts.changedMembers} changed member${facts.changedMembers === 1 ? '' : 's'}`;
  const others = facts.total - facts.run;
  const parts = [
    `${facts.classProjects.length > 0 ? 'at least ' : ''}${facts.run} of ${facts.total} test${facts.total === 1 ? '' : 's'} run (reached from ${members}${others > 0 ? `; the other ${others} do${others === 1 ? 'es' : ''} not reach them` : ''})`,
  ];
  if (facts.skippedProjects > 0) parts.push(`${facts.skippedProjects} project${facts.skippedProjects === 1 ? '' : 's'} skipped: no reached test`);
  for (const whole of facts.wholeProjects) parts.push(`${whole.project} run whole: ${whole.reason}`);
  for (const classes of facts.classProjects) parts.push(`${classes.project}: ${classes.reason}`);
  return parts.join('; ');
}
