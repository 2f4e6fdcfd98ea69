// The bounded reader (src/engine/files/boundedRead.ts) on real special files in a temporary folder:
// a FIFO nobody writes to, a socket, /dev/zero behind a link, a folder — each refused at once with
// a FileReadError naming the file and its type; a file over the bound refused by size; a missing
// file is undefined; a /proc file whose size says 0 is still read whole.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileReadError, readBoundedText } from '../../src/engine/files/boundedRead';

const options = { maxBytes: 1024, what: 'settings' };
const refused = (problem: string, pattern: RegExp) => (error: unknown) => error instanceof FileReadError && error.code === 'invalid_request' && error.problem === problem && pattern.test(error.message);

describe('readBoundedText', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bounded-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file, and answers undefined for a missing one', () => {
    fs.writeFileSync(path.join(dir, 'a.jsonc'), '{ "a": 1 }');
    assert.equal(readBoundedText(path.join(dir, 'a.jsonc'), options), '{ "a": 1 }');
    assert.equal(readBoundedText(path.join(dir, 'missing.jsonc'), options), undefined);
  });

  it('refuses a FIFO without waiting for a writer', () => {
    const fifo = path.join(dir, 'fifo.jsonc');
    execFileSync('mkfifo', [fifo]);
    assert.throws(() => readBoundedText(fifo, options), refused('special_file', /fifo\.jsonc is a FIFO, not a regular file; SharpClaw reads settings only from a regular file of at most 1 KiB\./));
  });

  it('refuses a link to /dev/zero, a socket and a folder, naming what each is', async () => {
    fs.symlinkSync('/dev/zero', path.join(dir, 'zero.jsonc'));
    assert.throws(() => readBoundedText(path.join(dir, 'zero.jsonc'), options), refused('special_file', /zero\.jsonc is a character device, not a regular file/));
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(dir, 'socket.jsonc'), resolve));
    try {
      assert.throws(() => readBoundedText(path.join(dir, 'socket.jsonc'), options), refused('special_file', /socket\.jsonc is a socket, not a regular file/));
    } finally {
      server.close();
    }
    fs.mkdirSync(path.join(dir, 'folder.jsonc'));
    assert.throws(() => readBoundedText(path.join(dir, 'folder.jsonc'), options), refused('special_file', /folder\.jsonc is a folder, not a regular file/));
  });

  it('reads up to the bound and refuses one byte more, by size', () => {
    fs.writeFileSync(path.join(dir, 'full'), 'x'.repeat(1024));
    assert.equal(readBoundedText(path.join(dir, 'full'), options)!.length, 1024);
    fs.writeFileSync(path.join(dir, 'over'), 'x'.repeat(1025));
    assert.throws(() => readBoundedText(path.join(dir, 'over'), options), refused('too_large', /over is larger than 1 KiB \(1025 bytes\); SharpClaw reads settings files up to 1 KiB\./));
  });

  it('reads a file whose size says 0 (a /proc file) to its end, within the bound', () => {
    const text = readBoundedText('/proc/self/status', { maxBytes: 1024 * 1024, what: 'status' });
    assert.match(text ?? '', /^Name:/);
    assert.throws(() => readBoundedText('/proc/self/status', { maxBytes: 16, what: 'status' }), refused('too_large', /status is larger than/));
  });

  it('with links refused, refuses a link to a regular file and reads the file itself', () => {
    fs.writeFileSync(path.join(dir, 'real.json'), '{}');
    fs.symlinkSync(path.join(dir, 'real.json'), path.join(dir, 'link.json'));
    assert.equal(readBoundedText(path.join(dir, 'link.json'), options), '{}', 'links are followed by default');
    assert.throws(() => readBoundedText(path.join(dir, 'link.json'), { ...options, links: 'refuse' }), refused('link', /link\.json is a link; SharpClaw reads settings only from a regular file, not through a link\./));
    assert.equal(readBoundedText(path.join(dir, 'real.json'), { ...options, links: 'refuse' }), '{}');
  });
});
