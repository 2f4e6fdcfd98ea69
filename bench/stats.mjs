// Small helpers shared by the benchmarks.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');

export function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return Number(value.toFixed(1));
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)].toFixed(1));
}

/** Prints a result and keeps it in bench/results/<name>.json (git-ignored). */
export function report(name, result) {
  const stamped = { name, at: new Date().toISOString(), ...result };
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, `${name}.json`), JSON.stringify(stamped, null, 1));
  console.log(`[bench] ${name}`);
  for (const [key, value] of Object.entries(result)) console.log(`[bench]   ${key}: ${Array.isArray(value) ? value.join(', ') : value}`);
  return stamped;
}
