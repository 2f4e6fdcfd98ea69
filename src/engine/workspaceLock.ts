// The one workspace lock: semantic writes (the Roslyn host, Semantic/Edits/WorkspaceLock.cs) and
// verification (this file, for the verifier) of one workspace run one after the other, in one
// process or several. Both sides implement the same primitive on the same path:
//
//   <workspace state folder>/workspace.lock  (src/engine/stateFolder.ts)
//   acquire   create the file exclusively (O_CREAT|O_EXCL, 0600: never follows a link) and write
//             "pid <pid>\nstart <start ticks|->\nhost <hostname>\npurpose <verify|write>\n"
//   busy      the file exists; a waiter polls until it can create it, its timeout or cancellation
//   stale     its holder is gone: same host name and no live process with that pid (and, on Linux,
//             that start time from /proc/<pid>/stat, so a reused pid does not count); a file without
//             readable content counts as stale once older than 5 s (its writer died mid-write)
//   take over under `workspace.lock.takeover` (created exclusively; ignored once older than 5 s):
//             re-read, and remove the lock only if it is still the same stale one
//   release   remove the file if it is still ours
//   children  a verifier holder also lists its running child process groups (builds, test hosts)
//             in `workspace.lock.groups`; while one of them runs, the lock is not stale even if
//             its holder was killed (their watchdog ends them moments later)
// A link in place of the lock file is refused, never followed or removed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAlive as isRunning, liveProcessGroups, onProcessGroupsChanged, type ProcessIdentity } from './processes/processTree';

export type LockPurpose = 'verify' | 'write';

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
  /** Set when the lock was taken away while held (its file removed or replaced). */
  compromised(): Error | undefined;
  release(): Promise<void>;
}

export interface AcquireOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** What the holder does, for the messages of waiters (default `verify`). */
  purpose?: LockPurpose;
  /** Called once when the lock is busy and this run starts waiting, with who holds it. */
  onWait?: (holder: string) => void;
  pollMs?: number;
}

interface Holder {
  pid: number;
  start: string;
  host: string;
  purpose: string;
}

const unreadableStaleMs = 5000;

export function workspaceLockPath(stateDir: string): string {
  return path.join(stateDir, 'workspace.lock');
}

export function lockGroupsPath(stateDir: string): string {
  return `${workspaceLockPath(stateDir)}.groups`;
}

export async function acquireWorkspaceLock(stateDir: string, options: AcquireOptions): Promise<WorkspaceLock> {
  const file = workspaceLockPath(stateDir);
  const purpose = options.purpose ?? 'verify';
  const started = Date.now();
  let announced = false;
  for (;;) {
    if (options.signal?.aborted) throw new LockWaitError('Cancelled while waiting for the workspace lock.', 'cancelled');
    const mine = tryCreate(file, purpose);
    if (mine) return held(file, mine, Date.now() - started, recordGroups(file));
    const holder = readHolder(file);
    if (isStale(file, holder)) {
      takeOver(file, holder);
      continue;
    }
    if (!announced) {
      announced = true;
      options.onWait?.(describe(holder));
    }
    const remaining = options.timeoutMs - (Date.now() - started);
    if (remaining <= 0) {
      throw new LockWaitError(`The workspace lock was held by ${describe(holder)} for the whole timeout (${Math.round(options.timeoutMs / 1000)} s); ${file}.`, 'timedOut');
    }
    await delay(Math.min(options.pollMs ?? 100, remaining), options.signal);
  }
}

/** "a verification by process 123" — who holds the lock, for messages. */
export function describe(holder: Holder | undefined): string {
  if (!holder) return 'another process';
  const what = holder.purpose === 'write' ? 'a semantic write' : holder.purpose === 'verify' ? 'a verification' : `'${holder.purpose}'`;
  return `${what} (process ${holder.pid}${holder.host === os.hostname() ? '' : ` on ${holder.host}`})`;
}

function tryCreate(file: string, purpose: LockPurpose): Holder | undefined {
  const me: Holder = { pid: process.pid, start: startTicks(process.pid), host: os.hostname(), purpose };
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      if (fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) {
        throw new Error(`${file} is a link; SharpClaw never opens its workspace lock through one. Remove it to go on.`);
      }
      return undefined;
    }
    throw error;
  }
  try {
    fs.writeSync(fd, format(me));
  } finally {
    fs.closeSync(fd);
  }
  return me;
}

/** Keeps `<lock>.groups` listing this holder's running child process groups until the returned stop. */
function recordGroups(file: string): () => void {
  const groups = `${file}.groups`;
  const write = () => {
    try {
      // Recreated each time (exclusive create), never written through a link put in its place.
      fs.rmSync(groups, { force: true });
      fs.writeFileSync(groups, JSON.stringify(liveProcessGroups()), { flag: 'wx', mode: 0o600 });
    } catch {
      // Best effort: without the record, staleness is decided by the holder alone.
    }
  };
  write();
  const unsubscribe = onProcessGroupsChanged(write);
  return () => {
    unsubscribe();
    fs.rmSync(groups, { force: true });
  };
}

/** Whether a child process group the (dead) holder recorded still runs. */
function holderChildrenRun(file: string): boolean {
  try {
    if (fs.lstatSync(`${file}.groups`).isSymbolicLink()) return false;
    const groups = JSON.parse(fs.readFileSync(`${file}.groups`, 'utf8')) as ProcessIdentity[];
    return Array.isArray(groups) && groups.some((group) => typeof group?.pid === 'number' && group.pid > 1 && isRunning(group, true));
  } catch {
    return false;
  }
}

function held(file: string, me: Holder, waitedMs: number, stopRecording: () => void): WorkspaceLock {
  let compromise: Error | undefined;
  let released = false;
  const check = () => {
    if (!compromise && !sameHolder(readHolder(file), me)) compromise = new Error(`${file} was removed or taken over while this process held it`);
    return compromise;
  };
  return {
    waitedMs,
    compromised: () => (released ? compromise : check()),
    release: async () => {
      if (released) return;
      stopRecording();
      if (!check()) fs.rmSync(file, { force: true });
      released = true;
    },
  };
}

function format(holder: Holder): string {
  return `pid ${holder.pid}\nstart ${holder.start}\nhost ${holder.host}\npurpose ${holder.purpose}\n`;
}

function readHolder(file: string): Holder | undefined {
  let text: string;
  try {
    if (fs.lstatSync(file).isSymbolicLink()) return undefined;
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const fields = new Map(text.split('\n').map((line) => [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)] as const));
  const pid = Number(fields.get('pid'));
  if (!Number.isInteger(pid) || pid <= 0 || !fields.has('purpose')) return undefined;
  return { pid, start: fields.get('start') ?? '-', host: fields.get('host') ?? '', purpose: fields.get('purpose')! };
}

function sameHolder(a: Holder | undefined, b: Holder): boolean {
  return a !== undefined && a.pid === b.pid && a.start === b.start && a.host === b.host;
}

function isStale(file: string, holder: Holder | undefined): boolean {
  if (!holder) {
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    return stat !== undefined && !stat.isSymbolicLink() && Date.now() - stat.mtimeMs > unreadableStaleMs;
  }
  if (holder.host !== os.hostname()) return false;
  if (!isAlive(holder.pid)) return !holderChildrenRun(file);
  const now = holder.start === '-' ? '-' : startTicks(holder.pid);
  return now !== '-' && now !== holder.start;
}

function takeOver(file: string, stale: Holder | undefined): void {
  const guard = `${file}.takeover`;
  const stat = fs.lstatSync(guard, { throwIfNoEntry: false });
  if (stat && Date.now() - stat.mtimeMs > unreadableStaleMs) fs.rmSync(guard, { force: true });
  let fd: number;
  try {
    fd = fs.openSync(guard, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
  } catch {
    return; // Another waiter is taking it over; try again.
  }
  try {
    const now = readHolder(file);
    const unchanged = stale ? now !== undefined && sameHolder(now, stale) : now === undefined;
    if (unchanged && isStale(file, now)) fs.rmSync(file, { force: true });
  } finally {
    fs.closeSync(fd);
    fs.rmSync(guard, { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Field 22 of /proc/<pid>/stat (Linux), '-' elsewhere or when unreadable. */
export function startTicks(pid: number): string {
  if (process.platform !== 'linux') return '-';
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '-';
  } catch {
    return '-';
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
