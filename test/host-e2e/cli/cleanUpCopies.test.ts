// The test support's own clean-up (support.ts cleanUpCopies): a CLI call leaves its resident host running
// in the test's state folder, and that host writes its store after a load. The clean-up stops it before it
// removes the folder; removing the folder under a host still writing failed a run with ENOTEMPTY.
// The real CLI and host on fixtures/VerificationUnrestored (verify stops at the missing restore).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { alive, cleanUpCopies, copyFixture, residentHosts, runCli, tempStateRoot } from '../support';

describe('cleanUpCopies: the resident hosts of the state folders it removes', function () {
  this.timeout(120_000);

  it('stops a resident host a CLI call left running before it removes its state folder', async () => {
    const workspace = copyFixture('VerificationUnrestored');
    const state = tempStateRoot();
    const result = await runCli(['verify', '--scope', 'build', '--target', 'Unrestored/Unrestored.csproj', '--allow-shell', '--output-format', 'json'], { cwd: workspace, env: { SHARPCLAW_STATE_DIR: state } });
    const status = (JSON.parse(result.stdout) as { data?: { status?: string } }).data?.status;
    assert.equal(status, 'missingPrerequisites', result.stdout + result.stderr);
    const pids = residentHosts(state);
    assert.equal(pids.length, 1, `one resident host in the state folder after the call: ${JSON.stringify(pids)}`);
    assert.ok(alive(pids[0]!), 'the resident host outlives the call');

    await cleanUpCopies();

    assert.ok(!alive(pids[0]!), 'the resident host still runs after the clean-up');
    assert.ok(!fs.existsSync(state), 'the state folder is gone');
    assert.ok(!fs.existsSync(workspace), 'the copy is gone');
  });
});
