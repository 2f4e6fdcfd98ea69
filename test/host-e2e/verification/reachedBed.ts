// The bed of the verify --tests reached suites: a fixture copied into a temporary Git repository (bin/ and obj/
// ignored, everything committed, so a planted fault is the change against HEAD), a private state folder, and
// verify run there through the engine with the person's approval given.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveVerifyRequest } from '../../../src/engine/config/settings';
import { VerificationReportSchema, type VerificationReport } from '../../../src/engine/verification/report';
import { parseVerifyOptions, type RawVerifyOptions } from '../../../src/engine/verification/request';
import { verify } from '../../../src/engine/verification/runner';
import { copyFixture, hostFor, RecordingPolicy, tempStateRoot } from '../support';

export interface ReachedBed {
  workspace: string;
  run(options: RawVerifyOptions): Promise<VerificationReport>;
}

/** Copies and restores `fixture` (its `solution`), commits it in a new Git repository, and verifies there. */
export function reachedBed(fixture: string, solution: string): ReachedBed {
  const workspace = copyFixture(fixture, solution);
  const state = tempStateRoot();
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=test@example.com', '-c', 'user.name=test', ...args], { cwd: workspace, encoding: 'utf8' });
  fs.writeFileSync(path.join(workspace, '.gitignore'), 'bin/\nobj/\n');
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'fixture');
  return {
    workspace,
    run: async (options) =>
      VerificationReportSchema.parse(
        await verify(resolveVerifyRequest(parseVerifyOptions(options)), { workspaceFolder: workspace, permissions: new RecordingPolicy(true), requestedBy: 'host-e2e', stateRoot: state, host: hostFor(workspace) }),
      ),
  };
}
