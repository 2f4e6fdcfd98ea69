// Package size: the .vsix `npm run package` builds for each VS Code platform target (compressed, as
// downloaded) and what it unpacks to (as installed), beside the single package before issue 18
// (satellite resource assemblies, PDBs and source maps included; measured once, on commit a3097d0,
// with the same vsce). Writes bench/results/package-size.json. Usage: node bench/package-size.mjs [--skip-build]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './stats.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mib = (bytes) => Number((bytes / 1024 / 1024).toFixed(2));
/** The package on a3097d0 (before issue 18): 224 files. */
const before = { vsixBytes: 17_893_348, unpackedBytes: 50_590_319, files: 224 };

export async function benchPackageSize({ skipBuild = process.argv.includes('--skip-build') } = {}) {
  const { packageExtension, maxVsixBytesFor, targets } = await import(path.join(repoRoot, 'scripts', 'package.mjs'));
  const rows = [];
  const deflaters = new Set();
  for (const [index, target] of targets.entries()) {
    const { vsix, bytes, deflater } = await packageExtension({ skipBuild: skipBuild || index > 0, target, enforceBudget: false, release: true });
    deflaters.add(deflater);
    // What the package unpacks to: the listed files plus the manifest files vsce adds.
    const listing = execFileSync('unzip', ['-l', vsix], { encoding: 'utf8' }).trim().split('\n');
    const [, unpacked, count] = /^\s*(\d+)\s+(\d+) files$/.exec(listing.at(-1)) ?? [];
    const unpackedBytes = Number(unpacked);
    rows.push(
      { measure: `${target}: .vsix as downloaded (${count} entries; before: ${before.files})`, ours: { mib: mib(bytes) }, baseline: { mib: mib(before.vsixBytes) }, ratio: Number((bytes / before.vsixBytes).toFixed(2)), goal: `≤ ${maxVsixBytesFor(target) / 1024 / 1024} MiB (the guard)`, meets_goal: bytes <= maxVsixBytesFor(target) },
      { measure: `${target}: installed (unpacked)`, ours: { mib: mib(unpackedBytes) }, baseline: { mib: mib(before.unpackedBytes) }, ratio: Number((unpackedBytes / before.unpackedBytes).toFixed(2)) },
    );
  }
  return report('package-size', { solution: `sharpclaw-TARGET-0.1.0.vsix for ${targets.length} platform targets (\`npm run package -- --target all\`, deflated with ${[...deflaters].join(', ')})`, rows });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPackageSize();
