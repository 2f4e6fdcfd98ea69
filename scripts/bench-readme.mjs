// Regenerates the benchmark tables of docs/benchmarks.md from bench/results/NAME.json (written by `npm run bench`).
// Every block between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` in docs/benchmarks.md is replaced by the
// table of NAME.json; nothing in those blocks is edited by hand. Usage: node scripts/bench-readme.mjs [--check]
// (--check: exit 1 when docs/benchmarks.md is not what the results give, without writing).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchmarksPath = path.join(repoRoot, 'docs', 'benchmarks.md');
const resultsDir = path.join(repoRoot, 'bench', 'results');

const ms = (value) => (value === undefined || value < 0 ? '—' : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`);
const side = (stats) => (!stats ? '—' : stats.mib !== undefined ? `${stats.mib} MiB` : stats.mb !== undefined ? `${stats.mb} MB` : stats.p50_ms === stats.p95_ms || stats.n === 1 ? ms(stats.p50_ms) : `${ms(stats.p50_ms)} / ${ms(stats.p95_ms)}`);
const ratio = (row) => (row.ratio_p50 !== undefined ? `×${row.ratio_p50.toFixed(2)}` : row.ratio !== undefined ? `×${row.ratio.toFixed(2)}` : '—');
const extra = (row) => (row.ours?.p50_ms !== undefined && row.baseline?.p50_ms !== undefined ? `${row.ours.p50_ms >= row.baseline.p50_ms ? '+' : '−'}${ms(Math.abs(row.ours.p50_ms - row.baseline.p50_ms))}` : '—');
const met = (row) => (row.meets_goal === undefined ? '' : row.meets_goal ? ' ✓' : ' ✗');

function facts(result) {
  const parts = [`${result.cores} cores`, result.load_average ? `load average ${result.load_average} at the start` : null, result.gc ? `${result.gc} GC` : null, result.iterations ? `${result.iterations} iterations per side` : null, result.date_utc ? `${result.date_utc} UTC` : null];
  return `_${[result.solution, ...parts].filter(Boolean).join('; ')}._`;
}

function table(result) {
  const rows = result.rows ?? [];
  if (rows.some((r) => r.size !== undefined)) return sizesTable(result);
  const tokens = rows.some((r) => r.answer_tokens !== undefined);
  const same = rows.some((r) => r.same_answer !== undefined);
  const lines = [
    `| Measure | Ours (p50 / p95) | Baseline in the same run (p50 / p95) | Ratio p50 | Ours − baseline p50 | Goal |${tokens ? ' Answer tokens |' : ''}${same ? ' Same answer |' : ''}`,
    `| --- | ---: | ---: | ---: | ---: | --- |${tokens ? ' ---: |' : ''}${same ? ' :---: |' : ''}`,
  ];
  for (const r of rows) {
    lines.push(`| ${r.measure} | ${side(r.ours)} | ${side(r.baseline)} | ${ratio(r)} | ${extra(r)} | ${r.goal ?? ''}${met(r)} |${tokens ? ` ${r.answer_tokens ?? ''} |` : ''}${same ? ` ${r.same_answer === undefined ? '' : r.same_answer ? 'yes' : `**no** (${r.answer})`} |` : ''}`);
  }
  return [facts(result), '', ...lines].join('\n');
}

function sizesTable(result) {
  const sizes = [...new Set(result.rows.map((r) => r.size))].sort((a, b) => a - b);
  const kinds = [...new Set(result.rows.map((r) => r.kind))];
  const lines = [`| Projects | ${kinds.join(' | ')} |`, `| ---: | ${kinds.map(() => '---').join(' | ')} |`];
  for (const size of sizes) {
    const cells = kinds.map((kind) => {
      const r = result.rows.find((x) => x.size === size && x.kind === kind);
      return r ? `${side(r.ours)} vs ${side(r.baseline)} (${ratio(r)})${met(r)}` : '—';
    });
    lines.push(`| ${size} | ${cells.join(' | ')} |`);
  }
  return [facts(result), '', 'Each cell: ours vs the direct Roslyn baseline measured in the same run (ratio).', '', ...lines].join('\n');
}

const document = fs.readFileSync(benchmarksPath, 'utf8');
const missing = [];
const updated = document.replace(/<!-- bench:([\w-]+) -->[\s\S]*?<!-- \/bench:\1 -->/g, (block, name) => {
  const file = path.join(resultsDir, `${name}.json`);
  if (!fs.existsSync(file)) {
    missing.push(name);
    return block;
  }
  return `<!-- bench:${name} -->\n${table(JSON.parse(fs.readFileSync(file, 'utf8')))}\n<!-- /bench:${name} -->`;
});
if (missing.length > 0) console.error(`No results for: ${missing.join(', ')} (run npm run bench -- --only ${missing.join(',')})`);
if (process.argv.includes('--check')) {
  if (updated !== document) {
    console.error('docs/benchmarks.md tables differ from bench/results/*.json; run node scripts/bench-readme.mjs');
    process.exit(1);
  }
} else if (updated !== document) {
  fs.writeFileSync(benchmarksPath, updated);
  console.log('docs/benchmarks.md tables regenerated.');
}
