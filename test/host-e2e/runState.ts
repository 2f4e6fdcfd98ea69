// The host-e2e layer's state folder (a mocha root-hook plugin, required by .mocharc.host-e2e.json): every
// CLI, MCP server and host process a test starts without a state folder of its own keeps its stores,
// snapshots, locks, logs and resident host in one private temporary folder (SHARPCLAW_STATE_DIR), removed
// when the layer ends (a resident host ends once its socket file is gone with it) — never in the person's
// own ~/.cache/sharpclaw/workspaces, which collected an entry per deleted test workspace. The fixture cache
// (test/support/fixtures.ts) is resolved from the person's state folder before that, so it outlives the run.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stateRootPath } from '../../src/engine/stateFolder';

process.env.SHARPCLAW_TEST_FIXTURE_CACHE ??= path.join(stateRootPath(), 'test-fixtures');
const runState = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-host-e2e-state-'));
const inherited = process.env.SHARPCLAW_STATE_DIR;
process.env.SHARPCLAW_STATE_DIR = runState;

export const mochaHooks = {
  afterAll(): void {
    if (inherited === undefined) delete process.env.SHARPCLAW_STATE_DIR;
    else process.env.SHARPCLAW_STATE_DIR = inherited;
    fs.rmSync(runState, { recursive: true, force: true });
  },
};
