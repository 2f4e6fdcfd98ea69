// One workspace lock for semantic writes and verification (issue 13): the real Roslyn host and the
// real verifier, on a restored copy of fixtures/VerificationSlow (its build sleeps $(SlowSeconds)).
// An apply sent while a verification builds waits for it; a verification started while an apply
// holds the lock (its write authorization is pending) waits for the apply.
import { resolveVerifyRequest } from '../../src/engine/config/settings';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StdioHostTransport } from '../../src/engine/host/hostProcess';
import { HostSupervisor } from '../../src/engine/host/hostSupervisor';
import type { PermissionPolicy, PermissionRequest } from '../../src/engine/permissions/permissionPolicy';
import { callHost } from '../../src/engine/protocol/callHost';
import { Methods } from '../../src/engine/protocol/methods';
import { renderEdit } from '../../src/engine/tools/edits/renderEdits';
import { parseVerifyOptions } from '../../src/engine/verification/request';
import { verificationStateFolder } from '../../src/engine/verification/runDirectory';
import { verify } from '../../src/engine/verification/runner';
import { workspaceLockPath } from '../../src/engine/workspaceLock';
import { cleanUpCopies, copyFixture, repoRoot, tempStateRoot, waitFor } from './support';

const serverDll = path.join(repoRoot, 'dist', 'server', 'SharpClaw.Server.dll');

/** Grants everything; writes wait until `releaseWrites()` once `holdWrites` is set. */
class GatedPolicy implements PermissionPolicy {
  holdWrites = false;
  writeRequested = false;
  private release: (() => void) | undefined;
  private gate = new Promise<void>((resolve) => (this.release = resolve));

  async request(request: PermissionRequest) {
    if (request.kind === 'write' && this.holdWrites) {
      this.writeRequested = true;
      await this.gate;
    }
    return { granted: true, source: 'policy' as const };
  }

  releaseWrites(): void {
    this.release?.();
  }
}

describe('one workspace lock: the host\'s writes and the verifier (real host, real dotnet)', function () {
  this.timeout(400_000);
  let workspace: string;
  let stateRoot: string;
  let host: HostSupervisor;
  let policy: GatedPolicy;
  const savedEnv = { ...process.env };

  before(async () => {
    assert.ok(fs.existsSync(serverDll), `${serverDll} is missing: run "npm run build"`);
    workspace = copyFixture('VerificationSlow', 'Slow/Slow.csproj');
    stateRoot = tempStateRoot();
    // The host inherits this environment: its state folder is the test's, its design-time build is quick.
    process.env.SHARPCLAW_STATE_DIR = stateRoot;
    process.env.SlowSeconds = '0';
    policy = new GatedPolicy();
    host = new HostSupervisor({ transport: new StdioHostTransport({ serverDll }), callbacks: { workspaceFolder: workspace, permissions: policy, requestedBy: () => 'lock test' } });
    // Load the workspace now, so the requests below reach the lock at once.
    const preview = await callHost(host, Methods.edit, { workspace, target: 'Slow/Slow.csproj', action: 'rename', name: 'Snail.Pace', newName: 'Warmup' });
    assert.equal(preview.kind, 'preview');
  });

  after(async () => {
    await host?.stop();
    process.env = savedEnv;
    cleanUpCopies();
  });

  const runVerify = (slowSeconds: string, progress: (message: string) => void = () => undefined) => {
    process.env.SlowSeconds = slowSeconds; // read by the build verify starts
    return verify(resolveVerifyRequest(parseVerifyOptions({ scope: 'build', target: 'Slow/Slow.csproj', timeout: 300 })), {
      host,
      workspaceFolder: workspace,
      permissions: policy,
      requestedBy: 'lock test',
      stateRoot,
      progress,
    });
  };
  const lockFile = () => workspaceLockPath(verificationStateFolder(workspace, stateRoot));

  it('an apply sent while a verification builds waits for the verification to finish', async () => {
    const verification = runVerify('8');
    await waitFor('the verification to take the lock', () => fs.existsSync(lockFile()) && /purpose verify/.test(fs.readFileSync(lockFile(), 'utf8')), 120_000);
    const sent = Date.now();
    const apply = callHost(host, Methods.edit, { workspace, target: 'Slow/Slow.csproj', action: 'rename', name: 'Snail.Pace', newName: 'Speed', apply: true });
    const report = await verification;
    const verifyDone = Date.now();
    const applied = await apply;
    const appliedAt = Date.now();

    assert.equal(report.status, 'passed', report.summary);
    assert.equal(applied.kind, 'applied', renderEdit(applied));
    assert.ok(fs.statSync(path.join(workspace, 'Slow', 'Snail.cs')).mtimeMs >= verifyDone - 50, 'the apply wrote after the verification released the lock');
    assert.ok(appliedAt >= verifyDone, 'the apply finished after the verification');
    assert.ok(verifyDone - sent > 2000, `the verification still had its build to run when the apply was sent (${verifyDone - sent} ms)`);
    assert.match(fs.readFileSync(path.join(workspace, 'Slow', 'Snail.cs'), 'utf8'), /public static string Speed/);
  });

  it('a verification started while an apply holds the lock waits for the apply, naming it', async () => {
    policy.holdWrites = true;
    const apply = callHost(host, Methods.edit, { workspace, target: 'Slow/Slow.csproj', action: 'rename', name: 'Snail.Speed', newName: 'Pace', apply: true });
    await waitFor('the host to ask for the write', () => policy.writeRequested, 60_000);
    const messages: string[] = [];
    const verification = runVerify('0', (message) => messages.push(message));
    await waitFor('the verification to wait', () => messages.some((m) => /^Waiting for a semantic write \(process \d+\)/.test(m)), 60_000);
    // A fixed wait, since what is asserted is that nothing happens: for 2 s the verification does not take
    // the lock from the apply (its report's lockWaitMs below must cover them).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.equal(fs.existsSync(lockFile()) && /purpose write/.test(fs.readFileSync(lockFile(), 'utf8')), true, 'the host still holds the lock');
    policy.releaseWrites();
    const applied = await apply;
    const report = await verification;

    assert.equal(applied.kind, 'applied', renderEdit(applied));
    assert.equal(report.status, 'passed', report.summary);
    assert.ok(report.lockWaitMs >= 2000, `the verification waited ${report.lockWaitMs} ms`);
    const build = report.steps.find((step) => step.kind === 'build')!;
    assert.ok(Date.parse(build.startedAt) >= fs.statSync(path.join(workspace, 'Slow', 'Snail.cs')).mtimeMs - 50, 'the build started after the apply wrote');
  });
});
