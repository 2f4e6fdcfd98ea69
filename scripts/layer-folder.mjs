// A test layer's own folder (server, host-e2e; the VS Code layers use only its tmp/), removed with everything in it when the layer ends:
// - state/ (the server layer's): every host its xunit tests start in memory or as a process without a state folder of their own
//   keeps its stores, snapshots, locks and journals here (server/tests' TestRunState.cs takes it from
//   SHARPCLAW_TEST_STATE_DIR). The test process used to remove it on its own exit while its last hosts'
//   background work still wrote into it, and a write after the removal brought the folder back: left in
//   /tmp by 3 of 10 runs (2026-12-06/07).
// - tmp/: the layer's temporary folder (TMPDIR, which .NET, MSBuild and NuGet follow): what the tests'
//   processes leave there is not cleaned by anyone — one run left 83 entries in /tmp (2026-12-07): the
//   runtime's diagnostic sockets and debugger pipes of processes the tests killed, MSBuild's temporary
//   folders, and empty folders. (Named pipes stay in /tmp whatever TMPDIR says: Roslyn's build host leaves
//   one socket per MSBuildWorkspace load there, 17 a run, which this does not catch.)
// Removed only once no process the layer started is left — those carrying the layer's mark, the
// SHARPCLAW_TEST_CPU_LAYER entry scripts/test.mjs gives each layer's processes — so nothing can write into it again.
// The integration harness removes each suite's folder the same way, its sessions' SHARPCLAW_STATE_DIR as the mark
// (scripts/testbed/run-integration.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A new private folder (0700) for one run of a layer: its root, its state folder, and the environment the
 * layer runs in. Short (`/tmp/sc-host-e2e-XXXXXX/tmp`, 23 bytes more than `/tmp`): a resident host's socket
 * in a state folder under the temporary folder must stay within 100 bytes (src/engine/host/hostLaunch.ts).
 */
export function createLayerFolder(layer) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `sc-${layer}-`));
  const state = path.join(root, 'state');
  const temp = path.join(root, 'tmp');
  fs.mkdirSync(state, { mode: 0o700 });
  fs.mkdirSync(temp, { mode: 0o700 });
  return { root, state, env: { TMPDIR: temp } };
}

/** The ids of the live processes whose environment has `mark` (`NAME=value`; Linux reads /proc, elsewhere none can be seen). */
export function processesMarked(mark) {
  if (os.platform() !== 'linux') return [];
  const entry = `\0${mark}\0`;
  const pids = [];
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (`\0${fs.readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(entry)) pids.push(Number(pid));
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
 * Removes the layer's folder once its processes (those whose environment has `mark`) are gone: it waits up
 * to `waitMs` for them to end on their own (a host finishing its last write), then ends those still there
 * (the layer is over; they are its leftovers) and removes the folder. Returns the command lines of the
 * processes it had to end, so the test that left them can be found.
 */
export async function removeLayerFolder(root, { mark, waitMs = 20_000 }) {
  const deadline = Date.now() + waitMs;
  let left = processesMarked(mark);
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(100);
    left = processesMarked(mark);
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
  while (processesMarked(mark).length > 0 && Date.now() < killDeadline) await sleep(50);
  // Retries: on Windows a process that just ended may hold a file for a moment.
  fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  return ended;
}
