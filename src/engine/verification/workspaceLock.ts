// The workspace lock (proper-lockfile): overlapping verifications of one workspace, in one
// process or several, run one after the other. A waiting run keeps trying until it gets the
// lock, its timeout passes or its caller cancels. The lock is a directory whose mtime the holder
// refreshes; one left by a killed process goes stale and is taken over — but only once the
// holder's whole process tree is gone: the holder records itself and its children's process
// groups in `verify.owner.json`, and while any of them runs the lock is not taken over.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as lockfile from 'proper-lockfile';
import { isAlive, liveProcessGroups, onProcessGroupsChanged, processIdentity, type ProcessIdentity } from './processTree';

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

interface LockOwner {
  owner: ProcessIdentity;
  groups: ProcessIdentity[];
}

export function lockOwnerPath(stateDir: string): string {
  return path.join(stateDir, 'verify.owner.json');
}

/** The holder of a lock left behind, while it or one of its children's process groups still runs. */
function liveForeignOwner(stateDir: string): LockOwner | undefined {
  if (!fs.existsSync(`${lockFilePath(stateDir)}.lock`)) return undefined;
  let recorded: LockOwner;
  try {
    recorded = JSON.parse(fs.readFileSync(lockOwnerPath(stateDir), 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
  if (recorded.owner?.pid === process.pid) return undefined; // Ours: proper-lockfile decides.
  const alive = isAlive(recorded.owner) || (recorded.groups ?? []).some((group) => isAlive(group, true));
  return alive ? recorded : undefined;
}

/** Records this process and its running children's groups as the holder, until `stop` is called. */
function recordOwner(stateDir: string): () => void {
  const file = lockOwnerPath(stateDir);
  const write = () => {
    try {
      // Recreated each time, never written through a link someone put in its place.
      fs.rmSync(file, { force: true });
      fs.writeFileSync(file, JSON.stringify({ owner: processIdentity(process.pid), groups: liveProcessGroups() } satisfies LockOwner), { flag: 'wx', mode: 0o600 });
    } catch {
      // Best effort: without the record, a stale lock is taken over by its age alone.
    }
  };
  write();
  const unsubscribe = onProcessGroupsChanged(write);
  return () => {
    unsubscribe();
    fs.rmSync(file, { force: true });
  };
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
    const foreign = liveForeignOwner(stateDir);
    try {
      if (foreign) throw Object.assign(new Error('held by a running process tree'), { code: 'ELOCKED' });
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
      const forgetOwner = recordOwner(stateDir);
      return {
        waitedMs: Date.now() - started,
        compromised: () => compromise,
        release: async () => {
          forgetOwner();
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
