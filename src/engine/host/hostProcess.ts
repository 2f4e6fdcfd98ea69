// Starts the Roslyn host as a child process and connects vscode-jsonrpc to it: used by the CLI
// and the MCP server (the extension uses vscode-languageclient instead). Wires the host's
// server-to-client requests to the permission policy and its load progress to a callback.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { CancellationTokenSource, createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { z } from 'zod';
import type { PermissionPolicy } from '../permissions/permissionPolicy';
import { locateDotnet } from './dotnetLocator';
import { hostArguments } from './hostCommandLine';
import { registerHostCallbacks, type LoadProgress } from './hostCallbacks';
import { toToolError, type HostRequester } from './hostRequester';

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
  ) {}

  static async start(options: HostProcessOptions): Promise<HostProcess> {
    const dotnet = locateDotnet();
    const args = hostArguments(options.logDirectory ? { serverDll: options.serverDll, logDirectory: options.logDirectory } : { serverDll: options.serverDll });
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
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) => reject(new Error(`The SharpClaw host exited (${signal ?? `code ${code}`}) before it was ready.\n${stderr}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([
      connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, clientInfo: { name: 'sharpclaw-cli' } }),
      exited,
    ]);
    connection.sendNotification('initialized', {});
    return new HostProcess(child, connection);
  }

  async request<T>(method: string, params: unknown, resultSchema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
    const source = new CancellationTokenSource();
    const cancel = () => source.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const raw: unknown = await this.connection.sendRequest(method, params, source.token);
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
    const exited = new Promise((resolve) => (this.child.exitCode !== null ? resolve(undefined) : this.child.once('exit', resolve)));
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
