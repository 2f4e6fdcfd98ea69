// A first search whose index build would outlast the MCP call's wait (issue 39: "the first search answers
// from what is indexed so far when the build would pass the same deadline, and says so"), through a real
// MCP client, the stdio server and a real host. --load-wait 1 gives the host an answer time at the call's
// arrival (the wait minus mcpLoadWait.ts's margin is past), so its build stops after the first committed
// chunk (SyntaxIndex.ChunkFiles, 256 files) whatever the machine's speed; 400 files stay under the count
// at which the build reports progress, so the wait itself never answers `error loading` instead.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { temporaryFolder } from '../../support/fixtures';
import { cleanUpCopies, tempStateRoot } from '../support';
import { callOptions, connect, text, type Connected } from './mcpClient';

const files = 400;
const chunkFiles = 256;

describe('sharpclaw mcp: a first search past its answer time', function () {
  this.timeout(300_000);
  let connected: Connected | undefined;

  after(async () => {
    await connected?.client.close().catch(() => undefined);
    await cleanUpCopies();
  });

  it('answers from the files indexed so far and says so; the build goes on, and the next call sees every file', async () => {
    const workspace = temporaryFolder('partial-index');
    for (let i = 0; i < files; i++) {
      const folder = path.join(workspace, 'src', `Part${Math.floor(i / 100)}`);
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, `Many${String(i).padStart(4, '0')}.cs`), `namespace Many;\n\npublic class Many${String(i).padStart(4, '0')} { }\n`);
    }
    connected = await connect({ workspace, stateDir: tempStateRoot(), flags: ['--tools', 'all', '--load-wait', '1'] });
    // Starts the host and waits for it (capabilities never answers `loading`): the search below meets a running host.
    await connected.client.callTool({ name: 'lsp', arguments: { action: 'capabilities' } }, callOptions);

    const first = text(await connected.client.callTool({ name: 'symbol_search', arguments: { query: 'Many', kind: 'class', limit: 1 } }, callOptions));
    const lines = first.split('\n');
    assert.match(lines[0]!, /^syntax-only: /, first);
    assert.equal(lines[1], `partial: from ${chunkFiles} of ${files} C# files; the index build goes on (${files - chunkFiles} left), call again for every file.`, first);
    assert.match(first, new RegExp(`truncated: ${chunkFiles} declarations in total`), 'only the indexed files are searched');

    const second = text(await connected.client.callTool({ name: 'symbol_search', arguments: { query: 'Many', kind: 'class', limit: 1 } }, callOptions));
    assert.doesNotMatch(second, /^partial:/m, second);
    assert.match(second, new RegExp(`truncated: ${files} declarations in total`), second);
  });
});
