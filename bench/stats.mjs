// Small helpers shared by the benchmarks.
import fs from 'node:fs';
import os from 'node:os';
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

/** The p50 a table shows (the lower middle sample for an even count): goals are judged on it, never on another middle. */
export function p50(values) {
  return percentile(values, 50);
}

/** p50/p95 of samples in the shared results format ({ p50_ms, p95_ms, n }). */
export function stats(values) {
  return { p50_ms: percentile(values, 50), p95_ms: percentile(values, 95), n: values.length };
}

/**
 * One row of bench/results/<name>.json: { measure, ours: { p50_ms, p95_ms }, baseline?: {...}, ratio_p50? }
 * plus any extra facts (goal, meets_goal, ...).
 */
export function row(measure, ours, baseline, extra = {}) {
  const result = { measure, ours: stats(ours) };
  if (baseline && baseline.length > 0) {
    result.baseline = stats(baseline);
    result.ratio_p50 = Number((result.ours.p50_ms / Math.max(result.baseline.p50_ms, 0.001)).toFixed(2));
  }
  return { ...result, ...extra };
}

/** Prints a result and keeps it in bench/results/<name>.json (its `rows` feed the tables of docs/benchmarks.md, scripts/bench-readme.mjs). */
export function report(name, result) {
  const stamped = { bench: name, date_utc: new Date().toISOString().slice(0, 16).replace('T', ' '), cores: os.cpus().length, load_average: os.loadavg()[0].toFixed(1), ...result };
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, `${name}.json`), JSON.stringify(stamped, null, 1));
  console.log(`[bench] ${name}`);
  for (const [key, value] of Object.entries(result)) {
    if (key === 'rows') for (const r of value) console.log(`[bench]   ${r.measure}: ${r.ours.p50_ms} / ${r.ours.p95_ms} ms${r.baseline ? ` (baseline ${r.baseline.p50_ms} / ${r.baseline.p95_ms} ms, x${r.ratio_p50})` : ''}`);
    else console.log(`[bench]   ${key}: ${Array.isArray(value) ? value.join(', ') : value}`);
  }
  return stamped;
}
