// The one permission check (src/engine/permissions/permissionGate.ts, grants.ts): a one-shot grant answers
// only the call, target, configuration, framework and build inputs it names, once; a question's answer is
// spent when used; a build-and-test approval covers its own call's evaluation of its target, nothing else.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { grantBook, newCallId } from '../../src/engine/permissions/grants';
import { endCall, PermissionGate } from '../../src/engine/permissions/permissionGate';
import type { PermissionDecision, PermissionPolicy, PermissionRequest } from '../../src/engine/permissions/permissionPolicy';

/** A surface policy that grants nothing, asks later (like MCP 2026-07-28), and counts what reached it. */
class AskLaterPolicy implements PermissionPolicy {
  readonly reached: PermissionRequest[] = [];
  async request(request: PermissionRequest): Promise<PermissionDecision> {
    this.reached.push(request);
    return { granted: false, source: 'cli-flag', message: 'not granted', askLater: true };
  }
}

describe('the permission gate: one-shot grants bound to what was asked', () => {
  let workspace: string;
  beforeEach(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-gate-'));
    fs.writeFileSync(path.join(workspace, 'A.slnx'), '<Solution />');
    fs.writeFileSync(path.join(workspace, 'B.slnx'), '<Solution />');
    fs.writeFileSync(path.join(workspace, 'Directory.Build.props'), '<Project />');
  });
  afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

  const evaluation = (call: string, target: string, more: Partial<PermissionRequest> = {}): PermissionRequest => ({
    kind: 'evaluation',
    workspaceFolder: workspace,
    target,
    configuration: 'Debug',
    call,
    requestedBy: 'csharp_navigate',
    action: `evaluate ${target} with MSBuild (Debug)`,
    reason: 'cold load',
    ...more,
  });

  /** Asks (refused, question kept), then answers it for a retry call. */
  async function askAndAllow(gate: PermissionGate, first: PermissionRequest): Promise<{ retry: string; nonce: string }> {
    assert.equal((await gate.request(first)).granted, false);
    const question = grantBook.takeQuestion(first.call!);
    assert.ok(question, 'the refusal was kept as a question');
    const retry = newCallId('mcp');
    assert.deepEqual(grantBook.redeem(question.nonce, retry, true).ok, true);
    return { retry, nonce: question.nonce };
  }

  it('an answered question grants its retry exactly one evaluation of what was asked', async () => {
    const policy = new AskLaterPolicy();
    const gate = PermissionGate.of(policy);
    const { retry } = await askAndAllow(gate, evaluation(newCallId('mcp'), 'A.slnx'));
    assert.equal((await gate.request(evaluation(retry, 'A.slnx'))).source, 'grant');
    assert.equal((await gate.request(evaluation(retry, 'A.slnx'))).granted, false, 'used once');
    endCall(retry);
  });

  it('the grant answers no other call, target, configuration or framework', async () => {
    const gate = PermissionGate.of(new AskLaterPolicy());
    const { retry } = await askAndAllow(gate, evaluation(newCallId('mcp'), 'A.slnx'));
    assert.equal((await gate.request(evaluation(newCallId('mcp'), 'A.slnx'))).granted, false, 'another call');
    assert.equal((await gate.request(evaluation(retry, 'B.slnx'))).granted, false, 'another target');
    assert.equal((await gate.request(evaluation(retry, 'A.slnx', { configuration: 'Release' }))).granted, false, 'another configuration');
    assert.equal((await gate.request(evaluation(retry, 'A.slnx', { targetFramework: 'net10.0' }))).granted, false, 'another framework');
    assert.equal((await gate.request(evaluation(retry, 'A.slnx'))).granted, true, 'still there for what was asked');
    endCall(retry);
  });

  it('a build input edited between the question and the retry voids the answer', async () => {
    const gate = PermissionGate.of(new AskLaterPolicy());
    const { retry } = await askAndAllow(gate, evaluation(newCallId('mcp'), 'A.slnx'));
    fs.writeFileSync(path.join(workspace, 'Directory.Build.props'), '<Project><Target Name="Evil" /></Project>');
    assert.equal((await gate.request(evaluation(retry, 'A.slnx'))).granted, false);
    endCall(retry);
  });

  it('an answer is spent when used: a second redemption of the nonce (allow or deny) is refused', async () => {
    const gate = PermissionGate.of(new AskLaterPolicy());
    const { nonce } = await askAndAllow(gate, evaluation(newCallId('mcp'), 'A.slnx'));
    assert.deepEqual(grantBook.redeem(nonce, newCallId('mcp'), true), { ok: false, reason: 'spent' });
    assert.deepEqual(grantBook.redeem('0'.repeat(32), newCallId('mcp'), true), { ok: false, reason: 'unknown' });
  });

  it('a question expires', async () => {
    const gate = PermissionGate.of(new AskLaterPolicy());
    const first = evaluation(newCallId('mcp'), 'A.slnx');
    await gate.request(first);
    const question = grantBook.takeQuestion(first.call!)!;
    assert.deepEqual(grantBook.redeem(question.nonce, newCallId('mcp'), true, question.expiresAt + 1), { ok: false, reason: 'expired' });
  });

  it('an approved build and test covers its own call\'s evaluation of its target, not another call\'s', async () => {
    const granting: PermissionPolicy = { request: async (request) => ({ granted: request.kind === 'shell', source: 'policy' }) };
    const gate = PermissionGate.of(granting);
    const verify = newCallId('vscode');
    const shell: PermissionRequest = { kind: 'shell', workspaceFolder: workspace, target: 'A.slnx', configuration: 'Debug', call: verify, requestedBy: 'verify_workspace', action: 'build and test A.slnx', reason: 'verification' };
    assert.equal((await gate.request(shell)).granted, true);
    assert.equal((await gate.request(evaluation(newCallId('vscode'), 'A.slnx'))).granted, false, 'a concurrent navigate of A is not covered');
    assert.equal((await gate.request(evaluation(verify, 'B.slnx'))).granted, false, 'another target is not covered');
    assert.equal((await gate.request(evaluation(verify, 'A.slnx'))).source, 'grant');
    endCall(verify);
  });

  it('an approved build and test covers every evaluation of its target its call makes, any framework, until the call ends', async () => {
    // verify --tests reached evaluates the target twice: the project graph, then the load that finds the reached tests.
    const granting: PermissionPolicy = { request: async (request) => ({ granted: request.kind === 'shell', source: 'policy' }) };
    const gate = PermissionGate.of(granting);
    const verify = newCallId('cli');
    const shell: PermissionRequest = { kind: 'shell', workspaceFolder: workspace, target: 'A.slnx', configuration: 'Debug', call: verify, requestedBy: 'verify', action: 'build and test A.slnx', reason: 'verification' };
    assert.equal((await gate.request(shell)).granted, true);
    assert.equal((await gate.request(evaluation(verify, 'A.slnx'))).source, 'grant', 'the project graph');
    assert.equal((await gate.request(evaluation(verify, 'A.slnx'))).source, 'grant', 'the reached tests\' load');
    assert.equal((await gate.request(evaluation(verify, 'A.slnx', { targetFramework: 'net10.0' }))).source, 'grant', 'one framework of the target');
    assert.equal((await gate.request(evaluation(verify, 'A.slnx', { configuration: 'Release' }))).granted, false, 'another configuration is not covered');
    endCall(verify);
    assert.equal((await gate.request(evaluation(verify, 'A.slnx'))).granted, false, 'nothing once the call ended');
  });

  it('a call that ended holds nothing', async () => {
    const gate = PermissionGate.of(new AskLaterPolicy());
    const { retry } = await askAndAllow(gate, evaluation(newCallId('mcp'), 'A.slnx'));
    endCall(retry);
    assert.equal((await gate.request(evaluation(retry, 'A.slnx'))).granted, false);
  });

  it('wraps a policy once', () => {
    const gate = PermissionGate.of(new AskLaterPolicy());
    assert.equal(PermissionGate.of(gate), gate);
  });
});

describe('the permission gate: whether the person is being asked', () => {
  it('is asking while a request is with the surface policy, and not once it answered or failed', async () => {
    let answer: (decision: PermissionDecision) => void = () => undefined;
    let fail: (error: Error) => void = () => undefined;
    const policy: PermissionPolicy = {
      request: () =>
        new Promise<PermissionDecision>((resolve, reject) => {
          answer = resolve;
          fail = reject;
        }),
    };
    const gate = PermissionGate.of(policy);
    const request: PermissionRequest = { kind: 'shell', workspaceFolder: os.tmpdir(), requestedBy: 'verify_workspace', action: 'build and test', reason: 'verify' };
    assert.equal(gate.asking, false);
    const granted = gate.request(request);
    assert.equal(gate.asking, true, 'the policy has not answered');
    answer({ granted: true, source: 'dialog' });
    assert.equal((await granted).granted, true);
    assert.equal(gate.asking, false);
    const failed = gate.request(request);
    assert.equal(gate.asking, true);
    fail(new Error('the dialog went away'));
    await assert.rejects(failed, /went away/);
    assert.equal(gate.asking, false, 'a policy that throws is no longer asking');
  });
});
