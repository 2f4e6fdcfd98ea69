// scripts/zip-recompress.mjs, which rewrites the .vsix vsce wrote with harder deflate: a zip written
// the way vsce writes it (yazl) reads back with yauzl — the reader VS Code installs extensions with —
// with the same entries, contents, times and modes, and is smaller.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yazl = require('yazl') as any; // eslint-disable-line @typescript-eslint/no-explicit-any
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yauzl = require('yauzl') as any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface ReadEntry { name: string; data: Buffer; mode: number; time: number; method: number }

/** A zip as vsce writes one: yazl, zlib's default level. */
function writeWithYazl(files: Array<{ name: string; data: Buffer; mode: number; mtime: Date }>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const file of files) zip.addBuffer(file.data, file.name, { mode: file.mode, mtime: file.mtime });
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
    zip.end();
  });
}

/** Every entry, as yauzl reads it (CRC and sizes validated by yauzl). */
function readWithYauzl(zip: Buffer): Promise<ReadEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (error: Error | null, file: any) => { // eslint-disable-line @typescript-eslint/no-explicit-any
      if (error) return reject(error);
      const entries: ReadEntry[] = [];
      file.on('entry', (entry: any) => { // eslint-disable-line @typescript-eslint/no-explicit-any
        file.openReadStream(entry, (streamError: Error | null, stream: NodeJS.ReadableStream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('error', reject).on('end', () => {
            entries.push({ name: entry.fileName, data: Buffer.concat(chunks), mode: (entry.externalFileAttributes >>> 16) & 0o7777, time: entry.getLastModDate().getTime(), method: entry.compressionMethod });
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(entries)).on('error', reject);
      file.readEntry();
    });
  });
}

describe('the .vsix recompression (scripts/zip-recompress.mjs)', function () {
  this.timeout(120_000);

  it('keeps every entry, its content, time and mode, reads back with yauzl, and is smaller than vsce\'s zip', async () => {
    const recompress = await importEsm(path.join(repoRoot, 'scripts', 'zip-recompress.mjs'));
    const text = Buffer.from(Array.from({ length: 4000 }, (_, i) => `line ${i % 97}: ${'abcdefghij'.repeat(i % 7)}\n`).join(''));
    const random = crypto.randomBytes(20_000); // incompressible: stored
    const files = [
      { name: 'extension/package.json', data: Buffer.from('{"name":"x"}'), mode: 0o644, mtime: new Date(2026, 0, 2, 3, 4, 6) },
      { name: 'extension/dist/core.js', data: text, mode: 0o644, mtime: new Date(2025, 5, 6, 7, 8, 10) },
      { name: 'extension/dist/server/native.bin', data: random, mode: 0o755, mtime: new Date(2024, 11, 31, 23, 59, 58) },
      { name: 'extension/dist/empty.txt', data: Buffer.alloc(0), mode: 0o600, mtime: new Date(2026, 1, 1) },
      { name: 'extension/dist/ünïcode name.txt', data: Buffer.from('é'), mode: 0o644, mtime: new Date(2026, 1, 1) },
    ];
    const original = await writeWithYazl(files);
    const rewritten: Buffer = await recompress.recompressZip(original, { cache: false });

    const before = await readWithYauzl(original);
    const after = await readWithYauzl(rewritten);
    assert.deepEqual(after.map(({ name, data, mode, time }) => ({ name, data, mode, time })), before.map(({ name, data, mode, time }) => ({ name, data, mode, time })));
    assert.deepEqual(after.map((e) => e.name), files.map((f) => f.name));
    assert.equal(after.find((e) => e.name.endsWith('native.bin'))?.method, 0, 'incompressible content is stored');
    assert.ok(rewritten.length < original.length, `${rewritten.length} bytes after, ${original.length} before`);
  });

  it('refuses a damaged zip instead of writing a broken package', async () => {
    const recompress = await importEsm(path.join(repoRoot, 'scripts', 'zip-recompress.mjs'));
    const original = await writeWithYazl([{ name: 'a.txt', data: Buffer.from('hello hello hello hello'), mode: 0o644, mtime: new Date(2026, 0, 1) }]);
    const damaged = Buffer.from(original);
    damaged[40] ^= 0xff; // inside the deflated data of the only entry
    await assert.rejects(recompress.recompressZip(damaged, { cache: false }), /CRC|invalid|incorrect/i);
    await assert.rejects(recompress.recompressZip(Buffer.from('not a zip at all, just text'), { cache: false }), /not a zip file/);
  });
});
