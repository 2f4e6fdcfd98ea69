// The resident host for the CLI: instead of starting a Roslyn host per call (seconds of process start
// and JIT, then compiling the solution again), `sharpclaw tool` connects to a host that an earlier call
// left running, which still holds the solutions it loaded. The host serves connections, several at once
// (a verify holds one for its whole run), on a Unix domain socket in the private state folder (hosts/,
// 0700, so only this user can connect) and exits after `idleSeconds` without an open connection, after
// `sharpclaw host stop`, or when its socket file is removed. Each call is a session of its own: approvals still come from this call's permissions;
// what it reuses is only what any host may reuse without asking (valid cached contexts).
//
// One resident host per (host build, dotnet, environment that shapes MSBuild): a call whose PATH,
// DOTNET_* or MSBuild variables differ gets its own. Off with SHARPCLAW_RESIDENT_HOST=0, and on
// Windows (no private socket there yet): those calls start a host of their own, as before.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { privateSubfolder, stateRoot } from '../stateFolder';
import { registerHostCallbacks, type HostCallbackOptions } from './hostCallbacks';
import { residentSocketPath, spawnResidentHost, type ResidentLaunchOptions } from './hostLaunch';
import { takePrestartedResident } from './hostPrestart';
import { StdioHostTransport, type StdioHostTransportOptions } from './hostProcess';
import { HostStartError, raceWithin, withCancellation, type HostConnection, type HostExit, type HostTransport } from './hostTransport';

const startTimeoutMs = 20_000;

export interface ResidentHostOptions extends StdioHostTransportOptions, ResidentLaunchOptions {}

function connect(socket: string): Promise<net.Socket | undefined> {
  return new Promise((resolve) => {
    const client = net.connect(socket);
    client.once('connect', () => resolve(client));
    client.once('error', () => resolve(undefined));
  });
}

interface ResidentInfo {
  pid: number;
  logFile: string | null;
}

function readInfo(socket: string): ResidentInfo | undefined {
  try {
    return JSON.parse(fs.readFileSync(`${socket}.json`, 'utf8')) as ResidentInfo;
  } catch {
    return undefined;
  }
}

/** How the resident host this call started ended, once it has (undefined while it runs). */
type ChildEnd = Promise<HostExit>;

/** Starts a resident host on `socket` (or takes the one the CLI started ahead) and connects once it listens. */
async function startResident(socket: string, options: ResidentHostOptions): Promise<{ client: net.Socket; ended: ChildEnd }> {
  const started = takePrestartedResident(socket) ?? spawnResidentHost(socket, options);
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    const client = await connect(socket);
    if (client) return { client, ended: started.ended };
    // Exit code 0 before listening: another resident host won the race for the socket; connect to it.
    const exited = started.exitCode();
    if (exited !== undefined && exited !== 0) throw new HostStartError(`The resident host exited with code ${exited} before it listened on ${socket}; its log is in ${started.logDirectory}.`, false);
    // Often: the host listens about 0.3 s after its spawn, and each poll is a failed connect() on a local socket.
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new HostStartError(`The resident host did not listen on ${socket} within ${startTimeoutMs / 1000} s.`, false);
}

/** The CLI's transport: the resident host when there can be one, else a host of this call's own. */
export class ResidentHostTransport implements HostTransport {
  constructor(private readonly options: ResidentHostOptions) {}

  async start(callbacks: HostCallbackOptions): Promise<HostConnection> {
    const socketPath = residentSocketPath(this.options);
    if (!socketPath) return new StdioHostTransport(this.options).start(callbacks);
    let socket: net.Socket;
    let ended: ChildEnd | undefined;
    try {
      const running = await connect(socketPath);
      if (running) {
        socket = running;
        ended = takePrestartedResident(socketPath)?.ended; // the host the CLI started ahead, listening already
      } else ({ client: socket, ended } = await startResident(socketPath, this.options));
    } catch (error) {
      // A resident host that cannot start is no reason to fail the call: it runs on a host of its own.
      if (error instanceof HostStartError) return new StdioHostTransport(this.options).start(callbacks);
      throw error;
    }
    return this.session(socket, socketPath, callbacks, ended);
  }

  private async session(socket: net.Socket, socketPath: string, callbacks: HostCallbackOptions, ended: ChildEnd | undefined): Promise<HostConnection> {
    const connection: MessageConnection = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
    registerHostCallbacks(connection, callbacks);
    connection.listen();
    const info = readInfo(socketPath);
    let exit: HostExit | undefined;
    let endedHere = false;
    const exitListeners: Array<(exit: HostExit) => void> = [];
    const closed = new Promise<HostExit>((resolve) =>
      socket.once('close', () => {
        // A session this call ended leaves the resident host running: no exit to wait for (howItEnded waits up to
        // 1 s for one, which made every CLI call that started the resident host exit 1 s after its answer).
        const how = endedHere ? Promise.resolve(sessionEnded(info)) : howItEnded(info, ended);
        void how.then((how) => {
          exit = how;
          connection.dispose();
          for (const listener of exitListeners.splice(0)) listener(how);
          resolve(how);
        });
      }),
    );
    socket.on('error', () => undefined); // ends in 'close'
    const closedBeforeReady = closed.then((how): never => {
      throw new HostStartError(`The resident host closed the connection before it was ready (${how.output}).`, false);
    });
    closedBeforeReady.catch(() => undefined);
    await Promise.race([
      connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, clientInfo: { name: this.options.clientName ?? 'sharpclaw-cli' } }),
      closedBeforeReady,
    ]);
    connection.sendNotification('initialized', {});
    return {
      pid: info?.pid ?? 0,
      logFile: info?.logFile ?? `${socketPath}.json names it`,
      sendRequest: (method, params, signal) => withCancellation(signal, (token) => connection.sendRequest(method, params, token)),
      onExit(listener) {
        if (exit) listener(exit);
        else exitListeners.push(listener);
      },
      async stop() {
        // Ends this call's session only: the resident host stays for the next call.
        endedHere = true;
        if (!exit) socket.end();
        const timer = setTimeout(() => socket.destroy(), 2000);
        await closed;
        clearTimeout(timer);
      },
    };
  }
}

/** The end of a session this call closed itself: the resident host runs on. */
function sessionEnded(info: ResidentInfo | undefined): HostExit {
  return { code: null, signal: null, output: `This call ended its session; the resident host${info?.pid ? ` (pid ${info.pid})` : ''} runs on.` };
}

/**
 * Why the connection closed: the exit of the resident host when this call started it (its signal is
 * known), else whether its process is gone. A resident host that lives on just ended this session.
 */
async function howItEnded(info: ResidentInfo | undefined, ended: ChildEnd | undefined): Promise<HostExit> {
  if (ended) {
    const exited = await Promise.race([ended, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000))]);
    if (exited) return exited;
  }
  if (info?.pid) {
    try {
      process.kill(info.pid, 0);
      return { code: null, signal: null, output: `The resident host (pid ${info.pid}) closed the connection and still runs.` };
    } catch {
      return { code: null, signal: null, output: `The resident host (pid ${info.pid}) is gone.` };
    }
  }
  return { code: null, signal: null };
}

/** `sharpclaw host stop`: asks every resident host of this state folder to shut down; returns the pids asked. */
export async function stopResidentHosts(): Promise<number[]> {
  const hosts = privateSubfolder(stateRoot(), 'hosts');
  const stopped: number[] = [];
  for (const name of fs.readdirSync(hosts).filter((entry) => entry.endsWith('.sock'))) {
    const socketPath = path.join(hosts, name);
    const socket = await connect(socketPath);
    if (!socket) {
      fs.rmSync(socketPath, { force: true });
      fs.rmSync(`${socketPath}.json`, { force: true });
      continue;
    }
    const connection = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket));
    connection.listen();
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    try {
      await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, clientInfo: { name: 'sharpclaw-host-stop' } });
      await connection.sendRequest('shutdown');
      connection.sendNotification('exit');
      stopped.push(readInfo(socketPath)?.pid ?? 0);
    } finally {
      await raceWithin<unknown>([closed], 3000);
      connection.dispose();
      socket.destroy();
    }
  }
  return stopped;
}
