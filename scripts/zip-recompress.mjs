// Rewrites a .zip (the .vsix vsce wrote) with every entry deflated harder: same entries, names,
// times and contents, a smaller file. vsce (yazl) deflates with Node's zlib at its default level;
// Zopfli (the @gfx/zopfli dev dependency, WebAssembly) writes deflate streams about 6 % smaller for
// the host's assemblies, which any unzip (and VS Code's installer) reads as usual; without it, zlib's
// level 9 (Node's zlib gains a fraction of a percent there). Used by scripts/package.mjs and its unit test.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';

const endOfCentralDirectory = 0x06054b50;
const centralEntry = 0x02014b50;
const localEntry = 0x04034b50;

/** CRC-32 of a buffer (zlib.crc32 from Node 20.15 on; a table otherwise). */
const crcTable = Int32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
const crc32 = zlib.crc32 ?? ((data) => {
  let c = -1;
  for (const byte of data) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
});

/** The entries of a zip without ZIP64 (a .vsix is far below 4 GiB), as their central-directory records say. */
export function readZipEntries(zip) {
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === endOfCentralDirectory) { end = at; break; }
  }
  if (end < 0) throw new Error('not a zip file: no end of central directory record');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== centralEntry) throw new Error(`zip central directory entry ${i} is damaged`);
    const method = zip.readUInt16LE(at + 10);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const entry = {
      versionMadeBy: zip.readUInt16LE(at + 4),
      flags: zip.readUInt16LE(at + 8) & 0x0800, // keep only "names are UTF-8"
      method,
      time: zip.readUInt16LE(at + 12),
      date: zip.readUInt16LE(at + 14),
      crc: zip.readUInt32LE(at + 16),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      internalAttributes: zip.readUInt16LE(at + 36),
      externalAttributes: zip.readUInt32LE(at + 38),
      name: zip.subarray(at + 46, at + 46 + nameLength),
    };
    const local = zip.readUInt32LE(at + 42);
    if (zip.readUInt32LE(local) !== localEntry) throw new Error(`zip entry ${entry.name} has no local header`);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataStart, dataStart + entry.compressedSize);
    if (method !== 0 && method !== 8) throw new Error(`zip entry ${entry.name} uses compression method ${method}`);
    entry.data = method === 8 ? zlib.inflateRawSync(raw) : Buffer.from(raw);
    if (entry.data.length !== entry.size || crc32(entry.data) !== entry.crc) throw new Error(`zip entry ${entry.name} does not match its CRC`);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Where Zopfli's package is, when it is installed. */
function zopfliPath() {
  try {
    return createRequire(import.meta.url).resolve('@gfx/zopfli');
  } catch {
    return undefined;
  }
}

/** Deflates in worker threads (Zopfli is slow: about 2 µs a byte), one per core, at most four. */
function zopfliPool(modulePath) {
  const size = Math.max(1, Math.min(4, os.availableParallelism()));
  const source = `
    const { parentPort } = require('node:worker_threads');
    const zopfli = require(${JSON.stringify(modulePath)});
    parentPort.on('message', async ({ id, data }) => {
      const out = await zopfli.deflateAsync(data, { numiterations: 1 });
      parentPort.postMessage({ id, out }, [out.buffer]);
    });`;
  const workers = [];
  const idle = [];
  const queue = [];
  const pending = new Map();
  let next = 0;
  const pump = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop();
      const job = queue.shift();
      pending.set(job.id, { ...job, worker });
      worker.ref(); // busy: keeps Node alive until its answer arrives
      worker.postMessage({ id: job.id, data: job.data });
    }
  };
  const start = () => {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(source, { eval: true });
      worker.on('message', ({ id, out }) => {
        const job = pending.get(id);
        pending.delete(id);
        worker.unref();
        idle.push(worker);
        job.resolve(Buffer.from(out.buffer, out.byteOffset, out.byteLength));
        pump();
      });
      worker.on('error', (error) => {
        for (const job of pending.values()) if (job.worker === worker) job.reject(error);
      });
      worker.unref(); // idle workers never keep Node alive (after the listeners, which would ref it again)
      workers.push(worker);
      idle.push(worker);
    }
  };
  return (data) => new Promise((resolve, reject) => {
    if (workers.length === 0) start();
    queue.push({ id: next++, data, resolve, reject });
    pump();
  });
}

/**
 * The deflater this machine has: its name and an async raw-deflate function. Zopfli (one iteration: five
 * more shrink the package by 0.2 % and take three times as long) when @gfx/zopfli is installed, else zlib's level 9.
 */
export function bestDeflater() {
  const modulePath = zopfliPath();
  if (modulePath) return { name: 'zopfli-1', deflate: zopfliPool(modulePath) };
  return { name: 'zlib-9', deflate: async (data) => zlib.deflateRawSync(data, { level: 9 }) };
}

/**
 * Deflated contents by deflater and SHA-256 of the content, kept in dist/.deflate-cache: the nine targets
 * share most files, and the host's assemblies change only with its packages.
 */
const cacheDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', '.deflate-cache');

async function deflateCached(data, deflater, cache) {
  if (!cache) return deflater.deflate(data);
  const file = path.join(cacheDir, `${deflater.name}-${crypto.createHash('sha256').update(data).digest('hex')}`);
  try {
    const cached = fs.readFileSync(file);
    if (zlib.inflateRawSync(cached).equals(data)) return cached;
  } catch {
    // not cached yet (or unreadable): deflate it
  }
  const deflated = await deflater.deflate(data);
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(`${file}.tmp`, deflated);
  fs.renameSync(`${file}.tmp`, file);
  return deflated;
}

/** The zip again, each entry deflated by `deflater` (or stored when deflating does not shrink it). */
export async function recompressZip(zip, { deflater = bestDeflater(), cache = true } = {}) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  const entries = readZipEntries(zip);
  const deflatedAll = await Promise.all(entries.map((entry) => deflateCached(entry.data, deflater, cache)));
  for (const [index, entry] of entries.entries()) {
    const deflated = deflatedAll[index];
    const method = deflated.length < entry.data.length ? 8 : 0;
    const body = method === 8 ? deflated : entry.data;
    const header = (signature, size) => {
      const b = Buffer.alloc(size);
      b.writeUInt32LE(signature, 0);
      return b;
    };
    const local = header(localEntry, 30);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(entry.time, 10);
    local.writeUInt16LE(entry.date, 12);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(entry.name.length, 26);
    const central = header(centralEntry, 46);
    central.writeUInt16LE(entry.versionMadeBy, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(entry.time, 12);
    central.writeUInt16LE(entry.date, 14);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(entry.name.length, 28);
    central.writeUInt16LE(entry.internalAttributes, 36);
    central.writeUInt32LE(entry.externalAttributes, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, entry.name, body);
    centrals.push(central, entry.name);
    offset += local.length + entry.name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(endOfCentralDirectory, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Recompresses the zip file in place; returns its sizes before and after and the deflater used. */
export async function recompressZipFile(file, deflater = bestDeflater()) {
  const before = fs.readFileSync(file);
  const after = await recompressZip(before, { deflater });
  readZipEntries(after); // the rewritten file reads back with every CRC intact
  fs.writeFileSync(file, after);
  return { before: before.length, after: after.length, deflater: deflater.name };
}
