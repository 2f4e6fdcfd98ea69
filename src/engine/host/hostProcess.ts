// Starts the Roslyn host as a child process and connects vscode-jsonrpc to it: used by the CLI
// and the MCP server (the extension uses vscode-languageclient instead). Wires the host's
// server-to-client requests to the permission policy and its load progress to a callback. When
// the host dies, every pending request rejects with a typed host_exited error naming the exit
// code or signal and the host's log (by default in the state folder's logs/, last 20 kept).
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CancellationTokenSource, createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { z } from 'zod';
import type { PermissionPolicy } from '../permissions/permissionPolicy';
import { locateDotnet } from './dotnetLocator';
import { hostArguments } from './hostCommandLine';
import { registerHostCallbacks, type LoadProgress } from './hostCallbacks';
import { toToolError, type HostRequester } from './hostRequester';
import { privateSubfolder, stateRoot } from '../stateFolder';
import { ToolError } from '../errors';

const keptLogs = 20;

/** The state folder's logs/ with the oldest host logs beyond the last `keptLogs` removed. */
function defaultLogDirectory(): string {
  const dir = privateSubfolder(stateRoot(), 'logs');
  const logs = fs.readdirSync(dir).filter((name) => name.startsWith('sharpclaw-host-')).map((name) => ({ name, time: fs.statSync(path.join(dir, name)).mtimeMs }));
  for (const old of logs.sort((a, b) => b.time - a.time).slice(keptLogs - 1)) fs.rmSync(path.join(dir, old.name), { force: true });
  return dir;
}

export interface HostProcessOptions {
  serverDll: string;
  workspaceFolder: string;
  permissions: PermissionPolicy;
  onProgress?: (progress: LoadProgress) => void;
  logDirectory?: string;
  /** The requesting tool, passed to authorization requests. */
  requestedBy: () => string;
}

export class HostProcess implements HostRequester {
  private constructor(
    private readonly child: ChildProcess,
    private readonly connection: MessageConnection,
    /** Rejects with host_exited when the process ends (never resolves). */
    private readonly exited: Promise<never>,
  ) {}

  static async start(options: HostProcessOptions): Promise<HostProcess> {
    const dotnet = locateDotnet();
    const logDirectory = options.logDirectory ?? defaultLogDirectory();
    const args = hostArguments({ serverDll: options.serverDll, logDirectory });
    const child = spawn(dotnet.executable, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, DOTNET_NOLOGO: '1', DOTNET_CLI_TELEMETRY_OPTOUT: '1' } });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    registerHostCallbacks(connection, {
      workspaceFolder: options.workspaceFolder,
      permissions: options.permissions,
      requestedBy: options.requestedBy,
      onProgress: options.onProgress ?? (() => undefined),
    });
    connection.listen();
    let ready = false;
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) => {
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const log = path.join(logDirectory, `sharpclaw-host-${child.pid}.log`);
        const tail = stderr.trim() ? `\nLast host output:\n${stderr.trim().split('\n').slice(-10).join('\n')}` : '';
        reject(new ToolError('host_exited', `The SharpClaw host ${how} ${ready ? 'while a request was pending' : 'before it was ready'}; its log: ${log}.${tail}`));
      }),
    );
    exited.catch(() => undefined);
    await Promise.race([
      connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, clientInfo: { name: 'sharpclaw-cli' } }),
      exited,
    ]);
    ready = true;
    connection.sendNotification('initialized', {});
    return new HostProcess(child, connection, exited);
  }

  async request<T>(method: string, params: unknown, resultSchema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
    const source = new CancellationTokenSource();
    const cancel = () => source.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const raw: unknown = await Promise.race([this.connection.sendRequest(method, params, source.token), this.exited]);
      return resultSchema.parse(raw);
    } catch (error) {
      throw toToolError(error);
    } finally {
      signal?.removeEventListener('abort', cancel);
      source.dispose();
    }
  }

  async dispose(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((resolve) => setTimeout(resolve, 2000))]);
      this.connection.sendNotification('exit');
    } catch {
      // The host is already gone.
    }
    const gone = this.child.exitCode !== null || this.child.signalCode !== null;
    const exited = new Promise((resolve) => (gone ? resolve(undefined) : this.child.once('exit', resolve)));
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    this.connection.dispose();
  }
}

/** The built host next to the bundled CLI (dist/cli.js → dist/server/SharpClaw.Server.dll). */
export function bundledServerDll(): string {
  return path.join(__dirname, 'server', 'SharpClaw.Server.dll');
}
