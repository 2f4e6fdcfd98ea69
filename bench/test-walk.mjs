#!/usr/bin/env node
// The cost of one `navigate tests` walk on a real solution, against a direct baseline in the same run: a `callers`
// answer on the same member (one Roslyn caller search). The solution is loaded first (a `definition` answer), then
// each action asked of the loaded resident host: wall time of the CLI call and CPU time of the host process (user +
// system, from /proc), which a loaded machine stretches less than the wall time. Prints one JSON object.
// Usage: npm run build && node bench/test-walk.mjs --solution DIR --file PATH --line N --character N
// (runs MSBuild evaluation of the solution, like `sharpclaw tool … --allow-evaluation`; nothing is written to it)
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const cli = path.join(repo, 'dist', 'cli.js');
const server = path.join(repo, 'dist', 'server');
const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
if (!args.solution || !args.file || !args.line || !args.character) throw new Error('usage: --solution DIR --file PATH --line N --character N');
const solution = path.resolve(args.solution);
const at = { file: args.file, line: Number(args.line), character: Number(args.character) };

const sharpclaw = (argv) => execFileSync('node', [cli, ...argv, '--allow-evaluation', '--cwd', solution], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const navigate = (input) => sharpclaw(['tool', 'csharp_navigate', '--input', JSON.stringify({ ...at, ...input })]);

/** The resident host this build started for the solution: a hosts entry whose process runs this repo's dist/server. */
function host() {
  const hosts = path.join(os.homedir(), '.cache', 'sharpclaw', 'hosts');
  for (const entry of fs.readdirSync(hosts).filter((f) => f.endsWith('.json'))) {
    const { pid } = JSON.parse(fs.readFileSync(path.join(hosts, entry), 'utf8'));
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(server)) return pid;
    } catch {
      // A host that has exited.
    }
  }
  throw new Error('no resident host of this build found');
}

/** CPU seconds (user + system) of a process so far. */
function cpu(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 a second here).
}

function measure(pid, input) {
  const cpuBefore = cpu(pid);
  const start = performance.now();
  const out = navigate(input);
  return { wallMs: Math.round(performance.now() - start), hostCpuMs: Math.round((cpu(pid) - cpuBefore) * 1000), out };
}

sharpclaw(['host', 'stop']);
navigate({ action: 'definition' });
const pid = host();
const loadBefore = os.loadavg().map((l) => l.toFixed(2));
const callers = measure(pid, { action: 'callers' });
const tests = measure(pid, { action: 'tests', limit: 200 });
const result = {
  solution: path.basename(solution),
  member: `${at.file}:${at.line}:${at.character}`,
  tests: Number(/(\d+) tests in total/.exec(tests.out)?.[1] ?? [...tests.out.matchAll(/ test /g)].length),
  callers: { wallMs: callers.wallMs, hostCpuMs: callers.hostCpuMs },
  walk: { wallMs: tests.wallMs, hostCpuMs: tests.hostCpuMs },
  ratio: { wall: +(tests.wallMs / callers.wallMs).toFixed(1), hostCpu: +(tests.hostCpuMs / Math.max(1, callers.hostCpuMs)).toFixed(1) },
  loadAverage: { before: loadBefore, after: os.loadavg().map((l) => l.toFixed(2)) },
  cores: os.cpus().length,
};
sharpclaw(['host', 'stop']);
console.log(JSON.stringify(result, null, 2));
