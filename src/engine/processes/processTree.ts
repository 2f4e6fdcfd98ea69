// Ends a process and everything it started. Children are started as the leaders of their own
// process group (POSIX) so one signal reaches MSBuild nodes, test hosts and shell steps; the
// descendants found in /proc (or `ps`) are killed too, in case one of them left the group.
// On Windows, `taskkill /T /F` ends the tree. When this process dies without a chance to clean
// up (SIGKILL, SIGHUP of a terminal), a watchdog outside both (a tiny /bin/sh loop in its own
// session) kills each child's process group; the groups alive right now are published so the
// workspace lock is taken over only once its owner's whole tree is gone.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';

interface ProcessEntry {
  pid: number;
  ppid: number;
}

function listProcesses(): ProcessEntry[] {
  if (process.platform === 'linux') {
    const result: ProcessEntry[] = [];
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        result.push({ pid: Number(entry), ppid: Number(fields[1]) });
      } catch {
        // It ended while we looked.
      }
    }
    return result;
  }
  try {
    return execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim().split(/\s+/).map(Number))
      .filter((pair): pair is [number, number] => pair.length === 2 && pair.every((n) => Number.isInteger(n)))
      .map(([pid, ppid]) => ({ pid, ppid }));
  } catch {
    return [];
  }
}

/** Every process below `pid`, found by walking parent links. */
export function descendantPids(pid: number): number[] {
  const all = listProcesses();
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const child of all) {
      if (child.ppid === parent && !found.includes(child.pid)) {
        found.push(child.pid);
        queue.push(child.pid);
      }
    }
  }
  return found;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone, or not ours.
  }
}

/** Kills `pid`, its process group and every descendant, at once (SIGKILL). */
export function killProcessTree(pid: number): void {
  if (process.platform === 'win32') {
    try {
      execFileSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' });
    } catch {
      signal(pid, 'SIGKILL');
    }
    return;
  }
  const descendants = descendantPids(pid);
  signal(-pid, 'SIGKILL');
  signal(pid, 'SIGKILL');
  for (const child of descendants) signal(child, 'SIGKILL');
}

/** Process groups started by this module that are still running: killed when this process exits. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function trackProcessTree(pid: number): () => void {
  liveGroups.add(pid);
  const stopWatchdog = watchProcessGroup(pid);
  groupsChanged();
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const group of liveGroups) killProcessTree(group);
    });
  }
  return () => {
    stopWatchdog();
    liveGroups.delete(pid);
    groupsChanged();
  };
}

/**
 * For a child started as the leader of its own process group (a SharpClaw host): kills the group once this process
 * is gone (the watchdog), and returns the function to call when the leader has exited, which kills what is left of
 * its group at once — the evaluations and design-time builds a killed host started would otherwise run on, orphaned.
 */
export function bindProcessGroup(pid: number): () => void {
  const stopWatchdog = watchProcessGroup(pid);
  return () => {
    if (process.platform !== 'win32') signal(-pid, 'SIGKILL');
    stopWatchdog();
  };
}

/** A process as recorded by another one: its pid and (Linux) start time, so a recycled pid is not taken for it. */
export interface ProcessIdentity {
  pid: number;
  start?: string;
}

function startTime(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

export function processIdentity(pid: number): ProcessIdentity {
  const start = startTime(pid);
  return start === undefined ? { pid } : { pid, start };
}

/** Whether the recorded process (or, for a group leader, any process of its group) still runs. */
export function isAlive(identity: ProcessIdentity, group = false): boolean {
  try {
    process.kill(group ? -identity.pid : identity.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (group || identity.start === undefined) return true;
  return startTime(identity.pid) === identity.start;
}

const groupListeners = new Set<() => void>();

function groupsChanged(): void {
  for (const listener of groupListeners) listener();
}

/** The process groups of this process's running children, with their identities. */
export function liveProcessGroups(): ProcessIdentity[] {
  return [...liveGroups].map(processIdentity);
}

/** Called whenever a child process group starts or ends; returns the unsubscribe function. */
export function onProcessGroupsChanged(listener: () => void): () => void {
  groupListeners.add(listener);
  return () => groupListeners.delete(listener);
}

/**
 * Starts a watchdog that kills process group `group` as soon as this process is gone (POSIX). It
 * runs in its own session, so neither a SIGKILL of this process nor a terminal's SIGHUP reaches
 * it, and it ends by itself once the group is gone. Returns the function that stops it.
 */
export function watchProcessGroup(group: number, parent = process.pid): () => void {
  if (process.platform === 'win32') return () => undefined;
  const script = 'while kill -0 "$1" 2>/dev/null; do kill -0 -"$2" 2>/dev/null || exit 0; sleep 0.5; done; kill -KILL -"$2" 2>/dev/null';
  try {
    const watchdog = spawn('/bin/sh', ['-c', script, 'sharpclaw-watchdog', String(parent), String(group)], { detached: true, stdio: 'ignore' });
    watchdog.on('error', () => undefined);
    watchdog.unref();
    return () => {
      try {
        watchdog.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
  } catch {
    return () => undefined;
  }
}
