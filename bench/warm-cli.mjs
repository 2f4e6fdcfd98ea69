// Warm restart through the CLI (issue 17): `sharpclaw tool csharp_find_references` end to end (node start, host
// start, the answer, exit) on the 50-project synthetic when an approved snapshot is in the state folder, beside
// the cold call that loads it (--allow-evaluation, empty state folder). Every warm call is a new CLI process
// and a new host, in read-only mode with no --allow-* flag; its answer must equal the cold call's.
// Usage: node bench/warm-cli.mjs [--projects 50] [--cold 2] [--warm 10]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, option, report, row } from './stats.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(benchDir, '..', 'dist', 'cli.js');

export async function benchWarmCli() {
  const projects = Number(option('projects', '50'));
  const workspace = path.join(os.tmpdir(), `sharpclaw-synth-${projects}`);
  if (!fs.existsSync(path.join(workspace, 'Synth.slnx'))) {
    execFileSync('dotnet', ['run', '-c', 'Release', '--project', path.join(benchDir, 'SharpClaw.Bench'), '--', 'generate', '--projects', String(projects), '--files', '20', '--out', workspace], { stdio: 'inherit' });
  }
  execFileSync('dotnet', ['restore', 'Synth.slnx', '-nologo', '-v:q'], { cwd: workspace, stdio: 'inherit' });
  const input = JSON.stringify({ name: 'Lib000.Type00.Compute(int)' });
  const call = (stateDir, flags) => {
    const started = performance.now();
    const result = spawnSync(process.execPath, [cli, 'tool', 'csharp_find_references', '--cwd', workspace, '--input', input, ...flags], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir },
    });
    const ms = performance.now() - started;
    if (result.status !== 0) throw new Error(`csharp_find_references failed (${result.status}): ${result.stderr}`);
    return { ms, stdout: result.stdout };
  };

  const cold = [];
  const warm = [];
  const floor = [];
  let answer = '';
  const states = [];
  try {
    for (let run = 0; run < Number(option('cold', '2')); run++) {
      const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bench-warm-cli-'));
      states.push(stateDir);
      const result = call(stateDir, ['--allow-evaluation']);
      cold.push(result.ms);
      answer = result.stdout;
      console.log(`[bench]   cold ${result.ms.toFixed(0)} ms`);
    }
    for (let run = 0; run < Number(option('warm', '10')); run++) {
      const result = call(states[states.length - 1], ['--permission-mode', 'read-only']);
      if (result.stdout !== answer) throw new Error(`the warm answer differs from the cold one:\n${result.stdout}\n---\n${answer}`);
      warm.push(result.ms);
      console.log(`[bench]   warm ${result.ms.toFixed(0)} ms`);
    }
    // The floor of any CLI call that starts a host: a syntax-only search on the same workspace (its index built untimed first).
    const search = (stateDir) => {
      const started = performance.now();
      const result = spawnSync(process.execPath, [cli, 'tool', 'csharp_symbol_search', '--cwd', workspace, '--input', '{"query":"Type00"}', '--permission-mode', 'read-only'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir },
      });
      if (result.status !== 0) throw new Error(`csharp_symbol_search failed: ${result.stderr}`);
      return performance.now() - started;
    };
    search(states[states.length - 1]);
    for (let run = 0; run < Number(option('floor', '5')); run++) floor.push(search(states[states.length - 1]));
  } finally {
    for (const stateDir of states) fs.rmSync(stateDir, { recursive: true, force: true });
  }

  report('warm-cli', {
    solution: `synthetic ${projects} projects (Synth.slnx), csharp_find_references Lib000.Type00.Compute(int)`,
    method: 'each call a new CLI process and host; cold: an empty SHARPCLAW_STATE_DIR and --allow-evaluation; warm: read-only, no --allow-* flag, the state folder the last cold call left; answers compared byte for byte',
    rows: [
      row(`CLI csharp_find_references end to end (node + host start + answer): on the approved snapshot vs a cold call that loads, ${projects} projects`, warm, cold, {
        goal: '< 1500 ms',
        meets_goal: median(warm) < 1500,
      }),
      row('the floor of a CLI call that starts a host: csharp_symbol_search on the same workspace (node + host start + a syntax-only store query)', floor, []),
    ],
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await benchWarmCli();
