// The host supervisor's state machine over a fake transport (no dotnet): lazy start, crash
// budget, restart on the next request only, stop, cancellation of one request or all, state and
// load-progress events, and the host_exited error pending requests get when the host dies —
// with the files a client-applied write had already written. (The same against the real host:
// test/host-e2e/hostExited.test.ts.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { CrashBudget } from '../../src/engine/host/crashBudget';
import type { HostCallbackOptions } from '../../src/engine/host/hostCallbacks';
import { HostSupervisor, type HostSupervisorLog } from '../../src/engine/host/hostSupervisor';
import type { HostState } from '../../src/engine/host/hostState';
import { HostStartError, type HostConnection, type HostExit, type HostTransport } from '../../src/engine/host/hostTransport';
import type { PermissionPolicy } from '../../src/engine/permissions/permissionPolicy';
import { HostMethods } from '../../src/engine/protocol/methods';
import { asToolError, ToolError } from '../../src/engine/errors';
import { startedHostStatus } from '../support/hostStatus';

interface SentRequest {
  method: string;
  params: unknown;
  signal: AbortSignal;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

class FakeConnection implements HostConnection {
  readonly sent: SentRequest[] = [];
  private listeners: Array<(exit: HostExit) => void> = [];
  stopped = false;
  constructor(
    readonly pid: number,
    readonly callbacks: HostCallbackOptions,
  ) {}
  get logFile(): string {
    return `/logs/sharpclaw-host-${this.pid}.log`;
  }
  sendRequest(method: string, params: unknown, signal: AbortSignal): Promise<unknown> {
    if (method === HostMethods.status) return Promise.resolve(startedHostStatus(this.pid, { hostVersion: '1.0.0', roslynVersion: '5.0.0', frameworkDescription: '.NET 10.0.0', runtimeIdentifier: 'linux-x64' }));
    return new Promise((resolve, reject) => {
      this.sent.push({ method, params, signal, resolve, reject });
      signal.addEventListener('abort', () => reject(Object.assign(new Error('cancelled'), { code: -32800 })));
    });
  }
  onExit(listener: (exit: HostExit) => void): void {
    this.listeners.push(listener);
  }
  die(exit: HostExit): void {
    for (const listener of this.listeners.splice(0)) listener(exit);
  }
  async stop(): Promise<void> {
    this.stopped = true;
    this.die({ code: 0, signal: null });
  }
}

class FakeTransport implements HostTransport {
  readonly connections: FakeConnection[] = [];
  failNext: Error | undefined;
  async start(callbacks: HostCallbackOptions): Promise<HostConnection> {
    if (this.failNext) throw this.failNext;
    const connection = new FakeConnection(1000 + this.connections.length, callbacks);
    this.connections.push(connection);
    return connection;
  }
  get last(): FakeConnection {
    return this.connections.at(-1)!;
  }
}

const grantAll: PermissionPolicy = { request: async () => ({ granted: true, source: 'policy' }) };
const Answer = z.object({ answer: z.number() });
const flush = () => new Promise((resolve) => setImmediate(resolve));

function supervisor(options: { transport?: FakeTransport; budget?: CrashBudget; applyWrite?: HostCallbackOptions['applyWrite']; workspace?: string } = {}) {
  const transport = options.transport ?? new FakeTransport();
  const lines: string[] = [];
  const log: HostSupervisorLog = { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
  const host = new HostSupervisor({
    transport,
    callbacks: { workspaceFolder: options.workspace ?? '/nowhere', permissions: grantAll, requestedBy: () => 'test', ...(options.applyWrite ? { applyWrite: options.applyWrite } : {}) },
    log,
    crashBudget: options.budget ?? new CrashBudget(3, 60_000),
    restartHint: 'Run "Restart Host" to try again.',
    filesWrittenSince: () => [],
  });
  const states: HostState['kind'][] = [];
  host.onDidChangeState((state) => states.push(state.kind));
  return { host, transport, lines, states };
}

/** Starts a request and waits until the fake host has it. */
async function pending(host: HostSupervisor, transport: FakeTransport, signal?: AbortSignal) {
  const before = transport.connections.reduce((n, c) => n + c.sent.length, 0);
  const answer = host.request('test/method', { x: 1 }, Answer, signal);
  answer.catch(() => undefined);
  for (let i = 0; i < 50 && transport.connections.reduce((n, c) => n + c.sent.length, 0) === before; i++) await flush();
  return { answer, sent: transport.last.sent.at(-1)! };
}

describe('the host supervisor (fake transport)', () => {
  it('starts nothing until the first request, then reports starting and ready', async () => {
    const { host, transport, states } = supervisor();
    assert.equal(host.state.kind, 'stopped');
    assert.equal(transport.connections.length, 0);
    const { answer, sent } = await pending(host, transport);
    sent.resolve({ answer: 42 });
    assert.deepEqual(await answer, { answer: 42 });
    assert.equal(transport.connections.length, 1);
    assert.deepEqual(states, ['starting', 'ready']);
    assert.deepEqual(host.state, { kind: 'ready', pid: 1000, roslynVersion: '5.0.0' });
  });

  it('starts one host for concurrent first requests', async () => {
    const { host, transport } = supervisor();
    const a = host.status();
    const b = host.status();
    await Promise.all([a, b]);
    assert.equal(transport.connections.length, 1);
  });

  it('rejects an answer of the wrong shape with the method named', async () => {
    const { host, transport } = supervisor();
    const { answer, sent } = await pending(host, transport);
    sent.resolve({ answer: 'forty-two' });
    await assert.rejects(answer, /answered test\/method with an unexpected shape/);
  });

  it('rejects every pending request with host_exited naming the signal and the log, and restarts only on the next request', async () => {
    const { host, transport, lines, states } = supervisor();
    const first = await pending(host, transport);
    const second = await pending(host, transport);
    transport.last.die({ code: null, signal: 'SIGKILL', output: 'boom\n' });
    for (const request of [first, second]) {
      const error = await request.answer.then(() => assert.fail('resolved'), (e: unknown) => e);
      assert.ok(error instanceof ToolError);
      assert.equal(error.code, 'host_exited');
      assert.match(error.message, /^The SharpClaw host was killed by SIGKILL while a request was pending; its log: \/logs\/sharpclaw-host-1000\.log\./);
      assert.match(error.message, /Last host output:\nboom$/);
    }
    assert.equal(host.state.kind, 'crashed');
    assert.ok(lines.includes('error The SharpClaw host (pid 1000) was killed by SIGKILL unexpectedly. The next request starts a new host.'), lines.join('\n'));
    await flush();
    assert.equal(transport.connections.length, 1, 'no restart in the background');
    const next = await pending(host, transport);
    assert.equal(transport.connections.length, 2);
    next.sent.resolve({ answer: 1 });
    assert.deepEqual(await next.answer, { answer: 1 });
    assert.deepEqual(states, ['starting', 'ready', 'crashed', 'starting', 'ready']);
  });

  it('names an exit code, and leaves requests that already settled alone', async () => {
    const { host, transport } = supervisor();
    const done = await pending(host, transport);
    done.sent.resolve({ answer: 7 });
    assert.deepEqual(await done.answer, { answer: 7 });
    const open = await pending(host, transport);
    transport.last.die({ code: 134, signal: null });
    await assert.rejects(open.answer, (error: ToolError) => error.code === 'host_exited' && /exited with code 134 while a request was pending/.test(error.message));
  });

  it('stops restarting after the crash budget, until restart(), which forgets the crashes', async () => {
    const { host, transport, states } = supervisor({ budget: new CrashBudget(2, 60_000) });
    for (let crash = 0; crash < 2; crash++) {
      await host.status();
      transport.last.die({ code: null, signal: 'SIGSEGV' });
    }
    assert.equal(host.state.kind, 'failed');
    assert.equal(host.state.kind === 'failed' && host.state.cause, 'crashes');
    assert.match(host.state.kind === 'failed' ? host.state.message : '', /crashed 2 times within 1 minutes, so SharpClaw stopped restarting it/);
    await assert.rejects(host.status(), (error: Error) => error.name === 'HostUnavailableError' && /Run "Restart Host" to try again\.$/.test(error.message));
    assert.equal(transport.connections.length, 2, 'a failed host is not started again by a request');
    await host.restart();
    assert.equal(transport.connections.length, 3);
    assert.equal(host.state.kind, 'ready');
    assert.deepEqual(states.slice(-3), ['stopped', 'starting', 'ready']);
  });

  it('fails at once, without counting a crash, when the host cannot start (no .NET)', async () => {
    const transport = new FakeTransport();
    transport.failNext = new HostStartError('No .NET SDK was found.', true);
    const { host, states } = supervisor({ transport });
    await assert.rejects(host.status(), /No \.NET SDK was found\./);
    assert.deepEqual(host.state, { kind: 'failed', message: 'No .NET SDK was found.', cause: 'start' });
    assert.deepEqual(states, ['starting', 'failed']);
    transport.failNext = undefined;
    await host.restart();
    assert.equal(host.state.kind, 'ready');
  });

  it('counts a start that failed for a passing reason as a crash', async () => {
    const transport = new FakeTransport();
    transport.failNext = new Error('initialize timed out');
    const { host } = supervisor({ transport });
    await assert.rejects(host.status(), (error: Error) => error.name === 'HostUnavailableError' && /failed to start: initialize timed out/.test(error.message));
    assert.equal(host.state.kind, 'crashed');
  });

  it('stops on request: logs the exit as intended, fails what was pending, and starts anew on the next request', async () => {
    const { host, transport, lines } = supervisor();
    const open = await pending(host, transport);
    await host.stop();
    assert.equal(transport.last.stopped, true);
    assert.equal(host.state.kind, 'stopped');
    assert.ok(lines.includes('info SharpClaw host (pid 1000) exited with code 0 after a stop request.'), lines.join('\n'));
    await assert.rejects(open.answer, (error: ToolError) => error.code === 'host_unavailable');
    await host.status();
    assert.equal(transport.connections.length, 2);
  });

  it('cancels one request through its signal, or all in flight', async () => {
    const { host, transport } = supervisor();
    const controller = new AbortController();
    const one = await pending(host, transport, controller.signal);
    const other = await pending(host, transport);
    controller.abort();
    await assert.rejects(one.answer, (error: unknown) => asToolError(error).code === 'cancelled');
    assert.equal(other.sent.signal.aborted, false);
    const third = await pending(host, transport);
    host.cancelAll();
    await assert.rejects(other.answer, (error: unknown) => asToolError(error).code === 'cancelled');
    await assert.rejects(third.answer, (error: unknown) => asToolError(error).code === 'cancelled');
  });

  it('passes load progress on as events', async () => {
    const { host, transport } = supervisor();
    const seen: number[] = [];
    host.onLoadProgress((progress) => seen.push(progress.projectIndex));
    await host.status();
    const progress = { kind: 'load' as const, target: 'A.sln', configuration: 'Debug', targetFramework: null, projectCount: 2, currentProject: 'A', percent: null };
    transport.last.callbacks.onProgress({ ...progress, projectIndex: 1 });
    transport.last.callbacks.onProgress({ ...progress, projectIndex: 2 });
    assert.deepEqual(seen, [1, 2]);
  });

  it('lists the files a client-applied write had written when the host dies before answering', async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-supervisor-'));
    try {
      fs.writeFileSync(path.join(workspace, 'A.cs'), 'class Sum {}');
      fs.writeFileSync(path.join(workspace, 'B.cs'), 'class Other {}'); // changed since the plan: not written
      fs.writeFileSync(path.join(workspace, 'New.cs'), 'class Sum {}');
      const { host, transport } = supervisor({ workspace, applyWrite: async () => true });
      const apply = await pending(host, transport);
      const granted = await transport.last.callbacks.applyWrite!({
        workspace,
        operation: 'rename',
        summary: 'rename Add to Sum',
        files: [],
        tool: 'csharp_rename_symbol',
        call: null,
        changes: [
          { path: 'A.cs', newPath: null, before: 'class Add {}', after: 'class Sum {}', occurrences: 1 },
          { path: 'B.cs', newPath: null, before: 'class Add2 {}', after: 'class Sum2 {}', occurrences: 1 },
          { path: 'Old.cs', newPath: 'New.cs', before: 'class Sum {}', after: 'class Sum {}', occurrences: 0 },
        ],
      });
      assert.equal(granted, true);
      transport.last.die({ code: null, signal: 'SIGKILL' });
      const error = await apply.answer.then(() => assert.fail('resolved'), (e: unknown) => e as ToolError);
      assert.equal(error.code, 'host_exited');
      assert.match(error.message, /had already written 2 files \(listed below\)/);
      assert.deepEqual(error.details.candidates, ['A.cs', 'Old.cs -> New.cs']);
      assert.match(error.render(), /^error host_exited: .*\n {2}A\.cs\n {2}Old\.cs -> New\.cs$/s);
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('waits for a client-side write under way when the host dies, and names what it wrote', async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-supervisor-'));
    try {
      fs.writeFileSync(path.join(workspace, 'A.cs'), 'class Add {}');
      let release: () => void = () => undefined;
      const applyWrite = async () => {
        await new Promise<void>((resolve) => (release = resolve));
        fs.writeFileSync(path.join(workspace, 'A.cs'), 'class Sum {}');
        return true;
      };
      const { host, transport } = supervisor({ workspace, applyWrite });
      const apply = await pending(host, transport);
      const writing = transport.last.callbacks.applyWrite!({
        workspace,
        operation: 'rename',
        summary: 'rename Add to Sum',
        files: [],
        tool: null,
        call: null,
        changes: [{ path: 'A.cs', newPath: null, before: 'class Add {}', after: 'class Sum {}', occurrences: 1 }],
      });
      transport.last.die({ code: null, signal: 'SIGKILL' }); // killed while the editor applies the edit
      await flush();
      release();
      await writing;
      const error = await apply.answer.then(() => assert.fail('resolved'), (e: unknown) => e as ToolError);
      assert.equal(error.code, 'host_exited');
      assert.deepEqual(error.details.candidates, ['A.cs']);
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('names the exit, not the broken connection, when the transport rejects before the exit arrives', async () => {
    const { host, transport } = supervisor();
    const open = await pending(host, transport);
    // vscode-languageclient rejects pending requests when its connection closes, before the process 'exit'.
    open.sent.reject(Object.assign(new Error('Pending response rejected since connection got disposed'), { code: -32097 }));
    await flush();
    transport.last.die({ code: null, signal: 'SIGKILL' });
    await assert.rejects(open.answer, (error: ToolError) => error.code === 'host_exited' && /killed by SIGKILL/.test(error.message));
  });
});
