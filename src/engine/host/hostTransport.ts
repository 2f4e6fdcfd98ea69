// The seam between the host supervisor and the way a surface runs the Roslyn host: a transport
// starts one host process and returns a connection to it. Two implementations: JSON-RPC over
// stdio with vscode-jsonrpc (engine/host/hostProcess.ts: the CLI, the MCP server) and
// vscode-languageclient (surfaces/vscode/host/languageClientTransport.ts: document sync, output
// channels). Supervision (lazy start, crash budget, restart, host_exited) lives in the supervisor.
import { CancellationTokenSource, type CancellationToken } from 'vscode-jsonrpc';
import type { HostCallbackOptions } from './hostCallbacks';

/** How a host process ended. */
export interface HostExit {
  code: number | null;
  signal: string | null;
  /** The last lines the host wrote to stderr, when the transport keeps them. */
  output?: string;
}

export interface HostConnection {
  readonly pid: number;
  /** The host's log file (named in host_exited errors). */
  readonly logFile: string;
  /** Sends one request; aborting `signal` cancels it on the host ($/cancelRequest). */
  sendRequest(method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
  /** Called once, when the process has ended (whether stop() ended it or not). */
  onExit(listener: (exit: HostExit) => void): void;
  /** Asks the host to shut down, kills it if it does not, and resolves once it is gone. */
  stop(): Promise<void>;
}

export interface HostTransport {
  /**
   * Starts a host process, registers `callbacks` on its connection and resolves once it answered
   * `initialize`. Throws HostStartError when it cannot (permanent: no .NET, no host build).
   */
  start(callbacks: HostCallbackOptions): Promise<HostConnection>;
}

/** The host cannot be used now: it failed to start, or crashed too often (HostUnavailable). */
export class HostUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostUnavailableError';
  }
}

/** A start that failed. `permanent`: retrying cannot help until the person changes something. */
export class HostStartError extends HostUnavailableError {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** "was killed by SIGKILL" / "exited with code 3" / "closed its connection" (a resident host whose end this client cannot see). */
export function describeExit(exit: HostExit): string {
  return exit.signal ? `was killed by ${exit.signal}` : exit.code === null ? 'closed its connection' : `exited with code ${exit.code}`;
}

/** Runs `send` with a JSON-RPC cancellation token that follows `signal` ($/cancelRequest on abort). */
export async function withCancellation<T>(signal: AbortSignal, send: (token: CancellationToken) => Promise<T>): Promise<T> {
  const source = new CancellationTokenSource();
  const cancel = () => source.cancel();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  try {
    return await send(source.token);
  } finally {
    signal.removeEventListener('abort', cancel);
    source.dispose();
  }
}

/**
 * The first of `promises` to settle (its value, or its rejection), else undefined after `ms`. The timer is
 * cleared once the race is decided: a pending one would keep a CLI process alive that long after its answer.
 */
export async function raceWithin<T>(promises: Array<Promise<T>>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([...promises, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
