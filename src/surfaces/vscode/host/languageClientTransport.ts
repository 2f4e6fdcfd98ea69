// The VS Code transport of the host supervisor (engine/host/hostSupervisor.ts): runs the Roslyn
// host with vscode-languageclient, so open C# documents are synchronized (unsaved buffers
// included), the host's log lines land in the SharpClaw output channel and its traffic in the
// trace channel. Offers "Download .NET" once when dotnet is missing. Restarts and crash handling
// are the supervisor's: the client itself never restarts.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CloseAction, ErrorAction, LanguageClient, RevealOutputChannelOn, type LanguageClientOptions } from 'vscode-languageclient/node';
import { registerHostCallbacks, type HostCallbackOptions } from '../../../engine/host/hostCallbacks';
import { hostArguments } from '../../../engine/host/hostCommandLine';
import { hostEnvironment } from '../../../engine/host/hostLaunch';
import { DotnetNotFoundError, dotnetDownloadUrl, locateDotnet, type DotnetInstallation } from '../../../engine/host/dotnetLocator';
import { HostStartError, withCancellation, type HostConnection, type HostExit, type HostTransport } from '../../../engine/host/hostTransport';
import { bindProcessGroup } from '../../../engine/processes/processTree';
import type { ExtensionLog } from '../logging/extensionLog';

export interface HostLaunchSettings {
  /** The built host: dist/server/SharpClaw.Server.dll inside the extension. */
  serverDll: string;
  /** Where the host writes its log file (the extension's log folder). */
  logDirectory: string;
  /** Where the host keeps its store (the extension's global storage). */
  storeDirectory: string;
  /** The machine-scoped sharpclaw.dotnetPath setting. */
  dotnetPath: () => string;
}

export class LanguageClientTransport implements HostTransport {
  private dotnetWarningShown = false;

  constructor(
    private readonly settings: HostLaunchSettings,
    private readonly log: ExtensionLog,
    private readonly traceChannel: vscode.LogOutputChannel,
  ) {}

  async start(callbacks: HostCallbackOptions): Promise<HostConnection> {
    let dotnet: DotnetInstallation;
    try {
      dotnet = locateDotnet({ configuredPath: this.settings.dotnetPath() });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof DotnetNotFoundError) this.offerDotnetDownload(message);
      throw new HostStartError(message, true);
    }
    if (!fs.existsSync(this.settings.serverDll)) {
      throw new HostStartError(`The SharpClaw host is not built: ${this.settings.serverDll} is missing. Run "npm run build" in the extension folder, or reinstall the extension.`, true);
    }

    let spawned: ChildProcess | undefined;
    const serverOptions = async (): Promise<ChildProcess> => {
      fs.mkdirSync(this.settings.logDirectory, { recursive: true });
      fs.mkdirSync(this.settings.storeDirectory, { recursive: true, mode: 0o700 });
      const args = hostArguments({ serverDll: this.settings.serverDll, logDirectory: this.settings.logDirectory, storeDirectory: this.settings.storeDirectory });
      this.log.info(`Starting SharpClaw host: ${dotnet.executable} ${args.join(' ')}`);
      spawned = spawn(dotnet.executable, args, {
        stdio: 'pipe',
        // The leader of its own process group (POSIX), so the evaluations it starts end with it (bindProcessGroup).
        detached: process.platform !== 'win32',
        // The host must never inherit a request to run something on its behalf.
        env: hostEnvironment(),
      });
      if (spawned.pid !== undefined) spawned.once('exit', bindProcessGroup(spawned.pid));
      return spawned;
    };
    const client = new LanguageClient('sharpclaw', 'SharpClaw Host', serverOptions, this.clientOptions());
    // Each request names its tool (params.tool), which the host passes back when it asks.
    registerHostCallbacks(client, callbacks);
    try {
      await client.start();
    } catch (error) {
      const child = spawned;
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await client.dispose().catch(() => undefined);
      throw new HostStartError(`The SharpClaw host failed to start: ${error instanceof Error ? error.message : String(error)}`, false);
    }
    return this.connection(client, spawned!);
  }

  private connection(client: LanguageClient, child: ChildProcess): HostConnection {
    let exit: HostExit | undefined;
    let stopping = false;
    const listeners: Array<(exit: HostExit) => void> = [];
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      exit = { code, signal };
      for (const listener of listeners.splice(0)) listener(exit);
      if (!stopping) void client.dispose(0).catch(() => undefined);
    };
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
    else child.once('exit', onExit);
    return {
      pid: child.pid!,
      logFile: path.join(this.settings.logDirectory, `sharpclaw-host-${child.pid}.log`),
      sendRequest: (method, params, signal) => withCancellation(signal, (token) => client.sendRequest(method, params, token)),
      onExit(listener) {
        if (exit) listener(exit);
        else listeners.push(listener);
      },
      stop: async () => {
        stopping = true;
        if (!exit) {
          try {
            await client.stop(2000);
          } catch (error) {
            this.log.warn(`The host did not shut down cleanly: ${String(error)}`);
          }
        }
        // After `exit` the host needs a moment to end; only a host that ignores it is killed.
        if (!(await exitsWithin(child, 3000))) {
          this.log.warn(`The SharpClaw host (pid ${child.pid}) did not exit after shutdown; killing it.`);
          child.kill('SIGKILL');
          await exitsWithin(child, 3000);
        }
      },
    };
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
        // The supervisor restarts lazily on the next request, never in the background.
        closed: () => ({ action: CloseAction.DoNotRestart, handled: true }),
      },
    };
  }

  private offerDotnetDownload(message: string): void {
    if (this.dotnetWarningShown) return;
    this.dotnetWarningShown = true;
    void vscode.window.showErrorMessage(message, 'Download .NET').then((choice) => {
      if (choice) void vscode.env.openExternal(vscode.Uri.parse(dotnetDownloadUrl));
    });
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
