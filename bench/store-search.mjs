// The syntax-only store (issue 17) on a synthetic workspace of N C# files (default 10,000): building
// the index from nothing (the first symbol_search with an empty state folder), refreshing it after
// one file changed, and symbol_search / workspace_search p50/p95 on a warm store, beside ripgrep for
// the same text query (`rg --fixed-strings --type cs`, a process per query as an agent would run it)
// and a ripgrep-free baseline-less symbol row. Also one CLI call end to end (node + host start + query), and
// the floor under every search: stat(2) of the paths its freshness check stats, in C (bench/stat-floor.c, when cc exists).
// Usage: node bench/store-search.mjs [--files 10000] [--iterations 30] [--conditional 0.2]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFramedProcess } from './lspClient.mjs';
import { option, report, row } from './stats.mjs';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(benchDir, '..');
const serverDll = path.join(repoRoot, 'dist', 'server', 'SharpClaw.Server.dll');
const cli = path.join(repoRoot, 'dist', 'cli.js');

/**
 * N files in N/50 folders, each a namespace with one class of six members and some body text; a share of them
 * (--conditional, 0 to 1, default 0) also declares a member under #if NET and one under its #else, which the index
 * parses again under the modern flavour's symbols.
 */
function generate(root, files, conditional = 0) {
  fs.rmSync(root, { recursive: true, force: true });
  for (let i = 0; i < files; i++) {
    const folder = path.join(root, `src/Area${Math.floor(i / 50)}`);
    if (i % 50 === 0) fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `Service${i}.cs`), `using System;
using System.Collections.Generic;

namespace Synthetic.Area${Math.floor(i / 50)};

/// <summary>Service number ${i}.</summary>
public sealed class Service${i} : IService
{
    private readonly List<int> values = new();

    public int Count => this.values.Count;

    public event EventHandler? Changed;

    public void AddValue(int value)
    {
        this.values.Add(value);
        this.Changed?.Invoke(this, EventArgs.Empty);
    }

    public int ComputeTotal${i}() => this.values.Count == 0 ? 0 : ${i} + this.values[0];

    public override string ToString() => "Service${i} with " + this.Count + " values";
${(i % 100) < conditional * 100 ? `
#if NET
    public int ModernTotal${i}() => this.Count;
#else
    public int LegacyTotal${i}() => this.Count;
#endif
` : ''}}
`);
  }
  fs.writeFileSync(path.join(root, 'src', 'IService.cs'), 'namespace Synthetic;\n\npublic interface IService\n{\n    int Count { get; }\n}\n');
}

/** The paths one query's freshness check stats: each folder (the root too), its .gitignore, and each C# file. */
function checkedPaths(root) {
  const paths = [];
  const folders = [root];
  for (let i = 0; i < folders.length; i++) {
    paths.push(folders[i], path.join(folders[i], '.gitignore'));
    for (const entry of fs.readdirSync(folders[i], { withFileTypes: true })) {
      const full = path.join(folders[i], entry.name);
      if (entry.isDirectory()) folders.push(full);
      else if (entry.name.endsWith('.cs')) paths.push(full);
    }
  }
  return paths;
}

/**
 * The floor under every search: bench/stat-floor.c stats the same paths on two threads in chunks, as the host
 * does. `sample(runs)` makes that many runs now and returns their times, so the bench can take them between its
 * queries (the VM's speed drifts: a floor measured apart from the searches would compare different moments).
 * Null when no C compiler is installed (the row is then left out).
 */
function statFloor(workspace, scratch) {
  const binary = path.join(scratch, 'stat-floor');
  const compiled = spawnSync('cc', ['-O2', '-pthread', path.join(benchDir, 'stat-floor.c'), '-o', binary], { encoding: 'utf8' });
  if (compiled.error || compiled.status !== 0) {
    console.log(`[bench] no stat floor: cc ${compiled.error?.message ?? compiled.stderr}`);
    return null;
  }
  const list = path.join(scratch, 'paths.txt');
  const paths = checkedPaths(workspace);
  fs.writeFileSync(list, paths.join('\n') + '\n');
  return {
    paths: paths.length,
    sample: (runs) => execFileSync(binary, [list, String(runs), '1', 'samples'], { encoding: 'utf8' }).trim().split(' ').map(Number),
  };
}

async function timed(action) {
  const started = performance.now();
  const result = await action();
  return { ms: performance.now() - started, result };
}

export async function benchStoreSearch({ files = Number(option('files', '10000')), iterations = Number(option('iterations', '30')), conditional = Number(option('conditional', '0')) } = {}) {
  if (!fs.existsSync(serverDll)) throw new Error(`${serverDll} is missing: run "npm run build" first`);
  const workspace = path.join(os.tmpdir(), `sharpclaw-synth-files-${files}${conditional ? `-if${conditional}` : ''}`);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sharpclaw-bench-store-'));
  generate(workspace, files, conditional);
  const host = startFramedProcess('dotnet', [serverDll, '--state-directory', stateDir, '--log-directory', stateDir]);
  await host.request('initialize', { processId: process.pid, capabilities: {}, rootUri: null });
  const symbol = (query) => host.request('sharpclaw/symbolSearch', { workspace, query, limit: 50 });
  const text = (query) => host.request('sharpclaw/workspaceSearch', { workspace, query, limit: 50 });

  const build = await timed(() => symbol('Service1'));
  if (build.result.indexedFiles !== files + 1) throw new Error(`indexed ${build.result.indexedFiles} files, expected ${files + 1}`);
  const noChange = [];
  for (let i = 0; i < 5; i++) noChange.push((await timed(() => symbol('Service1'))).ms);
  const updates = [];
  for (let i = 0; i < 5; i++) {
    const file = path.join(workspace, 'src', 'Area3', `Service${150 + i}.cs`);
    fs.appendFileSync(file, `\npublic static class Added${i} { }\n`);
    const { ms, result } = await timed(() => symbol(`Added${i}`));
    if (result.reindexedFiles !== 1 || result.total !== 1) throw new Error(`after one change: reindexed ${result.reindexedFiles}, found ${result.total}`);
    updates.push(ms);
  }
  const floor = statFloor(workspace, stateDir);
  const floorTimes = [];
  const symbolTimes = { exact: [], humps: [], substring: [] };
  const textTimes = [];
  const rgTimes = [];
  const textQuery = 'ComputeTotal42(';
  for (let i = 0; i < iterations; i++) {
    symbolTimes.exact.push((await timed(() => symbol(`Service${(i * 37) % files}`))).ms);
    symbolTimes.humps.push((await timed(() => symbol('CoTo'))).ms);
    symbolTimes.substring.push((await timed(() => symbol('puteTot'))).ms);
    const answer = await timed(() => text(textQuery));
    if (answer.result.total < 1) throw new Error('workspace_search found nothing');
    textTimes.push(answer.ms);
    const started = performance.now();
    const rg = spawnSync('rg', ['--fixed-strings', '--ignore-case', '--type', 'cs', '-n', '--column', textQuery, '.'], { cwd: workspace, encoding: 'utf8' });
    rgTimes.push(performance.now() - started);
    if (rg.status !== 0) throw new Error(`rg: ${rg.stderr}`);
    floorTimes.push(...(floor?.sample(4) ?? []));
  }
  await host.request('shutdown', null);
  host.notify('exit');
  await host.exited;

  const cliTimes = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    execFileSync(process.execPath, [cli, 'tool', 'csharp_symbol_search', '--cwd', workspace, '--input', '{"query":"Service7"}', '--permission-mode', 'read-only'], { env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir }, stdio: 'ignore' });
    cliTimes.push(performance.now() - started);
  }
  const dbBytes = fs.statSync(path.join(stateDir, 'workspaces', fs.readdirSync(path.join(stateDir, 'workspaces'))[0], 'store.db')).size;
  fs.rmSync(stateDir, { recursive: true, force: true });
  const under = (values, ms) => values.every((v) => v <= ms) || [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1] <= ms;
  return report('store-search', {
    solution: `synthetic workspace of ${files + 1} C# files (${Math.round(files / 50)} folders${conditional ? `, ${Math.round(conditional * 100)}% with #if NET/#else members` : ''}), no projects loaded`,
    store_mb: Number((dbBytes / 1e6).toFixed(1)),
    rows: [
      row(`index build, ${files + 1} files (first symbol_search, empty store)`, [build.ms], undefined, { goal: '< 10 s on 2 cores', meets_goal: build.ms < 10_000 }),
      row('refresh after one file changed (symbol_search that re-parses it)', updates, undefined, { goal: '< 100 ms', meets_goal: under(updates, 100) }),
      row('symbol_search, nothing changed (the refresh walk + query)', noChange),
      row('symbol_search exact (Service123)', symbolTimes.exact, undefined, { goal: 'p95 < 20 ms', meets_goal: under(symbolTimes.exact, 20) }),
      row('symbol_search camel humps (CoTo)', symbolTimes.humps, undefined, { goal: 'p95 < 20 ms', meets_goal: under(symbolTimes.humps, 20) }),
      row('symbol_search substring (puteTot)', symbolTimes.substring, undefined, { goal: 'p95 < 20 ms', meets_goal: under(symbolTimes.substring, 20) }),
      row(`workspace_search "${textQuery}" vs rg (a process per query)`, textTimes, rgTimes, { goal: 'p95 < 20 ms', meets_goal: under(textTimes, 20) }),
      row('CLI csharp_symbol_search end to end (node, host start, warm store)', cliTimes),
      ...(floor ? [row(`floor: stat(2) of the ${floor.paths} paths every search checks, in C on two threads (bench/stat-floor.c, 4 runs between each round of queries)`, floorTimes)] : []),
    ],
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStoreSearch();
