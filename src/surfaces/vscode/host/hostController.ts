// Owns the Roslyn host process: starts it with vscode-languageclient the first time something
// needs it, notices when it dies, restarts it on the next request (within a crash budget) and
// stops it on deactivate. Nothing here runs at activation.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { CloseAction, ErrorAction, LanguageClient, RevealOutputChannelOn, type LanguageClientOptions } from 'vscode-languageclient/node';
import type { z } from 'zod';
import type { PermissionPolicy } from '../../../engine/permissions/permissionPolicy';
import { HostStatusSchema, type HostStatus } from '../../../engine/protocol/hostStatus';
import { HostMethods } from '../../../engine/protocol/methods';
import type { ExtensionLog } from '../logging/extensionLog';
import { registerHostCallbacks, type HostCallbackOptions, type LoadProgress } from '../../../engine/host/hostCallbacks';
import { toToolError, type HostRequester } from '../../../engine/host/hostRequester';
import { CrashBudget } from '../../../engine/host/crashBudget';
import { hostArguments } from '../../../engine/host/hostCommandLine';
import { DotnetNotFoundError, dotnetDownloadUrl, locateDotnet, type DotnetInstallation } from '../../../engine/host/dotnetLocator';
import type { HostState } from '../../../engine/host/hostState';

export class HostUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostUnavailableError';
  }
}

export interface HostLaunchSettings {
  /** The built host: dist/server/SharpClaw.Server.dll inside the extension. */
  serverDll: string;
  /** Where the host writes its log file (the extension's log folder). */
  logDirectory: string;
  /** The machine-scoped sharpclaw.dotnetPath setting. */
  dotnetPath: () => string;
  /** Answers the host's evaluation authorization requests. */
  permissions: PermissionPolicy;
  /** The workspace folder authorization may be granted for. */
  workspaceFolder: () => string | undefined;
  onLoadProgress: (progress: LoadProgress) => void;
  /** Applies granted writes through the editor (see HostCallbackOptions.applyWrite). */
  applyWrite?: HostCallbackOptions['applyWrite'];
}

interface RunningHost {
  client: LanguageClient;
  process: ChildProcess;
}

export class HostController implements HostRequester, vscode.Disposable {
  private readonly stateEmitter = new vscode.EventEmitter<HostState>();
  readonly onDidChangeState = this.stateEmitter.event;

  private currentState: HostState = { kind: 'stopped' };
  private running: RunningHost | undefined;
  private starting: Promise<RunningHost> | undefined;
  private readonly crashBudget = new CrashBudget();
  private readonly intentionalExits = new WeakSet<ChildProcess>();
  private dotnetWarningShown = false;
  private readonly inFlight = new Set<AbortController>();

  constructor(
    private readonly settings: HostLaunchSettings,
    private readonly log: ExtensionLog,
    private readonly traceChannel: vscode.LogOutputChannel,
  ) {}

  get state(): HostState {
    return this.currentState;
  }

  /** Sends a request to the host, starting it first if needed, and validates the answer. */
  async request<T>(method: string, params: unknown, resultSchema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
    const host = await this.ensureStarted();
    const started = Date.now();
    const controller = new AbortController();
    const forward = () => controller.abort();
    signal?.addEventListener('abort', forward, { once: true });
    if (signal?.aborted) controller.abort();
    const tokenSource = new vscode.CancellationTokenSource();
    controller.signal.addEventListener('abort', () => tokenSource.cancel(), { once: true });
    this.inFlight.add(controller);
    try {
      const raw: unknown = await host.client.sendRequest(method, params ?? {}, tokenSource.token);
      const parsed = resultSchema.safeParse(raw);
      if (!parsed.success) {
        throw new Error(`The SharpClaw host answered ${method} with an unexpected shape: ${parsed.error.message}`);
      }
      this.traceChannel.appendLine(`${method} answered in ${Date.now() - started} ms`);
      return parsed.data;
    } catch (error) {
      throw toToolError(error);
    } finally {
      this.inFlight.delete(controller);
      signal?.removeEventListener('abort', forward);
      tokenSource.dispose();
    }
  }

  /** Cancels every request in flight (the user cancelled a load). */
  cancelAll(): void {
    for (const controller of this.inFlight) controller.abort();
  }

  status(signal?: AbortSignal): Promise<HostStatus> {
    return this.request(HostMethods.status, {}, HostStatusSchema, signal);
  }

  /** Starts the host unless it is running or starting; fails fast while it is failed. */
  async ensureStarted(): Promise<RunningHost> {
    if (this.running) return this.running;
    if (this.starting) return this.starting;
    if (this.currentState.kind === 'failed') {
      throw new HostUnavailableError(`${this.currentState.message} Run "SharpClaw: Restart Host" to try again.`);
    }
    this.starting = this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Stops the host (if any), forgets earlier crashes and starts a fresh one. */
  async restart(): Promise<HostStatus> {
    await this.stop();
    this.crashBudget.reset();
    this.setState({ kind: 'stopped' });
    return this.status();
  }

  async stop(): Promise<void> {
    const host = this.running ?? (await this.starting?.catch(() => undefined));
    this.running = undefined;
    if (!host) return;
    this.intentionalExits.add(host.process);
    try {
      await host.client.stop(2000);
    } catch (error) {
      this.log.warn(`The host did not shut down cleanly: ${String(error)}`);
    }
    // After `exit` the host needs a moment to end; only a host that ignores it is killed.
    if (!(await exitsWithin(host.process, 3000))) {
      this.log.warn(`The SharpClaw host (pid ${host.process.pid}) did not exit after shutdown; killing it.`);
      host.process.kill('SIGKILL');
    }
    if (this.currentState.kind === 'ready' || this.currentState.kind === 'starting') this.setState({ kind: 'stopped' });
  }

  dispose(): void {
    void this.stop();
    this.stateEmitter.dispose();
  }

  private async start(): Promise<RunningHost> {
    this.setState({ kind: 'starting' });
    let dotnet: DotnetInstallation;
    try {
      dotnet = locateDotnet({ configuredPath: this.settings.dotnetPath() });
      if (!fs.existsSync(this.settings.serverDll)) {
        throw new HostUnavailableError(
          `The SharpClaw host is not built: ${this.settings.serverDll} is missing. Run "npm run build" in the extension folder, or reinstall the extension.`,
        );
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.setState({ kind: 'failed', message });
      this.log.error(message);
      if (error instanceof DotnetNotFoundError) this.offerDotnetDownload(message);
      throw error instanceof HostUnavailableError ? error : new HostUnavailableError(message);
    }

    const startedAt = Date.now();
    let spawned: ChildProcess | undefined;
    const serverOptions = async (): Promise<ChildProcess> => {
      fs.mkdirSync(this.settings.logDirectory, { recursive: true });
      const args = hostArguments({ serverDll: this.settings.serverDll, logDirectory: this.settings.logDirectory });
      this.log.info(`Starting SharpClaw host: ${dotnet.executable} ${args.join(' ')}`);
      const child = spawn(dotnet.executable, args, {
        stdio: 'pipe',
        // The host must never inherit a request to run something on its behalf.
        env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' },
      });
      spawned = child;
      child.on('exit', (code, signal) => this.onProcessExit(child, code, signal));
      return child;
    };
    const client = new LanguageClient('sharpclaw', 'SharpClaw Host', serverOptions, this.clientOptions());
    registerHostCallbacks(client, {
      workspaceFolder: this.settings.workspaceFolder,
      permissions: this.settings.permissions,
      // Each request names its tool (params.tool), which the host passes back when it asks.
      requestedBy: () => 'SharpClaw',
      onProgress: this.settings.onLoadProgress,
      applyWrite: this.settings.applyWrite,
    });
    try {
      await client.start();
    } catch (error) {
      const message = `The SharpClaw host failed to start: ${error instanceof Error ? error.message : String(error)}`;
      this.log.error(message);
      const alreadyExited = spawned !== undefined && (spawned.exitCode !== null || spawned.signalCode !== null);
      if (spawned && !alreadyExited) {
        this.intentionalExits.add(spawned);
        spawned.kill('SIGKILL');
      }
      await client.dispose().catch(() => undefined);
      // An exit during start was already counted by onProcessExit.
      if (!alreadyExited) this.noteCrash(message);
      throw new HostUnavailableError(message);
    }
    const host: RunningHost = { client, process: spawned! };
    this.running = host;
    const status = HostStatusSchema.parse(await client.sendRequest(HostMethods.status, {}));
    this.log.info(`SharpClaw host ready in ${Date.now() - startedAt} ms: pid ${status.processId}, Roslyn ${status.roslynVersion}, ${status.runtime.frameworkDescription}.`);
    this.setState({ kind: 'ready', pid: status.processId, roslynVersion: status.roslynVersion });
    return host;
  }

  private clientOptions(): LanguageClientOptions {
    return {
      // Open C# files are synchronized (full text), so answers reflect unsaved editor buffers.
      documentSelector: [{ scheme: 'file', language: 'csharp' }],
      outputChannel: this.log.hostChannel(),
      traceOutputChannel: this.traceChannel,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: { logDirectory: this.settings.logDirectory },
      connectionOptions: { maxRestartCount: 0 },
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue, handled: true }),
        // We restart lazily on the next request (see onProcessExit), never in the background.
        closed: () => ({ action: CloseAction.DoNotRestart, handled: true }),
      },
    };
  }

  private onProcessExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    if (this.intentionalExits.has(child)) {
      this.log.info(`SharpClaw host (pid ${child.pid}) ${how} after a stop request.`);
      return;
    }
    const host = this.running;
    if (host?.process === child) {
      this.running = undefined;
      void host.client.dispose(0).catch(() => undefined);
    }
    this.noteCrash(`The SharpClaw host (pid ${child.pid}) ${how} unexpectedly.`);
  }

  private noteCrash(message: string): void {
    const exhausted = this.crashBudget.recordCrash();
    if (exhausted) {
      const failure = `${message} It crashed ${this.crashBudget.recentCrashes} times within ${this.crashBudget.windowMs / 60000} minutes, so SharpClaw stopped restarting it. See the SharpClaw log.`;
      this.log.error(failure);
      this.setState({ kind: 'failed', message: failure });
      void vscode.window.showErrorMessage(failure, 'Restart Host', 'Show Log').then((choice) => {
        if (choice === 'Restart Host') void vscode.commands.executeCommand('sharpclaw.restartHost');
        if (choice === 'Show Log') this.log.show();
      });
      return;
    }
    this.log.error(`${message} The next request starts a new host.`);
    this.setState({ kind: 'crashed', message });
  }

  private offerDotnetDownload(message: string): void {
    if (this.dotnetWarningShown) return;
    this.dotnetWarningShown = true;
    void vscode.window.showErrorMessage(message, 'Download .NET').then((choice) => {
      if (choice) void vscode.env.openExternal(vscode.Uri.parse(dotnetDownloadUrl));
    });
  }

  private setState(state: HostState): void {
    this.currentState = state;
    this.stateEmitter.fire(state);
  }
}

function exitsWithin(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
