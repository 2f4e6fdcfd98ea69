// The host-e2e layer's run (a mocha root-hook plugin, required by .mocharc.host-e2e.json):
// - its state folder: every CLI, MCP server and host process a test starts without a state folder of its
//   own keeps its stores, snapshots, locks, logs and resident host in one private temporary folder
//   (SHARPCLAW_STATE_DIR), removed when the file's tests end, after the resident hosts in it — never in
//   the person's own ~/.cache/sharpclaw/workspaces, which collected an entry per deleted test workspace.
//   The fixture cache (test/support/fixtures.ts) is resolved from the person's state folder first, so it
//   outlives the run.
// - a heartbeat: a test (or a before/after hook: a restore, a build) that runs past 30 s is named every
//   30 s, so a long step does not look like a hung run.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Context, Test } from 'mocha';
import { stateRootPath } from '../../src/engine/stateFolder';
import { removeTemporaryFolders, takeTemporaryFolders } from '../support/fixtures';
import { stopResidentHostsIn } from './support';

process.env.SHARPCLAW_TEST_FIXTURE_CACHE ??= path.join(stateRootPath(), 'test-fixtures');
const runState = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-host-e2e-state-'));
const inherited = process.env.SHARPCLAW_STATE_DIR;
process.env.SHARPCLAW_STATE_DIR = runState;

const heartbeatMs = 30_000;
/** How long a file's process may outlive its tests (mocha waits for every pending timer and socket). */
const lingerMs = 10_000;
/** What runs now and since when: a test, or the hooks between two tests. */
let current: { test?: Test; title: string; since: number } = { title: 'the first before hooks', since: Date.now() };
const heartbeat = setInterval(() => {
  // A test that has its state has ended (a synchronous step can end it just before this tick runs).
  if (current.test?.state) current = { title: `a before/after hook, after "${current.test.title}"`, since: Date.now() };
  const seconds = Math.round((Date.now() - current.since) / 1000);
  if (seconds * 1000 >= heartbeatMs) console.log(`      … still running after ${seconds} s: ${current.title}`);
}, heartbeatMs);
heartbeat.unref();

export const mochaHooks = {
  beforeEach(this: Context): void {
    current = { ...(this.currentTest ? { test: this.currentTest } : {}), title: this.currentTest?.fullTitle() ?? 'a test', since: Date.now() };
  },
  afterEach(this: Context): void {
    current = { title: `a before/after hook, after "${this.currentTest?.title ?? 'a test'}"`, since: Date.now() };
  },
  async afterAll(): Promise<void> {
    clearInterval(heartbeat);
    if (inherited === undefined) delete process.env.SHARPCLAW_STATE_DIR;
    else process.env.SHARPCLAW_STATE_DIR = inherited;
    // Folders a file's tests left (a missing clean-up, which /tmp collected run after run): named so it gets
    // fixed, and removed like the run's state folder, after the resident hosts in them (one still writing
    // its store or log would fail the removal or bring a folder back).
    const left = takeTemporaryFolders();
    if (left.length > 0) console.log(`      ⚠ this test file left ${left.length} temporary folder(s) without a clean-up (cleanUpCopies); removing them`);
    await stopResidentHostsIn([runState, ...left]);
    removeTemporaryFolders(left);
    fs.rmSync(runState, { recursive: true, force: true });
    // A file's tests are over: whatever still holds this process (a test's pending timer or socket) only delays
    // the run — by up to 5 minutes, seen in CI. Name it so it gets fixed, and end with mocha's exit code.
    setTimeout(() => {
      console.log(`      ⚠ this test file's process was still held ${lingerMs / 1000} s after its tests by: ${process.getActiveResourcesInfo().join(', ')}; exiting`);
      process.exit();
    }, lingerMs).unref();
  },
};
