// Runs one child process for verification through execa: its own process group, the requested
// timeout, the caller's cancellation, and a bounded copy of its output. A timeout and a
// cancellation are different outcomes, and both kill the whole process tree.
import { BoundedLog, type BoundedLogSnapshot } from './boundedLog';
import { loadExeca } from './execaLoader';
import { killProcessTree, trackProcessTree } from '../processes/processTree';

export type ProcessOutcomeKind = 'exited' | 'timedOut' | 'cancelled' | 'failedToStart';

export interface ProcessOutcome {
  kind: ProcessOutcomeKind;
  /** null when the process did not exit by itself (killed, never started). */
  exitCode: number | null;
  signal: string | null;
  startedAt: string;
  durationMs: number;
  log: BoundedLogSnapshot;
  /** Why it could not start (ENOENT, EACCES, ...). */
  startError?: string;
  pid?: number;
}

export interface RunProcessOptions {
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  env?: Record<string, string>;
  /** Every complete output line (stdout and stderr), as it arrives. */
  onLine?: (line: string) => void;
  /** Called once the process has started. */
  onStart?: (pid: number) => void;
}

/** Environment for dotnet children: parseable English output, no banners, no lingering nodes. */
export const dotnetEnvironment: Record<string, string> = {
  DOTNET_NOLOGO: '1',
  DOTNET_CLI_TELEMETRY_OPTOUT: '1',
  DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1',
  DOTNET_GENERATE_ASPNET_CERTIFICATE: 'false',
  DOTNET_CLI_UI_LANGUAGE: 'en',
  MSBUILDDISABLENODEREUSE: '1',
  DOTNET_CLI_DO_NOT_USE_MSBUILD_SERVER: '1',
  NO_COLOR: '1',
};

export type ProcessRunner = (file: string, args: readonly string[], options: RunProcessOptions) => Promise<ProcessOutcome>;

export async function runProcess(file: string, args: readonly string[], options: RunProcessOptions): Promise<ProcessOutcome> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const log = new BoundedLog();
  const finish = (kind: ProcessOutcomeKind, exitCode: number | null, signal: string | null, extra: Partial<ProcessOutcome> = {}): ProcessOutcome => ({
    kind,
    exitCode,
    signal,
    startedAt,
    durationMs: Math.round(performance.now() - started),
    log: log.snapshot(),
    ...extra,
  });
  if (options.signal?.aborted) return finish('cancelled', null, null);

  const { execa } = await loadExeca();
  const child = execa(file, args, {
    cwd: options.cwd,
    env: { ...options.env },
    extendEnv: true,
    stdin: 'ignore',
    buffer: false,
    reject: false,
    detached: process.platform !== 'win32',
    windowsHide: true,
    cleanup: true,
    encoding: 'utf8',
  });

  let stopReason: 'timedOut' | 'cancelled' | undefined;
  const stop = (reason: 'timedOut' | 'cancelled') => {
    if (stopReason) return;
    stopReason = reason;
    if (child.pid !== undefined) killProcessTree(child.pid);
  };
  const untrack = child.pid !== undefined ? trackProcessTree(child.pid) : () => undefined;
  if (child.pid !== undefined) options.onStart?.(child.pid);
  const timer = setTimeout(() => stop('timedOut'), Math.max(1, options.timeoutMs));
  const onAbort = () => stop('cancelled');
  options.signal?.addEventListener('abort', onAbort, { once: true });

  let pending = '';
  const onData = (chunk: string | Buffer) => {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    log.append(text);
    if (!options.onLine) return;
    pending += text;
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? '';
    for (const line of lines) options.onLine(line);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);

  try {
    const result = await child;
    if (pending && options.onLine) options.onLine(pending);
    if (stopReason) return finish(stopReason, null, result.signal ?? 'SIGKILL', { pid: child.pid });
    const startError = result.failed && result.exitCode === undefined && !result.signal ? (result.cause instanceof Error ? result.cause.message : result.shortMessage) : undefined;
    if (startError) return finish('failedToStart', null, null, { startError });
    return finish('exited', result.exitCode ?? null, result.signal ?? null, { pid: child.pid });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    untrack();
  }
}

export function quoteArgument(arg: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The command line as a person would type it, for reports. */
export function commandLine(file: string, args: readonly string[]): string {
  return [file, ...args].map(quoteArgument).join(' ');
}
