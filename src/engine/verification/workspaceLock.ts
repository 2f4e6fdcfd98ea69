// The workspace lock (proper-lockfile): overlapping verifications of one workspace, in one
// process or several, run one after the other. A waiting run keeps trying until it gets the
// lock, its timeout passes or its caller cancels. The lock is a directory whose mtime the holder
// refreshes; one left by a killed process goes stale and is taken over.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as lockfile from 'proper-lockfile';

export class LockWaitError extends Error {
  constructor(
    message: string,
    readonly outcome: 'timedOut' | 'cancelled',
  ) {
    super(message);
    this.name = 'LockWaitError';
  }
}

export interface WorkspaceLock {
  waitedMs: number;
  /** Set when the lock was taken away while held (its directory removed or gone stale). */
  compromised(): Error | undefined;
  release(): Promise<void>;
}

export interface AcquireOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Seconds without a refresh after which a lock is taken over (proper-lockfile's `stale`). */
  staleMs?: number;
  /** Called once when the lock is busy and this run starts waiting. */
  onWait?: () => void;
  pollMs?: number;
}

export function lockFilePath(stateDir: string): string {
  return path.join(stateDir, 'verify');
}

export async function acquireWorkspaceLock(stateDir: string, options: AcquireOptions): Promise<WorkspaceLock> {
  const file = lockFilePath(stateDir);
  if (!fs.existsSync(file)) fs.writeFileSync(file, '');
  const started = Date.now();
  const stale = Math.max(2000, options.staleMs ?? 10_000);
  let compromise: Error | undefined;
  let announced = false;
  for (;;) {
    if (options.signal?.aborted) throw new LockWaitError('Cancelled while waiting for another verification of this workspace to finish.', 'cancelled');
    try {
      const release = await lockfile.lock(file, {
        stale,
        update: Math.floor(stale / 4),
        realpath: false,
        retries: 0,
        onCompromised: (error) => {
          // The default throws from a timer, which would take down the extension host.
          compromise = error;
        },
      });
      return {
        waitedMs: Date.now() - started,
        compromised: () => compromise,
        release: async () => {
          try {
            await release();
          } catch (error) {
            compromise ??= error as Error;
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    }
    if (!announced) {
      announced = true;
      options.onWait?.();
    }
    const remaining = options.timeoutMs - (Date.now() - started);
    if (remaining <= 0) throw new LockWaitError(`Another verification of this workspace held the lock for the whole timeout (${Math.round(options.timeoutMs / 1000)} s).`, 'timedOut');
    await delay(Math.min(options.pollMs ?? 250, remaining), options.signal);
  }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
