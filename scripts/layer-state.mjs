// The server layer's state folder: every host its xunit tests start in memory or as a process without a
// state folder of their own keeps its stores, snapshots, locks and journals here (server/tests'
// TestRunState.cs takes it from SHARPCLAW_TEST_STATE_DIR). The layer, not the test process, removes it:
// the test process removed it on its own exit while its last hosts' background work (a snapshot written
// beside a compile, an evaluation's output) still wrote into it, and a write that came after the removal
// brought the folder back — left in /tmp by 2 of 5 runs (2026-12-07). Removed here only once no process
// that carries the folder in its environment is left, so nothing can write into it again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The variable that names the folder to the layer's processes; every process the layer starts inherits it. */
export const layerStateVariable = 'SHARPCLAW_TEST_STATE_DIR';

/** A new private folder (0700) for one run of a layer. */
export function createLayerState(layer) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `sharpclaw-tests-state-${layer}-`));
}

/** The ids of the live processes whose environment names `folder` (Linux reads /proc; elsewhere none can be seen). */
export function processesUsing(folder) {
  if (os.platform() !== 'linux') return [];
  const entry = `${layerStateVariable}=${folder}\0`;
  const pids = [];
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (`\0${fs.readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(`\0${entry}`)) pids.push(Number(pid));
    } catch {
      // Gone between the listing and the read, or not ours to read.
    }
  }
  return pids;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A process's command line, shortened for a line of output. */
function commandOf(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ').slice(0, 160);
  } catch {
    return '(gone)';
  }
}

/**
 * Removes the layer's state folder once its processes are gone: it waits up to `waitMs` for them to end
 * on their own (a host finishing its last write), then ends those still there (the layer is over; they
 * are its leftovers) and removes the folder. Returns the command lines of the processes it had to end,
 * so the test that left them can be found.
 */
export async function removeLayerState(folder, { waitMs = 20_000 } = {}) {
  const deadline = Date.now() + waitMs;
  let left = processesUsing(folder);
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(100);
    left = processesUsing(folder);
  }
  const ended = left.map((pid) => `${pid}: ${commandOf(pid)}`);
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Ended meanwhile.
    }
  }
  const killDeadline = Date.now() + 10_000;
  while (processesUsing(folder).length > 0 && Date.now() < killDeadline) await sleep(50);
  // Retries: on Windows a process that just ended may hold a file for a moment.
  fs.rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  return ended;
}
