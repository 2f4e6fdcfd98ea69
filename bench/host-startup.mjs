// Roslyn host start-to-ready: from spawning `dotnet SharpClaw.Server.dll` to the answer of
// `initialize`, then one `sharpclaw/status` round trip; median of N runs, beside a bare .NET
// process that answers the same framed `initialize` by hand (bench/baseline/RawHost).
// Usage: node bench/host-startup.mjs [--runs 10]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFramedProcess } from './lspClient.mjs';
import { median, option, p50, report, row } from './stats.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(benchDir, '..');
const serverDll = path.join(repoRoot, 'dist', 'server', 'SharpClaw.Server.dll');
const baselineOut = path.join(os.tmpdir(), 'sharpclaw-bench-rawhost');

async function timeOne(args, withStatus) {
  const started = performance.now();
  const host = startFramedProcess('dotnet', args);
  await host.request('initialize', { processId: process.pid, capabilities: {}, rootUri: null });
  const readyMs = performance.now() - started;
  let statusMs = 0;
  if (withStatus) {
    const before = performance.now();
    await host.request('sharpclaw/status', {});
    statusMs = performance.now() - before;
    await host.request('shutdown', null);
  }
  host.notify('exit');
  await host.exited;
  return { readyMs, statusMs };
}

export async function benchHostStartup({ runs = Number(option('runs', '10')) } = {}) {
  if (!fs.existsSync(serverDll)) throw new Error(`${serverDll} is missing: run "npm run build" first`);
  execFileSync('dotnet', ['build', path.join(benchDir, 'baseline', 'RawHost'), '-c', 'Release', '-o', baselineOut, '-nologo', '-v:q', '--tl:off'], { stdio: 'inherit' });
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sharpclaw-bench-logs-'));
  await timeOne([serverDll, '--log-directory', logDir], true); // warm the disk cache once
  const host = [];
  const status = [];
  const baseline = [];
  for (let i = 0; i < runs; i++) {
    const measured = await timeOne([serverDll, '--log-directory', logDir], true);
    host.push(measured.readyMs);
    status.push(measured.statusMs);
    baseline.push((await timeOne([path.join(baselineOut, 'RawHost.dll')], false)).readyMs);
  }
  fs.rmSync(logDir, { recursive: true, force: true });
  return report('host-startup', {
    runs,
    'host start-to-ready median ms': median(host),
    'first sharpclaw/status median ms': median(status),
    'bare .NET process (RawHost) start-to-ready median ms': median(baseline),
    'ratio host / bare': Number((median(host) / median(baseline)).toFixed(2)),
    'host samples ms': host.map((t) => Number(t.toFixed(0))),
    rows: [
      row('Roslyn host start-to-ready (spawn → initialize answered)', host, baseline, { baseline_is: 'bare .NET process answering the same framed initialize (bench/baseline/RawHost)', goal: '< 1500 ms', meets_goal: p50(host) < 1500 }),
      row('first sharpclaw/status round trip', status, []),
    ],
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHostStartup();
