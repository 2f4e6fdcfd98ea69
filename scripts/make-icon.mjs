// Draws media/icon.png (128×128): three claw marks over a C#-purple rounded square. Run once
// when the design changes; the PNG is committed.
import fs from 'node:fs';
import zlib from 'node:zlib';

const size = 128;
const pixels = Buffer.alloc(size * size * 4);
const inRoundedSquare = (x, y, r = 22) => {
  const cx = Math.min(Math.max(x, r), size - 1 - r);
  const cy = Math.min(Math.max(y, r), size - 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const distanceToSegment = (px, py, ax, ay, bx, by) => {
  const t = Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return Math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay)));
};
const claws = [[30, 100, 62, 24], [52, 106, 84, 30], [74, 112, 104, 40]];
for (let y = 0; y < size; y++) {
  for (let x = 0; x < size; x++) {
    const i = (y * size + x) * 4;
    if (!inRoundedSquare(x, y)) continue;
    const shade = 1 - y / size / 3;
    let [r, g, b] = [81 * shade, 43 * shade, 212 * shade];
    const d = Math.min(...claws.map(([ax, ay, bx, by]) => distanceToSegment(x, y, ax, ay, bx, by)));
    const ink = Math.max(0, Math.min(1, 7 - d));
    r = r * (1 - ink) + 255 * ink; g = g * (1 - ink) + 255 * ink; b = b * (1 - ink) + 255 * ink;
    pixels.set([r, g, b, 255].map(Math.round), i);
  }
}
const raw = Buffer.alloc((size * 4 + 1) * size);
for (let y = 0; y < size; y++) pixels.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc = (buf) => { let c = 0xffffffff; for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
const chunk = (type, data) => {
  const length = Buffer.alloc(4); length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const sum = Buffer.alloc(4); sum.writeUInt32BE(crc(body));
  return Buffer.concat([length, body, sum]);
};
const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0); header.writeUInt32BE(size, 4); header[8] = 8; header[9] = 6;
fs.writeFileSync('media/icon.png', Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0)),
]));
