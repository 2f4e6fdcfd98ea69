// Warm CLI calls (issue 17): `sharpclaw tool csharp_find_references` end to end (node start, the answer, exit)
// on the 50-project synthetic, beside the cold call that loads it (--allow-evaluation, empty state folder).
// Two warm paths, each in read-only mode with no --allow-* flag, each answer compared byte for byte with the
// cold one:
//   resident  the default: the call connects to the resident host the cold call left running, which still
//             holds the solution (src/engine/host/residentHost.ts);
//   snapshot  SHARPCLAW_RESIDENT_HOST=0 after `sharpclaw host stop`: a new host process per call, rebuilding
//             the solution from the approved snapshot in the state folder without MSBuild.
// Usage: node bench/warm-cli.mjs [--projects 50] [--cold 2] [--warm 10] [--floor 5]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, option, p50, report, row } from './stats.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(benchDir, '..', 'dist', 'cli.js');

export async function benchWarmCli() {
  const projects = Number(option('projects', '50'));
  const workspace = path.join(os.tmpdir(), `sharpclaw-synth-${projects}`);
  if (!fs.existsSync(path.join(workspace, 'Synth.slnx'))) {
    execFileSync('dotnet', ['run', '-c', 'Release', '--project', path.join(benchDir, 'SharpClaw.Bench'), '--', 'generate', '--projects', String(projects), '--files', '20', '--out', workspace], { stdio: 'inherit' });
  }
  execFileSync('dotnet', ['restore', 'Synth.slnx', '-nologo', '-v:q'], { cwd: workspace, stdio: 'inherit' });
  const run = (stateDir, args, resident) => {
    const started = performance.now();
    const result = spawnSync(process.execPath, [cli, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir, SHARPCLAW_RESIDENT_HOST: resident ? '1' : '0' },
    });
    const ms = performance.now() - started;
    if (result.status !== 0) throw new Error(`sharpclaw ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
    return { ms, stdout: result.stdout };
  };
  const references = (stateDir, flags, resident) =>
    run(stateDir, ['tool', 'csharp_find_references', '--cwd', workspace, '--input', JSON.stringify({ name: 'Lib000.Type00.Compute(int)' }), ...flags], resident);
  const search = (stateDir, resident) => run(stateDir, ['tool', 'csharp_symbol_search', '--cwd', workspace, '--input', '{"query":"Type00"}', '--permission-mode', 'read-only'], resident).ms;

  const cold = [];
  const resident = [];
  const snapshot = [];
  const residentFloor = [];
  const processFloor = [];
  let answer = '';
  const states = [];
  const same = (result, path) => {
    if (result.stdout !== answer) throw new Error(`the ${path} answer differs from the cold one:\n${result.stdout}\n---\n${answer}`);
    return result.ms;
  };
  try {
    for (let i = 0; i < Number(option('cold', '2')); i++) {
      if (states.length > 0) run(states[states.length - 1], ['host', 'stop'], true);
      const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bench-warm-cli-'));
      states.push(stateDir);
      const result = references(stateDir, ['--allow-evaluation'], true);
      cold.push(result.ms);
      answer = result.stdout;
      console.log(`[bench]   cold ${result.ms.toFixed(0)} ms`);
    }
    const state = states[states.length - 1];
    const warm = Number(option('warm', '10'));
    for (let i = 0; i < warm; i++) resident.push(same(references(state, ['--permission-mode', 'read-only'], true), 'resident'));
    console.log(`[bench]   resident p50 ${median(resident).toFixed(0)} ms`);
    search(state, true);
    for (let i = 0; i < Number(option('floor', '5')); i++) residentFloor.push(search(state, true));
    run(state, ['host', 'stop'], true);
    for (let i = 0; i < Math.min(warm, 5); i++) snapshot.push(same(references(state, ['--permission-mode', 'read-only'], false), 'snapshot'));
    console.log(`[bench]   snapshot p50 ${median(snapshot).toFixed(0)} ms`);
    for (let i = 0; i < Number(option('floor', '5')); i++) processFloor.push(search(state, false));
  } finally {
    for (const stateDir of states) {
      fs.rmSync(stateDir, { recursive: true, force: true }); // a resident host left running ends with its socket file
    }
  }

  report('warm-cli', {
    solution: `synthetic ${projects} projects (Synth.slnx), csharp_find_references Lib000.Type00.Compute(int)`,
    method: 'each call a new CLI process; cold: an empty SHARPCLAW_STATE_DIR and --allow-evaluation (it starts the resident host); warm: read-only, no --allow-* flag, on the state folder the cold call left; answers compared byte for byte',
    rows: [
      row(`CLI csharp_find_references end to end on the resident host the first call left (the default) vs the cold call that loads, ${projects} projects`, resident, cold, {
        goal: '< 1500 ms',
        meets_goal: p50(resident) < 1500,
      }),
      row(`CLI csharp_find_references end to end in a new host process from the approved snapshot (SHARPCLAW_RESIDENT_HOST=0) vs the cold call, ${projects} projects`, snapshot, cold),
      row('the floor of a CLI call: csharp_symbol_search on the same workspace (node start + a syntax-only store query), on the resident host', residentFloor, []),
      row('the floor of a CLI call that starts its own host (SHARPCLAW_RESIDENT_HOST=0): csharp_symbol_search', processFloor, []),
    ],
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await benchWarmCli();
