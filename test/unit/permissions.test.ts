// Who may grant what: only the person running SharpClaw, through the policy of the surface.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliPermissionPolicy } from '../../src/surfaces/cli/cliPermissionPolicy';
import type { PermissionPolicy, PermissionRequest } from '../../src/engine/permissions/permissionPolicy';
import { registerHostCallbacks, type CallbackConnection } from '../../src/engine/host/hostCallbacks';

const request = (kind: PermissionRequest['kind']): PermissionRequest => ({
  kind,
  workspaceFolder: '/ws',
  target: 'App.slnx',
  requestedBy: 'dotnet_solution_inspect',
  action: 'evaluate App.slnx with MSBuild',
  reason: 'cold load',
});

describe('the CLI permission policy', () => {
  it('read-only denies everything that executes project code or writes, and says how to allow it', async () => {
    const policy = new CliPermissionPolicy({ mode: 'read-only', allowEvaluation: true, allowShell: true, allowWrite: true });
    for (const kind of ['evaluation', 'shell', 'write'] as const) {
      const decision = await policy.request(request(kind));
      assert.equal(decision.granted, false, kind);
      assert.match(decision.message!, /--permission-mode workspace-write --allow-/);
    }
  });

  it('workspace-write grants only what its --allow-* flags name', async () => {
    const policy = new CliPermissionPolicy({ mode: 'workspace-write', allowEvaluation: true, allowShell: false, allowWrite: false });
    assert.equal((await policy.request(request('evaluation'))).granted, true);
    const shell = await policy.request(request('shell'));
    assert.equal(shell.granted, false);
    assert.match(shell.message!, /not interactive\. Pass --allow-shell/);
  });

  it('asks the person at the terminal when there is one', async () => {
    const questions: string[] = [];
    const policy = new CliPermissionPolicy({ mode: 'workspace-write', allowEvaluation: false, allowShell: false, allowWrite: false, prompt: async (q) => (questions.push(q), q.includes('App.slnx')) });
    assert.equal((await policy.request(request('evaluation'))).granted, true);
    assert.match(questions[0]!, /Why: cold load/);
    assert.equal(policy.decisions.length, 1);
  });
});

describe('answering the host\'s evaluation authorization requests', () => {
  function harness(policy: PermissionPolicy, workspaceFolder: string) {
    const handlers = new Map<string, (params: unknown) => unknown>();
    const connection: CallbackConnection = {
      onRequest: (method, handler) => handlers.set(method, handler),
      onNotification: (method, handler) => handlers.set(method, handler),
    };
    const progress: unknown[] = [];
    registerHostCallbacks(connection, { workspaceFolder, permissions: policy, requestedBy: () => 'test', onProgress: (p) => progress.push(p) });
    return { authorize: (params: unknown) => handlers.get('sharpclaw/authorizeEvaluation')!(params) as Promise<{ granted: boolean; message: string | null }>, notify: handlers.get('sharpclaw/loadProgress')!, progress };
  }

  const valid = (workspace: string) => ({ workspace, target: 'App.slnx', configuration: 'Debug', targetFramework: null, reason: 'coldLoad', changedFiles: [], tool: 'dotnet_solution_inspect', call: null });

  it('asks the policy, naming the target, the tool and why', async () => {
    const asked: PermissionRequest[] = [];
    const { authorize } = harness({ request: async (r) => (asked.push(r), { granted: true, source: 'policy' }) }, '/ws');
    assert.deepEqual(await authorize(valid('/ws')), { granted: true, message: null });
    assert.equal(asked[0]!.kind, 'evaluation');
    assert.equal(asked[0]!.requestedBy, 'dotnet_solution_inspect');
    assert.match(asked[0]!.reason, /cold load/);
  });

  it('passes a denial and its message back to the host', async () => {
    const { authorize } = harness({ request: async () => ({ granted: false, source: 'dialog', message: 'You denied it.' }) }, '/ws');
    assert.deepEqual(await authorize(valid('/ws')), { granted: false, message: 'You denied it.' });
  });

  it('never grants evaluation outside the open workspace, whatever the policy says', async () => {
    const { authorize } = harness({ request: async () => ({ granted: true, source: 'policy' }) }, '/ws');
    const answer = await authorize(valid('/elsewhere'));
    assert.equal(answer.granted, false);
    assert.match(answer.message!, /only evaluates projects inside the open workspace/);
  });

  it('denies malformed requests instead of guessing', async () => {
    const { authorize } = harness({ request: async () => ({ granted: true, source: 'policy' }) }, '/ws');
    assert.equal((await authorize({ workspace: '/ws', granted: true })).granted, false);
  });

  it('forwards only well-formed progress', () => {
    const { notify, progress } = harness({ request: async () => ({ granted: false, source: 'policy' }) }, '/ws');
    notify({ kind: 'load', target: 'App.slnx', configuration: 'Debug', targetFramework: null, projectIndex: 1, projectCount: 2, currentProject: 'A', percent: 50 });
    notify({ nonsense: true });
    assert.equal(progress.length, 1);
  });
});

describe('nothing in the workspace can grant a permission', () => {
  it('the policies read no settings file: a workspace .sharpclaw/settings.jsonc that claims approval changes nothing', async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-perm-'));
    fs.mkdirSync(path.join(workspace, '.sharpclaw'));
    fs.writeFileSync(path.join(workspace, '.sharpclaw', 'settings.jsonc'), '{ "permissions": { "allowEvaluation": true, "allowShell": true }, "allow-evaluation": true }');
    const previous = process.cwd();
    process.chdir(workspace);
    try {
      const policy = new CliPermissionPolicy({ mode: 'workspace-write', allowEvaluation: false, allowShell: false, allowWrite: false });
      assert.equal((await policy.request({ ...request('evaluation'), workspaceFolder: workspace })).granted, false);
      assert.equal((await policy.request({ ...request('shell'), workspaceFolder: workspace })).granted, false);
    } finally {
      process.chdir(previous);
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});
