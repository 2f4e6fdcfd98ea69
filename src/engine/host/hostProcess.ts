// The stdio transport: starts the Roslyn host as a child process and talks JSON-RPC to it with
// vscode-jsonrpc (the CLI and the MCP server; VS Code uses vscode-languageclient instead). Wires
// the host's server-to-client requests to the callbacks the supervisor passes and keeps the last
// lines of its stderr for the host_exited error. Host logs go to the state folder's logs/ (last
// 20 kept) unless a folder is given. Supervision is HostSupervisor's (hostSupervisor.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { ToolError } from '../errors';
import { bindProcessGroup } from '../processes/processTree';
import { DotnetNotFoundError } from './dotnetLocator';
import { registerHostCallbacks, type HostCallbackOptions } from './hostCallbacks';
import { spawnStdioHost, stdioLaunch, type StdioLaunch, type StdioLaunchOptions } from './hostLaunch';
import { takePrestartedStdio } from './hostPrestart';
import { describeExit, HostStartError, raceWithin, withCancellation, type HostConnection, type HostExit, type HostTransport } from './hostTransport';

export interface StdioHostTransportOptions extends StdioLaunchOptions {
  /** Named in `initialize`'s clientInfo. */
  clientName?: string;
}

export class StdioHostTransport implements HostTransport {
  constructor(private readonly options: StdioHostTransportOptions) {}

  async start(callbacks: HostCallbackOptions): Promise<HostConnection> {
    let launch: StdioLaunch;
    try {
      launch = stdioLaunch(this.options);
    } catch (error) {
      if (error instanceof DotnetNotFoundError) throw new HostStartError(error.message, true);
      throw error;
    }
    if (!fs.existsSync(this.options.serverDll)) throw new HostStartError(`The SharpClaw host is not built: ${this.options.serverDll} is missing. Run "npm run build".`, true);
    const { executable, logDirectory } = launch;
    // The host the CLI started ahead for this launch (hostPrestart.ts), else a new one.
    const prestarted = takePrestartedStdio(launch);
    const child = prestarted?.child ?? spawnStdioHost(launch);
    const endGroup = prestarted?.endGroup ?? (child.pid === undefined ? () => undefined : bindProcessGroup(child.pid));
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
