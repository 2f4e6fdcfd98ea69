// The stdio transport: starts the Roslyn host as a child process and talks JSON-RPC to it with
// vscode-jsonrpc (the CLI and the MCP server; VS Code uses vscode-languageclient instead). Wires
// the host's server-to-client requests to the callbacks the supervisor passes and keeps the last
// lines of its stderr for the host_exited error. Host logs go to the state folder's logs/ (last
// 20 kept) unless a folder is given. Supervision is HostSupervisor's (hostSupervisor.ts).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { ToolError } from '../errors';
import { bindProcessGroup } from '../processes/processTree';
import { privateSubfolder, stateRoot } from '../stateFolder';
import { DotnetNotFoundError, locateDotnet } from './dotnetLocator';
import { registerHostCallbacks, type HostCallbackOptions } from './hostCallbacks';
import { hostArguments } from './hostCommandLine';
import { describeExit, HostStartError, raceWithin, withCancellation, type HostConnection, type HostExit, type HostTransport } from './hostTransport';

const keptLogs = 20;

/** The state folder's logs/ with the oldest host logs beyond the last `keptLogs` removed. */
function defaultLogDirectory(): string {
  const dir = privateSubfolder(stateRoot(), 'logs');
  const logs = fs.readdirSync(dir).filter((name) => name.startsWith('sharpclaw-host-')).map((name) => ({ name, time: fs.statSync(path.join(dir, name)).mtimeMs }));
  for (const old of logs.sort((a, b) => b.time - a.time).slice(keptLogs - 1)) fs.rmSync(path.join(dir, old.name), { force: true });
  return dir;
}

export interface StdioHostTransportOptions {
  serverDll: string;
  logDirectory?: string;
  /** The person's configured dotnet (empty or absent: dotnet on PATH). */
  dotnetPath?: () => string | undefined;
  /** Named in `initialize`'s clientInfo. */
  clientName?: string;
}

export class StdioHostTransport implements HostTransport {
  constructor(private readonly options: StdioHostTransportOptions) {}

  async start(callbacks: HostCallbackOptions): Promise<HostConnection> {
    let executable: string;
    try {
      const configuredPath = this.options.dotnetPath?.();
      executable = locateDotnet(configuredPath ? { configuredPath } : {}).executable;
    } catch (error) {
      if (error instanceof DotnetNotFoundError) throw new HostStartError(error.message, true);
      throw error;
    }
    if (!fs.existsSync(this.options.serverDll)) throw new HostStartError(`The SharpClaw host is not built: ${this.options.serverDll} is missing. Run "npm run build".`, true);
    const logDirectory = this.options.logDirectory ?? defaultLogDirectory();
    const args = hostArguments({ serverDll: this.options.serverDll, logDirectory });
    // The leader of its own process group (POSIX), so what it starts ends with it (bindProcessGroup).
    const child = spawn(executable, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32', env: { ...process.env, DOTNET_NOLOGO: '1', DOTNET_CLI_TELEMETRY_OPTOUT: '1' } });
    const endGroup = child.pid === undefined ? () => undefined : bindProcessGroup(child.pid);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    registerHostCallbacks(connection, callbacks);
    connection.listen();
    const logFile = path.join(logDirectory, `sharpclaw-host-${child.pid}.log`);

    let exit: HostExit | undefined;
    const exitListeners: Array<(exit: HostExit) => void> = [];
    const exited = new Promise<HostExit>((resolve) =>
      child.once('exit', (code, signal) => {
        endGroup();
        exit = { code, signal, output: stderr };
        connection.dispose();
        for (const listener of exitListeners.splice(0)) listener(exit);
        resolve(exit);
      }),
    );
    child.once('error', () => undefined); // spawn errors end in 'exit' (or the initialize race below)
    const spawnFailed = new Promise<never>((_, reject) => child.once('error', (error) => reject(new HostStartError(`Could not start ${executable}: ${error.message}`, false))));
    spawnFailed.catch(() => undefined);
    const diedBeforeReady = exited.then((how): never => {
      const tail = how.output?.trim() ? `\nLast host output:\n${how.output.trim().split('\n').slice(-10).join('\n')}` : '';
      throw new ToolError('host_exited', `The SharpClaw host ${describeExit(how)} before it was ready; its log: ${logFile}.${tail}`);
    });
    diedBeforeReady.catch(() => undefined);
    await Promise.race([
      connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, clientInfo: { name: this.options.clientName ?? 'sharpclaw-cli' } }),
      diedBeforeReady,
      spawnFailed,
    ]);
    connection.sendNotification('initialized', {});

    return {
      pid: child.pid!,
      logFile,
      sendRequest: (method, params, signal) => withCancellation(signal, (token) => connection.sendRequest(method, params, token)),
      onExit(listener) {
        if (exit) listener(exit);
        else exitListeners.push(listener);
      },
      async stop() {
        if (!exit) {
          try {
            // raceWithin clears its timer: a pending one kept the CLI alive 2 s after every answer (test/host-e2e/hostStop.test.ts).
            await raceWithin<unknown>([connection.sendRequest('shutdown'), exited], 2000);
            if (!exit) connection.sendNotification('exit');
          } catch {
            // The host is already gone.
          }
        }
        // After `exit` the host needs a moment to end; only a host that ignores it is killed.
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      },
    };
  }
}

/** The built host next to the bundled CLI (dist/cli.js → dist/server/SharpClaw.Server.dll). */
export function bundledServerDll(): string {
  return path.join(__dirname, 'server', 'SharpClaw.Server.dll');
}
