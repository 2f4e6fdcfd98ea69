// Issue 39 (the verifier at plain dotnet's cost): stopping the host must leave nothing that keeps
// the CLI's Node process alive. The stop raced the host's `shutdown` answer against a 2 s timer it
// never cleared, so every CLI command that had started the host (`sharpclaw verify`, `sharpclaw
// tool`) exited about 2 s after printing its answer: most of `verify --scope all`'s overhead over
// plain `dotnet build` + `dotnet test` on fixtures/VerificationGraph (bench/verify.mjs).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { StdioHostTransport } from '../../src/engine/host/hostProcess';
import { RecordingPolicy, serverDll, tempStateRoot } from './support';

/** Node's live timers, by kind (what keeps a process from exiting once its work is done). */
const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('stopping the real host', function () {
  this.timeout(120_000);

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
});
