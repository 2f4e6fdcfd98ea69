// The one supervisor of the Roslyn host, for every surface (VS Code, the CLI, the MCP server):
// starts it lazily on the first request, restarts it on the next request after a crash (never
// in the background) within a crash budget, stops and restarts it on request, cancels one request
// or all in flight, and reports its state and load progress as events. When the host dies, every
// pending request rejects with a typed host_exited error naming the exit code or signal, the log
// file and, during an apply, the files already written. How the process is run and talked to is
// the transport's business (hostTransport.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { z } from 'zod';
import { Emitter, type Event } from 'vscode-jsonrpc';
import { HostStatusSchema, type HostStatus } from '../protocol/hostStatus';
import type { AuthorizeWriteParams } from '../protocol/edits';
import { HostMethods } from '../protocol/methods';
import { ToolError } from '../errors';
import { CrashBudget } from './crashBudget';
import type { HostCallbackOptions, LoadProgress } from './hostCallbacks';
import { toToolError, type HostRequester } from './hostRequester';
import type { HostState } from './hostState';
import { describeExit, HostStartError, HostUnavailableError, raceWithin, type HostConnection, type HostExit, type HostTransport } from './hostTransport';
import { filesWrittenByInterruptedApplies } from './interruptedApply';
import { readWorkspaceText } from '../files/boundedRead';

export interface HostSupervisorLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** One line per answered request (method and time), for a trace channel. */
  trace?(message: string): void;
}

export interface HostSupervisorOptions {
  transport: HostTransport;
  /** How the host's requests to the client are answered (onProgress is the supervisor's event). */
  callbacks: Omit<HostCallbackOptions, 'onProgress'>;
  log?: HostSupervisorLog;
  crashBudget?: CrashBudget;
  /** How a person restarts the host on this surface, added to the message of a failed host. */
  restartHint?: string;
  /** The files interrupted applies wrote since `sinceMs` (default: the host's durable apply record). */
  filesWrittenSince?: (workspaceFolder: string, sinceMs: number) => string[];
}

interface PendingRequest {
  connection: HostConnection;
  startedAt: number;
  /** Files the client applied for this request (VS Code's applyWrite). */
  written: string[];
  controller: AbortController;
  fail(error: unknown): void;
}

/** How long a request whose connection broke waits for the process exit that explains it. */
const connectionLossGraceMs = 5000;

/**
 * vscode-jsonrpc's own codes for a connection that broke (write failed, read failed, pending
 * responses rejected on dispose, connection inactive): the client's side, never the host's answer.
 */
function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' && code >= -32099 && code <= -32096;
}

const silentLog: HostSupervisorLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

export class HostSupervisor implements HostRequester {
  private readonly stateEmitter = new Emitter<HostState>();
  private readonly progressEmitter = new Emitter<LoadProgress>();
  /** Every state change: stopped, starting, ready, crashed, failed. */
  readonly onDidChangeState: Event<HostState> = this.stateEmitter.event;
  /** Each step of a solution load, as the host reports it. */
  readonly onLoadProgress: Event<LoadProgress> = this.progressEmitter.event;

  private currentState: HostState = { kind: 'stopped' };
  /** The connection of the running (or starting, once spawned) host. */
  private current: HostConnection | undefined;
  private starting: Promise<HostConnection> | undefined;
  private readonly stopping = new WeakSet<HostConnection>();
  private readonly pending = new Set<PendingRequest>();
  /** Client-side writes under way (VS Code's applyWrite). */
  private readonly applying = new Set<Promise<boolean>>();
  private readonly crashBudget: CrashBudget;
  private readonly log: HostSupervisorLog;

  constructor(private readonly options: HostSupervisorOptions) {
    this.crashBudget = options.crashBudget ?? new CrashBudget();
    this.log = options.log ?? silentLog;
  }

  get state(): HostState {
    return this.currentState;
  }

  /** Sends a request, starting the host first if needed, and validates the answer. */
  async request<T>(method: string, params: unknown, resultSchema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
    const connection = await this.ensureStarted();
    try {
      return await this.send(connection, method, params, resultSchema, signal);
    } catch (error) {
      throw toToolError(error);
    }
  }

  status(signal?: AbortSignal): Promise<HostStatus> {
    return this.request(HostMethods.status, {}, HostStatusSchema, signal);
  }

  /** Cancels every request in flight (e.g. the person cancelled a load). */
  cancelAll(): void {
    for (const request of this.pending) request.controller.abort();
  }

  /** Starts the host unless it is running or starting; fails fast while it is failed. */
  ensureStarted(): Promise<HostConnection> {
    if (this.current && !this.starting) return Promise.resolve(this.current);
    if (this.starting) return this.starting;
    if (this.currentState.kind === 'failed') {
      return Promise.reject(new HostUnavailableError(`${this.currentState.message}${this.options.restartHint ? ` ${this.options.restartHint}` : ''}`));
    }
    this.starting = this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Stops the host (if any), forgets earlier crashes and starts a fresh one. */
  async restart(): Promise<void> {
    await this.stop();
    this.crashBudget.reset();
    this.setState({ kind: 'stopped' });
    await this.ensureStarted();
  }

  /** Stops the host; the next request starts a new one. */
  async stop(): Promise<void> {
    const connection = this.starting ? await this.starting.catch(() => undefined) : this.current;
    if (!connection || this.stopping.has(connection)) return;
    this.stopping.add(connection);
    if (this.current === connection) this.current = undefined;
    try {
      await connection.stop();
    } catch (error) {
      this.log.warn(`The host did not shut down cleanly: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (this.currentState.kind === 'ready' || this.currentState.kind === 'starting') this.setState({ kind: 'stopped' });
  }

  dispose(): void {
    void this.stop();
    this.stateEmitter.dispose();
    this.progressEmitter.dispose();
  }

  private async start(): Promise<HostConnection> {
    this.setState({ kind: 'starting' });
    const startedAt = Date.now();
    let connection: HostConnection;
    try {
      connection = await this.options.transport.start({
        ...this.options.callbacks,
        onProgress: (progress) => this.progressEmitter.fire(progress),
        ...(this.options.callbacks.applyWrite ? { applyWrite: (params) => this.applyWrite(params) } : {}),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof HostStartError && error.permanent) {
        this.log.error(message);
        this.setState({ kind: 'failed', message, cause: 'start' });
        throw error;
      }
      const failure = error instanceof ToolError || error instanceof HostUnavailableError ? message : `The SharpClaw host failed to start: ${message}`;
      this.log.error(failure);
      this.noteCrash(failure);
      throw error instanceof ToolError || error instanceof HostUnavailableError ? error : new HostUnavailableError(failure);
    }
    this.current = connection;
    connection.onExit((exit) => this.onExit(connection, exit));
    const status = await this.send(connection, HostMethods.status, {}, HostStatusSchema);
    this.log.info(`SharpClaw host ready in ${Date.now() - startedAt} ms: pid ${status.processId}, Roslyn ${status.roslynVersion}, ${status.runtime.frameworkDescription}.`);
    if (this.current === connection) this.setState({ kind: 'ready', pid: status.processId, roslynVersion: status.roslynVersion });
    return connection;
  }

  /** One request on one connection, rejected with host_exited when that host dies first. */
  private async send<T>(connection: HostConnection, method: string, params: unknown, resultSchema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
    const started = Date.now();
    const controller = new AbortController();
    const forward = () => controller.abort();
    if (signal?.aborted) controller.abort();
    else signal?.addEventListener('abort', forward, { once: true });
    let fail: (error: unknown) => void = () => undefined;
    const died = new Promise<never>((_, reject) => (fail = reject));
    const request: PendingRequest = { connection, startedAt: started, written: [], controller, fail };
    this.pending.add(request);
    try {
      const answer = connection.sendRequest(method, params ?? {}, controller.signal).catch(async (error: unknown) => {
        if (!isConnectionLoss(error)) throw error;
        // The connection broke before the exit was seen: the exit (host_exited) says how it ended.
        await raceWithin([died], connectionLossGraceMs);
        throw error;
      });
      const raw = await Promise.race([answer, died]);
      const parsed = resultSchema.safeParse(raw);
      if (!parsed.success) throw new Error(`The SharpClaw host answered ${method} with an unexpected shape: ${parsed.error.message}`);
      this.log.trace?.(`${method} answered in ${Date.now() - started} ms`);
      return parsed.data;
    } finally {
      this.pending.delete(request);
      signal?.removeEventListener('abort', forward);
    }
  }

  private onExit(connection: HostConnection, exit: HostExit): void {
    const how = describeExit(exit);
    const intentional = this.stopping.has(connection);
    const orphaned = [...this.pending].filter((r) => r.connection === connection);
    if (intentional) {
      for (const request of orphaned) request.fail(new ToolError('host_unavailable', 'The SharpClaw host was stopped while a request was pending.'));
    } else {
      // A client-side write under way (VS Code's applyWrite) finishes first, so its files are named.
      void settledWithin([...this.applying], 10_000).then(() => {
        for (const request of orphaned) request.fail(this.hostExited(connection, exit, request));
      });
    }
    if (intentional) {
      this.log.info(`SharpClaw host (pid ${connection.pid}) ${how} after a stop request.`);
      return;
    }
    if (this.current === connection) this.current = undefined;
    this.noteCrash(`The SharpClaw host (pid ${connection.pid}) ${how} unexpectedly.`);
  }

  /** The error a request gets when its host died: how, the log, and what an apply had written. */
  private hostExited(connection: HostConnection, exit: HostExit, request: PendingRequest): ToolError {
    const folder = typeof this.options.callbacks.workspaceFolder === 'function' ? this.options.callbacks.workspaceFolder() : this.options.callbacks.workspaceFolder;
    const fromRecord = folder ? (this.options.filesWrittenSince ?? filesWrittenByInterruptedApplies)(folder, request.startedAt) : [];
    const written = [...new Set([...request.written, ...fromRecord])];
    const tail = exit.output?.trim() ? `\nLast host output:\n${exit.output.trim().split('\n').slice(-10).join('\n')}` : '';
    const files = written.length
      ? ` The interrupted apply had already written ${written.length} file${written.length === 1 ? '' : 's'} (listed below); the next edit request reports it and offers undo.`
      : '';
    return new ToolError('host_exited', `The SharpClaw host ${describeExit(exit)} while a request was pending; its log: ${connection.logFile}.${files}${tail}`, written.length ? { candidates: written } : {});
  }

  /** VS Code applies granted writes itself: what it wrote is remembered for the requests pending. */
  private async applyWrite(params: AuthorizeWriteParams): Promise<boolean> {
    const waiting = [...this.pending];
    const applying = this.options.callbacks.applyWrite!(params);
    this.applying.add(applying);
    try {
      const applied = await applying;
      if (applied) {
        const written = clientWrittenFiles(params);
        for (const request of waiting) request.written.push(...written);
      }
      return applied;
    } finally {
      this.applying.delete(applying);
    }
  }

  private noteCrash(message: string): void {
    if (this.crashBudget.recordCrash()) {
      const failure = `${message} It crashed ${this.crashBudget.recentCrashes} times within ${this.crashBudget.windowMs / 60000} minutes, so SharpClaw stopped restarting it. See the SharpClaw log.`;
      this.log.error(failure);
      this.setState({ kind: 'failed', message: failure, cause: 'crashes' });
      return;
    }
    this.log.error(`${message} The next request starts a new host.`);
    this.setState({ kind: 'crashed', message });
  }

  private setState(state: HostState): void {
    this.currentState = state;
    this.stateEmitter.fire(state);
  }
}

/** Resolves once every promise settled, or after `timeoutMs`. */
function settledWithin(promises: Array<Promise<unknown>>, timeoutMs: number): Promise<void> {
  if (promises.length === 0) return Promise.resolve();
  return raceWithin<unknown>([Promise.allSettled(promises)], timeoutMs).then(() => undefined);
}

/** The files of a client-applied write that now have their planned text (or were moved). */
function clientWrittenFiles(params: AuthorizeWriteParams): string[] {
  const absolute = (relative: string) => path.resolve(params.workspace, relative);
  const written: string[] = [];
  for (const change of params.changes ?? []) {
    if (change.newPath) {
      if (fs.existsSync(absolute(change.newPath)) && !fs.existsSync(absolute(change.path))) written.push(`${change.path} -> ${change.newPath}`);
      continue;
    }
    // Not there (or not a regular file): not written.
    if (readWorkspaceText(absolute(change.path))?.replace(/^\uFEFF/, '') === change.after.replace(/^\uFEFF/, '')) written.push(change.path);
  }
  return written;
}
