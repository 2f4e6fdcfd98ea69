// Ends a process and everything it started. Children are started as the leaders of their own
// process group (POSIX) so one signal reaches MSBuild nodes, test hosts and shell steps; the
// descendants found in /proc (or `ps`) are killed too, in case one of them left the group.
// On Windows, `taskkill /T /F` ends the tree.
import { execFileSync } from 'node:child_process';
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
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const group of liveGroups) killProcessTree(group);
    });
  }
  return () => liveGroups.delete(pid);
}
