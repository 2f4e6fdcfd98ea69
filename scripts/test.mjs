// `npm test`: every test layer, from a fresh clone with no earlier install step.
//   unit         mocha on Node (test/unit), no VS Code and no dotnet
//   server       xunit tests of the Roslyn host (server/tests)
//   host-e2e     mocha on Node with real dotnet (test/host-e2e): the CLI, the Roslyn host, the MCP
//                server and the verifier end to end on restored fixtures, and the C#/zod protocol drift check
//   integration  the suites in a real VS Code extension host (code-server + Chromium): every suite on
//                the newest tested VS Code, one smoke suite on the lowest (scripts/testbed/run-integration.mjs)
//   e2e          a typed @sharpclaw chat turn in the browser workbench's chat view, on the newest VS Code
//   package      `npm run package`, the .vsix installed into code-server with --install-extension, and
//                a person's clicks through the workbench against the installed extension (test/package);
//                and, with SHARPCLAW_TEST_FRESH_CLONE=1, the README's `npm start` on a clean clone in a
//                fresh HOME (test/package/freshClone.smoke.ts)
// Options: --only unit,server,host-e2e,integration,e2e,package   --vscode min|latest|all
//          --jobs N (host-e2e files at once, default 2)   --files a,b (host-e2e files whose path has a or b;
//          server test classes whose full name has a or b)
//          --serial (every layer alone; by default unit, host-e2e, e2e and package run beside server
//          and integration: see phasesFor)
//
// Every layer is timed and counted (passed, failed, skipped; per file or test class), written to
// test-results/summary.json and printed as a table at the end. A layer that prints nothing for 30 s
// gets a heartbeat line naming what it is doing, so a long step never looks hung. The VS Code test bed
// (code-server, Chromium) installs in the background from the start, for the layers that need it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { startCompilerServer, stopCompilerServer } from './compiler-server.mjs';
import { createLayerFolder, removeLayerFolder } from './layer-folder.mjs';
import { minutes } from './duration.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(repoRoot, 'test-results');
const reporter = path.join(repoRoot, 'scripts', 'test-reporter.cjs');
// The CLI's resident hosts (src/engine/host/residentHost.ts) stay on in tests, as for users, but end 20 s
// after their last call instead of 600, so the many short-lived state folders of a run do not leave hosts
// holding memory for ten minutes each (a test removing its state folder ends its host at once).
process.env.SHARPCLAW_RESIDENT_IDLE_SECONDS ??= '20';
/** Seconds without output after which a layer gets a heartbeat line (and again every as many seconds). */
const heartbeatSeconds = Number(process.env.SHARPCLAW_TEST_HEARTBEAT_SECONDS ?? 30);
/** Test files host-e2e runs at once (--jobs N, or SHARPCLAW_TEST_JOBS); 1 runs them one by one. */
const jobs = Number(option('jobs', process.env.SHARPCLAW_TEST_JOBS ?? '2'));
/** The layers that run inside code-server and Chromium, and so need the VS Code test bed installed. */
const testBedLayers = ['integration', 'e2e', 'package'];
/**
 * The test bed's install (scripts/testbed/install.mjs: code-server for each tested VS Code, Node 24,
 * Chromium), started in the background when the run begins: on a fresh machine it takes minutes, and
 * the layers that need it start only after server or host-e2e. Resolves to undefined when the
 * test bed is ready, else to the failure's note.
 */
let testBed = Promise.resolve(undefined);
function startTestBedInstall() {
  let step;
  testBed = run('testbed', process.execPath, ['scripts/testbed/install.mjs'], {
    onLine: (line) => { step = /\[testbed\] FAILED STEP: (.+)/.exec(line)?.[1]?.trim() ?? step; },
  }).then((code) => (code === 0 ? undefined : `the test bed install${step ? ` step "${step}"` : ''} failed (its output is above, prefixed [testbed])`));
}
/** A layer's result when the test bed it needs could not be installed: one failure, named. */
async function testBedFailure() {
  const note = await testBed;
  return note ? { code: 1, passed: 0, failed: 1, skipped: 0, files: [], note } : undefined;
}

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

/**
 * The machine's CPU seconds so far, over all its cores: busy (user, nice, system, irq) and all (busy and
 * idle), from os.cpus(). Unlike `/usr/bin/time npm test`, which counts only the processes it reaps, this
 * counts the processes a layer leaves detached too: the CLI's resident hosts, which do most of host-e2e's
 * work, and the hosts a stopped VS Code session leaves to end on their own. It counts every other process on the machine as well, so on a
 * shared machine it says how busy the machine was, not what the run cost.
 */
function machineCpu() {
  let busy = 0;
  let all = 0;
  for (const { times } of os.cpus()) {
    const sum = times.user + times.nice + times.sys + times.idle + times.irq;
    all += sum;
    busy += sum - times.idle;
  }
  return { busy: busy / 1000, all: all / 1000, at: Date.now() };
}

/**
 * CPU seconds per layer of the processes it starts, detached ones included, read from /proc on Linux
 * (elsewhere none): every process a layer starts carries SHARPCLAW_TEST_CPU_LAYER=<layer>@<run> in its
 * environment, and everything it starts inherits it (the CLI's resident hosts, VS Code's extension host
 * and the Roslyn host it starts), unless a test hands its process a made-up environment (Chromium starts
 * its zygote and renderers with one of its own: their CPU counts only when reaped through a marked
 * process, so a VS Code layer's figure is low — the e2e layer alone counted 31 CPU-s while the machine
 * was 66 CPU-s busy. Counting them by their nearest marked ancestor matched the machine in a layer run
 * alone but summed to 2.14 cores of 2 in a whole .ci/run, so that rule was taken back until the double
 * count is found). Every 2 s each
 * marked process's own CPU time is read, and its reaped children's (cutime, cstime) less what was already
 * counted for the marked children it reaped, so a process that lived less than 2 s still counts through
 * its parent. A process that outlives the run (a detached host ending 20 s later) counts up to its last
 * reading. Unlike machineCpu, this holds on a shared machine.
 */
class LayerCpu {
  /** `${pid}:${start}` → { layer, parent, own, reaped } at its last reading; parent is its parent's key. */
  processes = new Map();
  timer;
  // /proc/<pid>/stat counts in USER_HZ clock ticks, 100 a second on Linux.
  ticks = os.platform() === 'linux' ? 100 : 0;
  start() {
    if (this.ticks === 0) return;
    this.timer = setInterval(() => this.read(), 2000);
    this.timer.unref();
  }
  stop() {
    clearInterval(this.timer);
    if (this.ticks > 0) this.read();
  }
  read() {
    let pids;
    try {
      pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
    } catch {
      return;
    }
    const live = new Map();
    for (const pid of pids) {
      try {
        const environ = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
        // "<layer>@<run>": another run's process (of the same layer beside this one) is left out.
        const [, marked, run] = /(?:^|\0)SHARPCLAW_TEST_CPU_LAYER=([^\0@]*)@([^\0]*)/.exec(environ) ?? [];
        if (marked && run !== thisRun) continue;
        if (!marked) continue;
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
        // Fields after "(comm)": state ppid … utime(14) stime(15) cutime(16) cstime(17) … starttime(22).
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        live.set(pid, { layer: marked, ppid: fields[1], start: fields[19], own: (Number(fields[11]) + Number(fields[12])) / this.ticks, reaped: (Number(fields[13]) + Number(fields[14])) / this.ticks });
      } catch {
        // Gone between the listing and the read, or not ours to read.
      }
    }
    for (const [pid, p] of live) {
      const parent = live.get(p.ppid);
      this.processes.set(`${pid}:${p.start}`, { layer: p.layer, parent: parent ? `${p.ppid}:${parent.start}` : undefined, own: p.own, reaped: p.reaped, live: true });
    }
    for (const [key, p] of this.processes) {
      const [pid, start] = key.split(':');
      p.live = live.get(pid)?.start === start;
    }
  }
  /** CPU seconds per layer so far. */
  seconds() {
    // What a process reaped, less its dead marked children's own and reaped time (counted as theirs).
    const countedInChildren = new Map();
    for (const p of this.processes.values()) {
      if (p.parent && !p.live) countedInChildren.set(p.parent, (countedInChildren.get(p.parent) ?? 0) + p.own + p.reaped);
    }
    const perLayer = {};
    for (const [key, p] of this.processes) {
      perLayer[p.layer] = (perLayer[p.layer] ?? 0) + p.own + Math.max(0, p.reaped - (countedInChildren.get(key) ?? 0));
    }
    return perLayer;
  }
}

/** This run's mark on its processes' SHARPCLAW_TEST_CPU_LAYER: two runs side by side (two work trees, CI beside a developer) once counted each other's processes. */
const thisRun = String(process.pid);
const cpuMarker = (layer) => `${layer}@${thisRun}`;
/** The environment entry every process of the layer carries: how its leftovers are found when it ends (scripts/layer-folder.mjs). */
const layerMark = (layer) => `SHARPCLAW_TEST_CPU_LAYER=${cpuMarker(layer)}`;

const layerCpu = new LayerCpu();

/**
 * host-e2e's and the server layer's dotnet processes run without tiered PGO (DOTNET_TieredPGO=0), as the host already runs its
 * own MSBuild children (server/README.md: PGO's instrumentation only pays off in long-lived processes).
 * The layer starts hundreds of short ones (a Roslyn host per state folder, dotnet build and test, MSBuild
 * nodes, test hosts), mostly first-time JIT: fixtures/VerificationGraph's dotnet build --no-incremental
 * took 43–59 CPU-s with it, 33.5 without. The server layer's xunit test host too: HostLayersTests alone
 * (Roslyn compiling the host's source in the test process) took 41.1 CPU-s with it, 27.4 without.
 * Nor do they count calls to recompile hot methods optimised (DOTNET_TC_CallCounting=0): a test's process
 * ends before that second compilation pays for itself. Interleaved pairs, load 4–10 (2026-12-06):
 * host-e2e runnerModes + approvals 120 and 115 CPU-s with it, 84 and 88 without; server ParallelLoadTests +
 * EditTests 79 and 73, 55 and 61; HostLayersTests + LspDeepDocumentTests 39, 30.
 * They change how the JIT compiles, not what any process does. SHARPCLAW_TEST_TIERED_PGO=1 keeps .NET's
 * defaults for both, to compare.
 */
function shortProcessJit() {
  return process.env.SHARPCLAW_TEST_TIERED_PGO === '1' ? {} : { DOTNET_TieredPGO: '0', DOTNET_TC_CallCounting: '0' };
}

/** Cores busy on average between two machineCpu() readings. */
const busyCores = (from, to) => (to.at > from.at ? (to.busy - from.busy) / ((to.at - from.at) / 1000) : 0);

/** What a mocha layer is running now, from the status file scripts/test-reporter.cjs keeps. */
function runningNow(statusFile) {
  try {
    const { what, title, since } = JSON.parse(fs.readFileSync(statusFile, 'utf8'));
    return `${what === 'hook' ? 'in ' : ''}"${title}" (${minutes((Date.now() - since) / 1000)})`;
  } catch {
    return undefined;
  }
}

/**
 * Runs a command with its output passed through, and returns its exit code. While it prints nothing,
 * a heartbeat line every `heartbeatSeconds` says the layer is alive and, for mocha, which test runs.
 */
/** The layers' processes running now: a stopped run (Ctrl+C, SIGTERM) stops them too. */
const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  });
}

/** True while two lanes of layers run side by side: each output line then starts with its layer's name. */
let sideBySide = false;

/**
 * A writer of one layer's output to `stream`: passed through as it comes when one layer runs, and
 * whole lines prefixed `[layer]` while layers run side by side (a partial line waits for its end,
 * so two layers' lines never mix within a line).
 */
function writerFor(layer, stream) {
  let pending = '';
  return (chunk) => {
    // The test bed installs beside every phase, so its lines are always whole and always named.
    if (!sideBySide && layer !== 'testbed') {
      stream.write(chunk);
      return;
    }
    const lines = (pending + String(chunk)).split('\n');
    pending = lines.pop() ?? '';
    if (lines.length > 0) stream.write(lines.map((line) => (line.startsWith(`[${layer}]`) ? `${line}\n` : `[${layer}] ${line}\n`)).join(''));
  };
}

function run(layer, command, args, { env = {}, statusFile, onLine } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, SHARPCLAW_TEST_CPU_LAYER: cpuMarker(layer), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let lastOutput = Date.now();
    let lastLine = '';
    const pass = (stream) => {
      const write = writerFor(layer, stream);
      return (chunk) => {
        lastOutput = Date.now();
        const lines = String(chunk).split('\n').map((line) => line.trim()).filter(Boolean);
        if (lines.length > 0) lastLine = lines.at(-1);
        if (onLine) for (const line of lines) onLine(line);
        write(chunk);
      };
    };
    child.stdout.on('data', pass(process.stdout));
    child.stderr.on('data', pass(process.stderr));
    const heartbeat = setInterval(() => {
      if (Date.now() - lastOutput < heartbeatSeconds * 1000) return;
      const now = statusFile ? runningNow(statusFile) : undefined;
      console.log(`[test] ${layer}: still running after ${minutes((Date.now() - started) / 1000)}; ${now ? `now ${now}` : `last line: ${lastLine.slice(0, 160) || '(none yet)'}`}`);
      lastOutput = Date.now();
    }, 1000);
    child.on('close', (code) => {
      clearInterval(heartbeat);
      children.delete(child);
      resolve(code ?? 1);
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** One mocha run with scripts/test-reporter.cjs: its exit code, counts and per-file times. */
async function mochaLayer(layer, config, env = {}) {
  const report = path.join(resultsDir, 'layers', `${layer}.json`);
  const statusFile = path.join(resultsDir, 'layers', `${layer}.status.json`);
  fs.rmSync(report, { force: true });
  fs.mkdirSync(path.dirname(report), { recursive: true });
  const code = await run(layer, process.execPath, ['node_modules/mocha/bin/mocha.js', '--config', config, '--reporter', reporter], {
    env: { ...env, SHARPCLAW_TEST_REPORT: report, SHARPCLAW_TEST_STATUS: statusFile },
    statusFile,
  });
  fs.rmSync(statusFile, { force: true });
  const counts = readJson(report);
  if (!counts) return { code, passed: 0, failed: 0, skipped: 0, files: [], note: 'mocha wrote no report (it did not get to the end; its output is above)' };
  return { code, ...counts };
}

/** Every file under `dir` (relative to the repository) whose name ends with `suffix`, sorted. */
function filesUnder(dir, suffix) {
  return fs.readdirSync(path.join(repoRoot, dir), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith(suffix)).map((file) => path.join(dir, file)).sort();
}

/**
 * A mocha layer run file by file by `jobs` workers at once: each worker takes the next file, longest
 * first by the last run's times when there is one. The host-e2e tests spend much of their time waiting
 * for the processes they start (dotnet, the host, the CLI), so one mocha used less than one of the two
 * cores; every file already works in temporary folders and state folders of its own. Each file's output
 * is printed whole when it ends (two files' lines never interleave); the heartbeat names what runs.
 */
async function mochaQueue(layer, config, jobs, env = {}) {
  const settings = readJson(path.join(repoRoot, config));
  const report = path.join(resultsDir, 'layers', `${layer}.json`);
  const parts = path.join(resultsDir, 'layers', layer);
  // The last run's times, and for files it did not run (a clean clone, a run of some files) the committed
  // times of an earlier whole run, so the longest files start first.
  const committed = readJson(path.join(repoRoot, 'test', layer, 'first-run-seconds.json'))?.files ?? [];
  const lastTimes = new Map([...committed, ...(readJson(report)?.files ?? [])].map((f) => [f.file.replace(/\.ts$/, '.js'), f.seconds]));
  // The config's one glob, "out/test/<layer>/**/*.test.js"; the last run's times name "test/<layer>/….ts".
  const [dir, suffix] = settings.spec[0].split('/**/*');
  const lastSeconds = (file) => lastTimes.get(path.relative('out', file)) ?? 0;
  const wanted = option('files', '').split(',').filter(Boolean);
  const queue = filesUnder(dir, suffix).filter((file) => wanted.length === 0 || wanted.some((part) => file.includes(part))).sort((a, b) => lastSeconds(b) - lastSeconds(a));
  fs.rmSync(parts, { recursive: true, force: true });
  fs.mkdirSync(parts, { recursive: true });
  const total = { code: 0, passed: 0, failed: 0, skipped: 0, files: [] };
  const runningFiles = new Map();
  const started = Date.now();
  let lastPrinted = Date.now();
  const heartbeat = setInterval(() => {
    if (Date.now() - lastPrinted < heartbeatSeconds * 1000) return;
    const now = [...runningFiles].map(([file, statusFile]) => runningNow(statusFile) ?? path.basename(file)).join('; ');
    console.log(`[test] ${layer}: still running after ${minutes((Date.now() - started) / 1000)}; now ${now || '(between files)'}`);
    lastPrinted = Date.now();
  }, 1000);
  let index = 0;
  const worker = async () => {
    while (index < queue.length) {
      const file = queue[index++];
      const name = path.basename(file, '.js');
      const fileReport = path.join(parts, `${index}-${name}.json`);
      const statusFile = path.join(parts, `${index}-${name}.status.json`);
      runningFiles.set(file, statusFile);
      const args = ['node_modules/mocha/bin/mocha.js', '--no-config', '--no-package', '--timeout', String(settings.timeout), '--reporter', reporter, ...(settings.require ?? []).flatMap((r) => ['--require', r]), file];
      const { code, output } = await collect(process.execPath, args, { ...env, SHARPCLAW_TEST_CPU_LAYER: cpuMarker(layer), SHARPCLAW_TEST_REPORT: fileReport, SHARPCLAW_TEST_STATUS: statusFile });
      runningFiles.delete(file);
      writerFor(layer, process.stdout)(`[test] ${layer}: ${file}\n${output}${output.endsWith('\n') ? '' : '\n'}`);
      lastPrinted = Date.now();
      const counts = readJson(fileReport);
      if (code !== 0) total.code = code;
      if (!counts) {
        total.failed++;
        total.files.push({ file, seconds: 0, passed: 0, failed: 1, skipped: 0 });
        total.note = `${total.note ? `${total.note}; ` : ''}${file} wrote no report (its output is above)`;
        continue;
      }
      total.passed += counts.passed;
      total.failed += counts.failed;
      total.skipped += counts.skipped;
      total.files.push(...counts.files);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  clearInterval(heartbeat);
  total.files.sort((a, b) => b.seconds - a.seconds);
  fs.writeFileSync(report, JSON.stringify({ passed: total.passed, failed: total.failed, skipped: total.skipped, files: total.files }, null, 1));
  fs.rmSync(parts, { recursive: true, force: true });
  return total;
}

/** Runs a command to its end with its output kept (stdout and stderr in the order they came). */
function collect(command, args, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code) => {
      children.delete(child);
      resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString() });
    });
  });
}

/** xunit's results from the TRX file `dotnet test --logger trx` wrote: counts and per test class times. */
function readTrx(file) {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', processEntities: false, isArray: (name) => ['UnitTestResult', 'UnitTest'].includes(name) });
  const run = parser.parse(fs.readFileSync(file, 'utf8')).TestRun;
  const classOf = new Map((run.TestDefinitions?.UnitTest ?? []).map((test) => [test.id, test.TestMethod?.className ?? '(unknown class)']));
  const classes = new Map();
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const result of run.Results?.UnitTestResult ?? []) {
    const kind = result.outcome === 'Passed' ? 'passed' : result.outcome === 'Failed' ? 'failed' : 'skipped';
    counts[kind]++;
    const name = classOf.get(result.testId) ?? '(unknown class)';
    const entry = classes.get(name) ?? { file: name, seconds: 0, passed: 0, failed: 0, skipped: 0 };
    const [h, m, s] = String(result.duration ?? '0:0:0').split(':').map(Number);
    entry.seconds += h * 3600 + m * 60 + s;
    entry[kind]++;
    classes.set(name, entry);
  }
  const files = [...classes.values()].map((c) => ({ ...c, seconds: Math.round(c.seconds * 10) / 10 })).sort((a, b) => b.seconds - a.seconds);
  return { ...counts, files };
}

/** Removes a layer's folder (scripts/layer-folder.mjs), naming the processes its tests left running, if any. */
async function removeFolderOf(layer, folder) {
  const ended = await removeLayerFolder(folder.root, { mark: layerMark(layer) });
  if (ended.length > 0) console.log(`[test] ${layer}: ended ${ended.length} process${ended.length === 1 ? '' : 'es'} the tests left running (a test to fix), then removed the layer's folder:\n${ended.map((line) => `[test]   ${line}`).join('\n')}`);
}

/**
 * Runs `body` with the layer's own folder (scripts/layer-folder.mjs: `env` makes its tmp/ the TMPDIR, `state` the
 * server tests' state folder), removed once none of the layer's processes is left — after `body`'s own cleanup. The
 * VS Code layers' code-server, Chromium and extension hosts left their sockets (vscode-ipc-*, vscode-git-*) and
 * folders in /tmp, which nothing removed (22 sockets and an mcp-* folder a run).
 */
async function inLayerFolder(layer, body) {
  const folder = createLayerFolder(layer);
  try {
    return await body(folder);
  } finally {
    await removeFolderOf(layer, folder);
  }
}

const layers = {
  unit: () => mochaLayer('unit', '.mocharc.json'),
  async server() {
    const results = path.join(resultsDir, 'server');
    fs.rmSync(results, { recursive: true, force: true });
    // --files A,B: the test classes whose full name has A or B (to measure or rerun a few).
    const wanted = option('files', '').split(',').filter(Boolean);
    const filter = wanted.length > 0 ? ['--filter', wanted.map((part) => `FullyQualifiedName~${part}`).join('|')] : [];
    // As host-e2e: the solution's own build and the tests' dotnet build/test of fixtures share one compiler server
    // of the layer's own, and the short-lived processes (the build, cold hosts, dotnet restore/build/msbuild,
    // Roslyn's build host) run without tiered PGO (shortProcessJit).
    // Release, as the run's build published the host (scripts/build-server.mjs): MSBuild finds the host's and the
    // protocol's Release compile up to date and compiles only the tests (a Debug build compiled all three again),
    // and the process tests start the host as the package ships it (bin/Release, the code dist/server holds).
    // The tests' state folder and temporary folder, removed once nothing the layer started can write into them
    // (scripts/layer-folder.mjs). The compiler server runs in the layer's environment too (its pipe's socket is in /tmp either way).
    const code = await inLayerFolder('server', async (folder) => {
      const compilerServer = startCompilerServer('server', { cwd: repoRoot, env: { SHARPCLAW_TEST_CPU_LAYER: cpuMarker('server'), ...folder.env } });
      try {
        // Normal console verbosity prints each test as it passes; the TRX file gives the counts and times.
        return await run('server', 'dotnet', ['test', 'server/SharpClaw.Server.slnx', '-c', 'Release', '-nologo', '--tl:off', ...filter,
          '--logger', 'console;verbosity=normal', '--logger', 'trx;LogFileName=server.trx', '--results-directory', results],
          // No MSBuild nodes kept for reuse: they would outlive the layer, marked as its processes (layerMark).
          { env: { ...compilerServer.env, ...shortProcessJit(), ...folder.env, SHARPCLAW_TEST_STATE_DIR: folder.state, MSBUILDDISABLENODEREUSE: '1' } });
      } finally {
        layerCpu.read();
        const stopped = stopCompilerServer(compilerServer);
        if (stopped > 0) console.log(`[test] server: stopped its compiler server (${stopped} process${stopped === 1 ? '' : 'es'})`);
      }
    });
    const trx = fs.existsSync(results) ? fs.readdirSync(results, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.trx')) : [];
    if (trx.length === 0) return { code, passed: 0, failed: 0, skipped: 0, files: [], note: 'dotnet test wrote no TRX file (the build failed? its output is above)' };
    const parts = trx.map((file) => readTrx(path.join(results, file)));
    return {
      code,
      passed: parts.reduce((sum, p) => sum + p.passed, 0),
      failed: parts.reduce((sum, p) => sum + p.failed, 0),
      skipped: parts.reduce((sum, p) => sum + p.skipped, 0),
      files: parts.flatMap((p) => p.files),
      note: 'per test class: the sum of its tests\' durations (xunit runs classes in parallel)',
    };
  },
  async 'host-e2e'() {
    // Its temporary folder is the layer's own, removed when it ends (scripts/layer-folder.mjs), as the server layer's.
    return inLayerFolder('host-e2e', async (folder) => {
      // Its builds share one compiler server of the layer's own (scripts/compiler-server.mjs), a long-lived process: .NET's default JIT.
      const compilerServer = startCompilerServer('host-e2e', { cwd: repoRoot, env: { SHARPCLAW_TEST_CPU_LAYER: cpuMarker('host-e2e'), ...folder.env } });
      try {
        return await mochaQueue('host-e2e', '.mocharc.host-e2e.json', jobs, { ...compilerServer.env, ...shortProcessJit(), ...folder.env });
      } finally {
        // The last reading before it goes, so the server's CPU counts in the layer's.
        layerCpu.read();
        const stopped = stopCompilerServer(compilerServer);
        if (stopped > 0) console.log(`[test] host-e2e: stopped its compiler server (${stopped} process${stopped === 1 ? '' : 'es'})`);
      }
    });
  },
  async integration() {
    const noTestBed = await testBedFailure();
    if (noTestBed) return noTestBed;
    const integrationResults = path.join(resultsDir, 'integration');
    fs.rmSync(integrationResults, { recursive: true, force: true });
    let step;
    const broken = [];
    const code = await inLayerFolder('integration', ({ env }) => run('integration', process.execPath, ['scripts/testbed/run-integration.mjs', '--vscode', option('vscode', 'all')], {
      env,
      onLine: (line) => {
        step = /\[testbed\] FAILED STEP: (.+)/.exec(line)?.[1]?.trim() ?? step;
        const session = /^\[integration\] (VS Code \S+ \S+): the session failed/.exec(line)?.[1];
        if (session) broken.push(session);
      },
    }));
    const summaries = fs.existsSync(integrationResults) ? fs.readdirSync(integrationResults, { recursive: true, encoding: 'utf8' }).filter((file) => path.basename(file) === 'summary.json') : [];
    const result = { code, passed: 0, failed: 0, skipped: 0, files: [] };
    for (const file of summaries) {
      const counts = readJson(path.join(integrationResults, file)) ?? {};
      result.passed += counts.passed ?? 0;
      result.failed += counts.failed ?? 0;
      result.skipped += counts.skipped ?? 0;
      // test-results/integration/<VS Code version>/<suite>/summary.json
      const session = path.dirname(file).split(path.sep).join(' ');
      for (const f of counts.files ?? []) result.files.push({ ...f, file: `${f.file} (${session})` });
    }
    if (step) result.note = `the test bed install step "${step}" failed (its output is above)`;
    // A session that broke wrote no counts: each is one failure, named.
    if (broken.length > 0) {
      result.failed += broken.length;
      result.note = `${result.note ? `${result.note}; ` : ''}sessions that broke before their tests ended: ${broken.join(', ')}`;
    }
    return result;
  },
  async e2e() {
    const noTestBed = await testBedFailure();
    if (noTestBed) return noTestBed;
    fs.rmSync(path.join(resultsDir, 'e2e'), { recursive: true, force: true });
    return inLayerFolder('e2e', ({ env }) => mochaLayer('e2e', '.mocharc.e2e.json', env));
  },
  async package() {
    const noTestBed = await testBedFailure();
    if (noTestBed) return noTestBed;
    // Zlib, not Zopfli: the size budget keeps a margin for the difference (scripts/package.mjs).
    // The run's own production build, packed as it is (--skip-build). The README's images are linked at an
    // https: address, as a release links them (VS Code 1.103+ shows no data: images): a reserved .test
    // host, which the details-page test serves from docs/ (test/package/detailsPage.ts).
    return inLayerFolder('package', async ({ env }) => {
      const packaged = await run('package', process.execPath, ['scripts/package.mjs', '--skip-build', '--images-url', 'https://readme-images.sharpclaw.test/docs'], { env });
      if (packaged !== 0) return { code: packaged, passed: 0, failed: 1, skipped: 0, files: [], note: '`npm run package` failed (its output is above)' };
      return mochaLayer('package', '.mocharc.package.json', env);
    });
  },
};

/**
 * The order the layers run in: phases one after the other, each of lanes that run side by side, each
 * lane's layers one after the other. unit, the dotnet-heavy host-e2e, then e2e and package run beside server
 * and integration, which take about as long together (with unit in the second lane, that lane ended 1–1.5
 * minutes after the first in every .ci/run of 2026-12-07, the run's last minutes on 1.6–1.8 of 2 cores). The package layer packs the run's own build
 * (built for production before the first layer), so it changes nothing the other layers run from.
 * `--serial` (or SHARPCLAW_TEST_SERIAL=1) runs every layer alone, in the layers' own order.
 */
function phasesFor(only) {
  const serial = process.argv.includes('--serial') || process.env.SHARPCLAW_TEST_SERIAL === '1';
  if (serial) return only.map((name) => [[name]]);
  const plan = [[['unit', 'host-e2e', 'e2e', 'package'], ['server', 'integration']]];
  const planned = plan.flat(2);
  return [...plan, ...only.filter((name) => !planned.includes(name)).map((name) => [[name]])]
    .map((phase) => phase.map((lane) => lane.filter((name) => only.includes(name))).filter((lane) => lane.length > 0))
    .filter((phase) => phase.length > 0);
}

function verdict(r) {
  return r.code === 0 && r.failed === 0 && r.passed > 0 ? 'ok' : 'FAILED';
}

function printSummary(summary) {
  const rows = Object.entries(summary.layers).map(([name, r]) => [name, verdict(r), String(r.passed), String(r.failed), String(r.skipped), minutes(r.seconds), String(r.cpuSeconds ?? 0), (r.machineBusyCores ?? 0).toFixed(2), r.note ?? '']);
  // CPU-s: the layer's own processes (LayerCpu); busy cores: the machine's while the layer ran, the
  // other lane's layers included (machineCpu).
  const header = ['layer', 'result', 'passed', 'failed', 'skipped', 'time', 'CPU-s', 'busy cores', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => `[test]   ${cells.map((cell, i) => (i >= 2 && i <= 7 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd()}`;
  console.log('\n[test] summary (test-results/summary.json)');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  if (summary.slowest.length > 0) {
    console.log(`[test] the slowest ${summary.slowest.length} files (server: test classes)`);
    for (const f of summary.slowest) {
      const skipped = f.skipped ? `, ${f.skipped} skipped` : '';
      console.log(`[test]   ${minutes(f.seconds).padStart(9)}  ${f.layer.padEnd(11)} ${f.file} (${f.passed} passed, ${f.failed} failed${skipped})`);
    }
  }
  const { busyCores: average, busyCoresPerMinute: perMinute, cores } = summary.machine;
  console.log(`[test] machine CPU: ${average.toFixed(2)} of ${cores} cores busy on average (every process on the machine, detached ones too); per minute: ${perMinute.map((value) => value.toFixed(1)).join(' ')}`);
  console.log(`[test] build ${minutes(summary.buildSeconds)} (${summary.buildCpuSeconds ?? 0} CPU-s); load average ${summary.machine.loadAverageAtStart} at the start, ${summary.machine.loadAverageAtEnd} at the end; ${summary.machine.cores} cores`);
  console.log(`[test] total time ${Math.round(summary.seconds)} s (${minutes(summary.seconds)})`);
}

async function main() {
  const only = option('only', Object.keys(layers).join(',')).split(',');
  for (const name of only) if (!layers[name]) throw new Error(`Unknown test layer "${name}"; valid: ${Object.keys(layers).join(', ')}`);
  const started = Date.now();
  const loadAverage = () => os.loadavg().map((value) => value.toFixed(1)).join(' ');
  const summary = {
    date: new Date(started).toISOString(),
    // busyCores: the machine's cores busy on average over the run; busyCoresPerMinute: over each minute, so
    // a stretch where the lanes wait shows as minutes well under the core count (machineCpu).
    machine: { cores: os.availableParallelism(), loadAverageAtStart: loadAverage(), loadAverageAtEnd: '', busyCores: 0, busyCoresPerMinute: [] },
    layers: {},
    slowest: [],
    seconds: 0,
  };
  fs.mkdirSync(resultsDir, { recursive: true });
  const cpuAtStart = machineCpu();
  let cpuThisMinute = cpuAtStart;
  const recordMinute = () => {
    const now = machineCpu();
    summary.machine.busyCoresPerMinute.push(Math.round(busyCores(cpuThisMinute, now) * 100) / 100);
    cpuThisMinute = now;
  };
  const minuteTicker = setInterval(recordMinute, 60_000);
  minuteTicker.unref();
  layerCpu.start();
  if (only.some((name) => testBedLayers.includes(name))) {
    console.log('[test] ===== the VS Code test bed installs in the background (lines start with [testbed]) =====');
    startTestBedInstall();
  }
  const buildStarted = Date.now();
  // Compiled tests of deleted sources would still run (mocha globs out/test): tsc writes out/test afresh.
  fs.rmSync(path.join(repoRoot, 'out', 'test'), { recursive: true, force: true });
  // In a child process, so the heartbeat runs while tsc and the host's build are quiet.
  console.log('[test] ===== build =====');
  // The production build (minified bundles, as the package ships them): every layer tests the bundles a
  // person installs, and the package layer packs them as they are, so it rewrites nothing the other
  // layers run from and can run beside them.
  if ((await run('build', process.execPath, ['scripts/build.mjs', '--production'])) !== 0) throw new Error('the build failed (its output is above)');
  summary.buildSeconds = Math.round((Date.now() - buildStarted) / 100) / 10;
  const files = [];
  const runLayer = async (name) => {
    console.log(`\n[test] ===== ${name} =====`);
    const layerStarted = Date.now();
    const cpuAtLayerStart = machineCpu();
    const result = await layers[name]();
    const { files: layerFiles = [], ...counts } = result;
    const seconds = Math.round((Date.now() - layerStarted) / 100) / 10;
    // machineBusyCores: the whole machine's, the other lane's layers included (machineCpu).
    // Listed in the layers' own order whichever lane ends first.
    layerCpu.read();
    summary.layers[name] = { ...counts, seconds, cpuSeconds: Math.round(layerCpu.seconds()[name] ?? 0), machineBusyCores: Math.round(busyCores(cpuAtLayerStart, machineCpu()) * 100) / 100 };
    summary.machine.busyCores = Math.round(busyCores(cpuAtStart, machineCpu()) * 100) / 100;
    summary.layers = Object.fromEntries(only.filter((layer) => summary.layers[layer]).map((layer) => [layer, summary.layers[layer]]));
    if (sideBySide) console.log(`[test] ===== ${name} ended: ${verdict(result)}, ${result.passed} passed, ${result.failed} failed in ${minutes(seconds)} =====`);
    files.push(...layerFiles.map((file) => ({ layer: name, ...file })));
    summary.slowest = files.toSorted((a, b) => b.seconds - a.seconds).slice(0, 20);
    summary.seconds = (Date.now() - started) / 1000;
    summary.machine.loadAverageAtEnd = loadAverage();
    // Written after every layer, so a run stopped halfway still says where its time went.
    fs.writeFileSync(path.join(resultsDir, 'summary.json'), `${JSON.stringify({ ...summary, files }, null, 1)}\n`);
  };
  for (const phase of phasesFor(only)) {
    sideBySide = phase.length > 1;
    if (sideBySide) console.log(`\n[test] side by side: ${phase.map((lane) => lane.join(' then ')).join(' | ')} (each line starts with its layer)`);
    await Promise.all(phase.map(async (lane) => {
      for (const name of lane) await runLayer(name);
    }));
  }
  sideBySide = false;
  clearInterval(minuteTicker);
  recordMinute();
  // The hosts a layer left to end on their own count up to now.
  layerCpu.stop();
  const cpuSeconds = layerCpu.seconds();
  for (const [name, result] of Object.entries(summary.layers)) result.cpuSeconds = Math.round(cpuSeconds[name] ?? 0);
  summary.buildCpuSeconds = Math.round(cpuSeconds.build ?? 0);
  summary.machine.busyCores = Math.round(busyCores(cpuAtStart, machineCpu()) * 100) / 100;
  fs.writeFileSync(path.join(resultsDir, 'summary.json'), `${JSON.stringify({ ...summary, files }, null, 1)}\n`);
  printSummary(summary);
  const results = Object.values(summary.layers);
  const passed = results.reduce((sum, r) => sum + r.passed, 0);
  const failed = results.reduce((sum, r) => sum + r.failed, 0);
  const skipped = results.reduce((sum, r) => sum + r.skipped, 0);
  // A layer that failed without counting a failed test (a crash, a build error) counts as one.
  const uncountedFailures = results.filter((r) => verdict(r) !== 'ok' && r.failed === 0).length;
  console.log(`tests: ${passed} passed, ${failed + uncountedFailures} failed, ${skipped} skipped`);
  process.exitCode = failed + uncountedFailures > 0 ? 1 : 0;
}

main().catch((error) => {
  console.error(`[test] ${error instanceof Error ? error.stack : error}`);
  process.exitCode = 1;
  // A failed build ends the run: the test bed's install in the background with it.
  for (const child of children) child.kill('SIGTERM');
});
