// Issue 39 (the verifier at plain dotnet's cost): stopping the host must leave nothing that keeps
// the CLI's Node process alive. The stop raced the host's `shutdown` answer against a 2 s timer it
// never cleared, so every CLI command that had started the host (`sharpclaw verify`, `sharpclaw
// tool`) exited about 2 s after printing its answer: most of `verify --scope all`'s overhead over
// plain `dotnet build` + `dotnet test` on fixtures/VerificationGraph (bench/verify.mjs).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { HostExit } from '../../src/engine/host/hostTransport';
import { StdioHostTransport } from '../../src/engine/host/hostProcess';
import { ResidentHostTransport } from '../../src/engine/host/residentHost';
import { cleanUpCopies, RecordingPolicy, residentHosts, serverDll, tempStateRoot } from './support';

/** Node's live timers, by kind (what keeps a process from exiting once its work is done). */
const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('stopping the real host', function () {
  this.timeout(120_000);
  after(cleanUpCopies);

  it('leaves no timer behind that would keep the CLI alive after its answer', async () => {
    assert.ok(fs.existsSync(serverDll), `${serverDll} is missing: run "npm run build"`);
    const transport = new StdioHostTransport({ serverDll, logDirectory: tempStateRoot() });
    const connection = await transport.start({ workspaceFolder: tempStateRoot(), permissions: new RecordingPolicy(false), requestedBy: () => 'test', onProgress: () => undefined });
    await connection.sendRequest('sharpclaw/status', {}, new AbortController().signal);
    const before = timers();
    await connection.stop();
    // The host answered `shutdown` and exited: nothing of the stop may still be pending.
    assert.equal(timers(), before, `timers still pending after stop: ${process.getActiveResourcesInfo().join(', ')}`);
  });

  // The same for the resident host a CLI call starts: its session's end waited up to 1 s for that host's exit,
  // which never comes (it stays for the next call), so such a call exited 1 s after its answer (bench/verify.mjs:
  // the first verify on a new state folder spent 1.04 s from its last test to its exit, a warm one 20-60 ms).
  it('ends the session of a call that started the resident host without waiting for that host to exit, and leaves it running', async () => {
    const stateDir = tempStateRoot();
    const previous = process.env.SHARPCLAW_STATE_DIR;
    process.env.SHARPCLAW_STATE_DIR = stateDir;
    try {
      const transport = new ResidentHostTransport({ serverDll, logDirectory: stateDir, idleSeconds: 20 });
      const connection = await transport.start({ workspaceFolder: tempStateRoot(), permissions: new RecordingPolicy(false), requestedBy: () => 'test', onProgress: () => undefined });
      const [pid] = residentHosts(stateDir);
      assert.ok(pid, 'this call started a resident host');
      await connection.sendRequest('sharpclaw/status', {}, new AbortController().signal);
      let ended: HostExit | undefined;
      connection.onExit((exit) => (ended = exit));
      await connection.stop();
      assert.equal(ended?.output, `This call ended its session; the resident host (pid ${pid}) runs on.`);
      process.kill(pid, 0); // throws when the resident host is gone (the clean-up stops it)
    } finally {
      if (previous === undefined) delete process.env.SHARPCLAW_STATE_DIR;
      else process.env.SHARPCLAW_STATE_DIR = previous;
    }
  });
});
