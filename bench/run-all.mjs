// `npm run bench [-- --only NAME[,NAME]] [-- --quick]`: the benchmarks, each writing bench/results/NAME.json
// (rows: measure, ours p50/p95, baseline p50/p95, ratio_p50); `node scripts/bench-readme.mjs` turns those
// files into the tables of docs/benchmarks.md.
//   --quick   only the query bench on a 20-project synthetic, 10 iterations (queries-quick.json; < 3 min on 2 idle cores)
//   --only    a comma-separated subset of the names below
// The C# benches (SharpClaw.Bench) run host and direct Roslyn in one process, interleaved, so on a busy
// shared machine both sides slow down alike and the ratios stay meaningful.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchPackageSize } from './package-size.mjs';
import { option } from './stats.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const project = path.join(benchDir, 'SharpClaw.Bench');
const synth = (projects) => path.join(os.tmpdir(), `sharpclaw-synth-${projects}`);
let built = false;

function dotnetBench(args) {
  if (!built) {
    execFileSync('dotnet', ['build', project, '-c', 'Release', '-nologo', '-v:q', '--tl:off'], { stdio: 'inherit' });
    built = true;
  }
  execFileSync('dotnet', ['run', '--no-build', '-c', 'Release', '--project', project, '--', ...args], { stdio: 'inherit' });
}

const benches = {
  // Imported on use: the activation bench needs the VS Code test bed, the others do not.
  'host-startup': async () => (await import('./host-startup.mjs')).benchHostStartup(),
  activation: async () => (await import('./activation.mjs')).benchActivation(),
  'queries-quick': () => dotnetBench(['queries', '--projects', '20', '--files', '10', '--iterations', '10', '--out', synth(20), '--name', 'queries-quick']),
  'queries-50': () => dotnetBench(['queries', '--projects', '50', '--files', '20', '--iterations', '30', '--out', synth(50), '--name', 'queries-50']),
  'queries-200': () => dotnetBench(['queries', '--projects', '200', '--files', '20', '--iterations', '20', '--out', synth(200), '--name', 'queries-200']),
  load: () => dotnetBench(['load', '--projects', '50', '--files', '20', '--runs', '3', '--out', synth(50), '--name', 'load']),
  'warm-restart-50': () => dotnetBench(['warm', '--projects', '50', '--files', '20', '--runs', '3', '--restarts', '3', '--out', synth(50), '--name', 'warm-restart-50']),
  'warm-restart-200': () => dotnetBench(['warm', '--projects', '200', '--files', '20', '--runs', '2', '--restarts', '3', '--out', synth(200), '--name', 'warm-restart-200']),
  'warm-cli': async () => (await import('./warm-cli.mjs')).benchWarmCli(),
  'verify-overhead': async () => (await import('./verify.mjs')).benchVerifyOverhead(),
  'verify-affected': async () => (await import('./verify.mjs')).benchVerifyAffected(),
  'verify-selection': async () => (await import('./verify.mjs')).benchVerifySelection(),
  sizes: () => dotnetBench(['sizes', '--sizes', '10,50,200', '--files', '20', '--name', 'sizes']),
  'package-size': () => benchPackageSize(),
  'mcp-navigate': async () => (await import('./mcp-navigate.mjs')).benchMcpNavigate(),
  'first-answer': async () => (await import('./first-answer.mjs')).benchFirstAnswer(),
  'store-search': async () => (await import('./store-search.mjs')).benchStoreSearch(),
  'diagnostics-multi': () => dotnetBench(['diagnostics', '--files', '24', '--iterations', '10', '--out', path.join(os.tmpdir(), 'sharpclaw-synth-multi'), '--name', 'diagnostics-multi']),
  'rename-preview': () => dotnetBench(['rename-preview', '--files', '24', '--iterations', '10', '--out', path.join(os.tmpdir(), 'sharpclaw-synth-multi'), '--name', 'rename-preview']),
  // The real-shaped multi-targeted synthetic (12 projects, Core with 8 frameworks and 200 workers; SharpClaw.Bench
  // generate-multi --shape real12): the same benches, few iterations (each side loads 31 flavours).
  'diagnostics-real12': () => dotnetBench(['diagnostics', '--shape', 'real12', '--files', '200', '--iterations', '5', '--out', path.join(os.tmpdir(), 'sharpclaw-synth-real12'), '--name', 'diagnostics-real12']),
  'rename-preview-real12': () => dotnetBench(['rename-preview', '--shape', 'real12', '--files', '200', '--iterations', '3', '--out', path.join(os.tmpdir(), 'sharpclaw-synth-real12'), '--name', 'rename-preview-real12']),
  'queries-real12': () => dotnetBench(['queries', '--shape', 'real12', '--files', '200', '--iterations', '5', '--out', path.join(os.tmpdir(), 'sharpclaw-synth-real12'), '--name', 'queries-real12']),
  'first-answer-real12': async () => (await import('./first-answer.mjs')).benchFirstAnswer({ shape: 'real12', files: 200, runs: 3 }),
  rename: () => dotnetBench(['rename', '--projects', '50', '--files', '20', '--runs', '3', '--out', synth(50)]),
};

const quick = process.argv.includes('--quick');
const only = option('only', '');
const names = quick ? ['queries-quick'] : only ? only.split(',').map((n) => n.trim()).filter(Boolean) : Object.keys(benches).filter((n) => n !== 'queries-quick');
const unknown = names.filter((n) => !(n in benches));
if (unknown.length > 0) {
  console.error(`Unknown bench ${unknown.join(', ')}; known: ${Object.keys(benches).join(', ')}`);
  process.exit(2);
}

for (const name of names) {
  console.log(`[bench] === ${name} ===`);
  await benches[name]();
}
