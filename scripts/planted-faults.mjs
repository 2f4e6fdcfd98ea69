#!/usr/bin/env node
// Planted faults on a real solution (issue 41's proof): for each fault of a faults file, one at a time, plant it (a
// text replacement in one member: throw, flip a comparison, return a constant, drop a call, off-by-one), build, and
// run (a) every test of the solution's test projects, (b) `sharpclaw verify --scope affected --tests all` (with
// --verify-all), (c) the reached run — the tests `navigate tests` lists for the planted member, run with each
// runner's filter; then revert. Checks, per fault: every test the full run fails is listed by `navigate tests`
// (runtime truth) and fails in the reached run; a fault the full run detects is detected by the reached run.
// Writes <out>/<name>.json and <out>/<name>.md.
// Usage: npm run build && node scripts/planted-faults.mjs --solution DIR --faults FILE [--out DIR] [--only ID,ID]
//        [--verify-all]   (runs the solution's code, like dotnet test: a person's explicit command)
// The solution folder must be a restored Git clone whose working tree is clean; nothing of it is written elsewhere.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { trxResults } from './trx-results.mjs';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const cli = path.join(repo, 'dist', 'cli.js');

function options(argv) {
  const found = { out: path.join(repo, 'bench', 'results', 'planted-faults'), only: null, verifyAll: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--verify-all') found.verifyAll = true;
    else if (['--solution', '--faults', '--out', '--only'].includes(flag) && argv[i + 1]) found[flag.slice(2)] = argv[++i];
    else throw new Error(`unknown or incomplete option ${flag}; usage: --solution DIR --faults FILE [--out DIR] [--only ID,ID] [--verify-all]`);
  }
  if (!found.solution || !found.faults) throw new Error('--solution DIR and --faults FILE are required');
  return { ...found, solution: path.resolve(found.solution), only: found.only ? new Set(found.only.split(',')) : null };
}

const args = options(process.argv.slice(2));
/** The faults file: { name, repository, commit, target, runner: 'vstest'|'mtp', mtpTrxOption?: '--report-trx', testProjects: [...], env?: {...}, testSeconds?: N, faults: [{ id, kind, symbol, file, line?, character?, find, replace }] or faultsFrom: 'Other.json' }. */
const spec = JSON.parse(fs.readFileSync(args.faults, 'utf8'));
// A faults file may take another's faults (the same code set up another way: AlgorithmsMtp.json's test runner).
if (spec.faultsFrom) spec.faults = JSON.parse(fs.readFileSync(path.join(path.dirname(args.faults), spec.faultsFrom), 'utf8')).faults;
const env = { ...process.env, MSBUILDDISABLENODEREUSE: '1', ...(spec.env ?? {}) };
const ms = (start) => Math.round(performance.now() - start);
/**
 * A test run's limit: a planted fault can make a test loop forever (sc-p01 on Scrutor hung the full run). coreutils
 * timeout kills the run's whole process group (dotnet test and the test app it starts); a run stopped there counts
 * as detecting the fault, as a CI job's timeout would. A faults file may raise it (`testSeconds`): TheAlgorithms/C-Sharp's
 * Algorithms.Tests alone runs 12,474 tests in about 96 s at load average 5, where 120 s would stop an ordinary run.
 */
const testSeconds = spec.testSeconds ?? 120;
/**
 * verify's limit is per step, and its build step rebuilds what the fault touched: on a shared 2-core machine Parlot's
 * took over 120 s (pl-t02's reached run "timed out during the build", which is no test run at all).
 */
const verifySeconds = 600;

/** Output kept in the results names the clone `<solution>`: the files are committed, the clone's path is this machine's. */
function withoutSolutionPath(text) {
  return text.split(args.solution).join('<solution>');
}

function run(command, argv, { allowFailure = true } = {}) {
  const result = spawnSync(command, argv, { cwd: args.solution, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (!allowFailure && result.status !== 0) throw new Error(`${command} ${argv.join(' ')} failed (${result.status}):\n${(result.stdout + result.stderr).slice(-3000)}`);
  return result;
}

/**
 * Builds the target; the build counts only when MSBuild printed its own "Build succeeded": a build whose worker node
 * was killed from outside has ended with exit code 0 and no summary, leaving the old binaries (and a fault "undetected").
 */
function build({ rebuild = false } = {}) {
  for (let attempt = 1; ; attempt++) {
    const result = run('dotnet', ['build', spec.target, '--no-restore', '-nologo', '--tl:off', '-v:m', '-nodeReuse:false', ...(rebuild ? ['--no-incremental'] : [])]);
    if (result.status === 0 && /^Build succeeded\./m.test(result.stdout)) return;
    if (result.status !== 0 || attempt === 2) throw new Error(`build failed (exit ${result.status}):\n${result.stdout.slice(-3000)}`);
  }
}

/** Runs the test projects (all tests, or only `names`) with each runner's filter; the results read from TRX. */
function testRun(names = null) {
  const results = fs.mkdtempSync(path.join(args.solution, '.planted-results-'));
  const start = performance.now();
  try {
    let timedOut = false;
    for (const project of spec.testProjects) {
      const dir = path.join(results, path.basename(project));
      if (spec.runner === 'mtp') {
        // .NET 10's dotnet test in Microsoft.Testing.Platform mode (global.json test.runner); xunit.v3's TRX and method
        // filter unless the spec names its framework's TRX option (NUnit's runner: the platform's --report-trx).
        const filter = names ? names.flatMap((n) => ['--filter-method', n]) : [];
        timedOut ||= run('timeout', ['-k', '10', String(testSeconds), 'dotnet', 'test', '--project', project, '--no-build', '--no-restore', spec.mtpTrxOption ?? '--report-xunit-trx', '--results-directory', dir, ...filter]).status === 124;
      } else {
        // VSTest: one --filter over fully qualified names (theory cases share their method's name).
        const filter = names ? ['--filter', names.map((n) => `FullyQualifiedName=${n}`).join('|')] : [];
        timedOut ||= run('timeout', ['-k', '10', String(testSeconds), 'dotnet', 'test', project, '--no-build', '--no-restore', '-nologo', '--logger', 'trx', '--results-directory', dir, ...filter]).status === 124;
      }
    }
    const all = fs.readdirSync(results, { recursive: true }).filter((f) => String(f).endsWith('.trx')).flatMap((f) => trxResults(path.join(results, String(f))));
    return { failing: [...new Set(all.filter((r) => r.outcome === 'Failed').map((r) => r.name))].sort(), ran: all.length, ms: ms(start), timedOut };
  } finally {
    fs.rmSync(results, { recursive: true, force: true });
  }
}

/**
 * navigate tests for a fault's member on the unchanged code (at its line and character when given, else by name), every
 * page. In verify's environment: the resident host is one per environment, so the reached run then finds the
 * solution this call compiled (in the script's own environment the first reached run compiled it again, 11.5 s).
 */
function navigateTests(fault) {
  const selector = fault.line ? { file: fault.file, line: fault.line, character: fault.character } : { symbol: fault.symbol };
  const tests = [];
  let cannotFollow = null;
  let limitReached = false;
  let generatorGap = null;
  // A page ends where the answer reaches its byte budget: follow "next offset: N" until there is none.
  for (let offset = 0; ; ) {
    const out = execFileSync('node', [cli, 'tool', 'csharp_navigate', '--input', JSON.stringify({ action: 'tests', ...selector, limit: 200, offset }), '--allow-evaluation', '--cwd', args.solution], { encoding: 'utf8', env });
    tests.push(...[...out.matchAll(/^\S+:\d+:\d+ test (\S+)$/gm)].map((m) => m[1]));
    cannotFollow ??= /^cannot follow: (.*)$/m.exec(out)?.[1] ?? null;
    limitReached ||= /^walk limit: /m.test(out);
    generatorGap ??= /^may be incomplete: (.*)$/m.exec(out)?.[1] ?? null;
    const next = /next offset: (\d+)/.exec(out);
    if (!next) return { tests: [...new Set(tests)], cannotFollow, limitReached, generatorGap };
    offset = Number(next[1]);
  }
}

/** `sharpclaw verify --scope affected --tests T` through the CLI: status, failed tests, tests run, time. */
function verifyCli(tests) {
  const start = performance.now();
  const result = spawnSync('node', [cli, 'verify', '--scope', 'affected', ...(tests === 'all' ? [] : ['--tests', tests]), '--allow-shell', '--allow-evaluation', '--timeout', String(verifySeconds), '--output-format', 'json', '--cwd', args.solution], { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 });
  let report = null;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    return { error: withoutSolutionPath(result.stdout + result.stderr).slice(-500), ms: ms(start) };
  }
  // The report (report.ts): tests.failedTests names each failed case as its TRX names it (arguments, and a generic theory's type arguments, dropped here: gc-p20's ThrowsGivenOutOfRangeValue<String>(…));
  // the list is bounded (tests.omittedFailedTests), so the count comes from tests.counters.
  const data = report.data ?? report;
  const failed = [...new Set((data.tests?.failedTests ?? []).map((c) => String(c.name).split('(')[0].replace(/<.*$/, '')))].sort();
  const counters = data.tests?.counters ?? {};
  return { status: data.status, failing: failed, failedCases: counters.failed ?? 0, omitted: data.tests?.omittedFailedTests ?? 0, ran: counters.total ?? null, ms: ms(start), phases: phasesOf(data), selection: data.tests?.selection ?? null, summary: data.summary ?? null };
}

/**
 * Where a verify's time went, from its report's timestamps: before the first process (SDK check, evaluation), the
 * build, between the build's end and the first test's start (for --tests reached the walks that select the tests,
 * which run after the build), and the tests (first test start to last test end).
 * The reached run follows the --tests all run on the same fault, so its build is the incremental one: the test
 * phase is the comparison that does not depend on that order.
 */
function phasesOf(data) {
  const steps = (data.steps ?? []).map((s) => ({ kind: s.kind, start: Date.parse(s.startedAt), end: Date.parse(s.startedAt) + s.durationMs }));
  const build = steps.find((s) => s.kind === 'build');
  const tests = steps.filter((s) => s.kind === 'test');
  const first = Math.min(...steps.map((s) => s.start));
  return {
    beforeFirstProcessMs: steps.length ? first - Date.parse(data.startedAt) : null,
    buildMs: build ? build.end - build.start : null,
    selectionMs: build && tests.length ? Math.min(...tests.map((s) => s.start)) - build.end : null,
    testsMs: tests.length ? Math.max(...tests.map((s) => s.end)) - Math.min(...tests.map((s) => s.start)) : 0,
  };
}

/** Whether the built CLI has `verify --tests reached` (the verifier's selection); until then the reached run is computed here. */
const cliHasReached = /--tests/.test(spawnSync('node', [cli, '--help'], { encoding: 'utf8' }).stdout);

/**
 * (c) The reached run: the one place that switches to `sharpclaw verify --scope affected --tests reached` once the CLI
 * has it; until then the navigate tests selection of the planted member run with the runner's filter.
 */
function reachedRun(answer) {
  if (cliHasReached) return { via: 'verify --tests reached', ...verifyCli('reached') };
  if (answer.tests.length === 0) return { via: 'navigate tests + filter', failing: [], ran: 0, ms: 0 };
  return { via: 'navigate tests + filter', ...testRun(answer.tests) };
}

/** The results file: counts for the lists (a full run's failures can be hundreds of names), names only for what was missed. */
function compact(rows) {
  const run = (r) => r && { ...r, failing: r.failing?.length ?? 0 };
  return {
    ...rows,
    baseline: run(rows.baseline),
    faults: rows.faults.map(({ find, replace, listed, full, reached, verifyAll, ...fault }) => ({
      ...fault,
      listed: { tests: listed.tests.length, cannotFollow: listed.cannotFollow, limitReached: listed.limitReached, generatorGap: listed.generatorGap },
      full: run(full),
      reached: run(reached),
      verifyAll: run(verifyAll),
    })),
  };
}

function table(rows) {
  const lines = [
    `# Planted faults: ${spec.name} (${spec.repository} @ ${spec.commit.slice(0, 12)}, ${spec.runner === 'mtp' ? 'Microsoft.Testing.Platform' : 'VSTest'})`,
    '',
    `Baseline: ${rows.baseline.ran} tests, ${rows.baseline.failing.length} failing, ${rows.baseline.ms} ms. Reached run: ${rows.faults[0]?.reached.via ?? '-'}.`,
    '',
    '| fault | kind | member | full-run failures | listed by navigate tests | failing not listed | reached-run failures | reached tests run | full time (ms) | reached time (ms) | verify all (ms) | reached / all tests phase (ms) | reached selection walk (ms) | verdict |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const f of rows.faults) {
    lines.push(`| ${f.id} | ${f.kind} | \`${f.symbol}\` | ${f.full.timedOut ? `timed out (${f.full.failing.length})` : f.full.failing.length} | ${f.listed.tests.length} | ${f.notListed.length} | ${f.reached.failedCases ?? f.reached.failing.length} | ${f.reached.ran} | ${f.full.ms} | ${f.reached.ms} | ${f.verifyAll?.ms ?? '-'} | ${f.reached.phases && f.verifyAll?.phases ? `${f.reached.phases.testsMs} / ${f.verifyAll.phases.testsMs}` : '-'} | ${f.reached.phases?.selectionMs ?? '-'} | ${f.verdict} |`);
  }
  // Counted from the verdicts, the one rule (a run that timed out or lost results detected the fault too).
  const detected = rows.faults.filter((f) => f.verdict.startsWith('detected by both') || f.verdict.startsWith('MISSED'));
  lines.push('', `${rows.faults.length} faults; the full run detected ${detected.length}; the reached run detected ${detected.filter((f) => f.verdict.startsWith('detected by both')).length} of those; ${rows.faults.filter((f) => f.notListed.length).length} faults had failing tests navigate tests did not list.`);
  const misses = rows.faults.filter((f) => f.notListed.length);
  for (const f of misses) lines.push('', `- ${f.id} not listed: ${f.notListed.slice(0, 20).join(', ')}${f.notListed.length > 20 ? ` … (${f.notListed.length})` : ''}`);
  return lines.join('\n') + '\n';
}

/**
 * The planted file's original text is journaled beside the clone before planting: the script is synchronous (a signal
 * handler would never run between its child processes), so a run stopped mid-fault is repaired by the next run's start.
 */
fs.mkdirSync(args.out, { recursive: true });
const journal = path.join(args.out, `.${spec.name}.planted-fault.json`); // Outside the clone: verify would count it as a change.
function restoreJournaled() {
  if (!fs.existsSync(journal)) return;
  const { file, original } = JSON.parse(fs.readFileSync(journal, 'utf8'));
  fs.writeFileSync(file, original);
  fs.rmSync(journal);
  console.log(`restored ${path.relative(args.solution, file)} from a run that stopped mid-fault`);
}

// One run per clone: two runs planting in one tree see each other's faults (seen: a baseline of 26 failures).
const lock = path.join(args.out, `.${spec.name}.planted-lock`);
try {
  fs.mkdirSync(lock);
} catch {
  throw new Error(`another planted-faults run holds ${lock} (remove it if that run is gone)`);
}
process.on('exit', () => fs.rmSync(lock, { recursive: true, force: true }));
restoreJournaled();
if (run('git', ['status', '--porcelain', '--untracked-files=no']).stdout.trim()) throw new Error(`${args.solution} has uncommitted changes: planted faults need a clean tree`);
function writeResults() {
  fs.writeFileSync(path.join(args.out, `${spec.name}.json`), JSON.stringify(compact(rows), null, 2) + '\n');
  fs.writeFileSync(path.join(args.out, `${spec.name}.md`), table(rows));
}
let start = performance.now();
// The baseline is rebuilt from scratch: outputs newer than the sources (a stopped run's build finishing late) would hide a planted fault in it.
build({ rebuild: true });
const baseline = testRun();
console.log(`baseline: ${baseline.ran} tests, ${baseline.failing.length} failing (${ms(start)} ms with the build)${baseline.failing.length ? `: ${baseline.failing.slice(0, 5).join(', ')}` : ''}`);
const preexisting = new Set(baseline.failing);
const rows = { solution: spec.name, repository: spec.repository, commit: spec.commit, runner: spec.runner, date: new Date().toISOString(), baseline, faults: [] };

for (let fault of spec.faults.filter((f) => !args.only || args.only.has(f.id))) {
  const file = path.join(args.solution, fault.file);
  const original = fs.readFileSync(file, 'utf8');
  // Faults are written with \n; a file with CRLF line ends (Scrutor's ReflectionExtensions.cs) gets them as its own.
  if (original.includes('\r\n')) fault = { ...fault, find: fault.find.replace(/\r?\n/g, '\r\n'), replace: fault.replace.replace(/\r?\n/g, '\r\n') };
  const at = original.indexOf(fault.find);
  if (at < 0 || original.indexOf(fault.find, at + 1) >= 0) throw new Error(`${fault.id}: "${fault.find}" must occur exactly once in ${fault.file}`);
  start = performance.now();
  const listed = navigateTests(fault);
  const navigateMs = ms(start);
  fs.writeFileSync(journal, JSON.stringify({ file, original }));
  fs.writeFileSync(file, original.replace(fault.find, fault.replace));
  try {
    try {
      build();
    } catch (error) {
      rows.faults.push({ ...fault, verdict: 'does not build', error: withoutSolutionPath(String(error)).slice(0, 500), listed, notListed: [], full: { failing: [], ran: 0, ms: 0 }, reached: { failing: [], ran: 0, ms: 0 } });
      console.log(`${fault.id}: does not build`);
      continue;
    }
    const full = testRun();
    full.failing = full.failing.filter((n) => !preexisting.has(n));
    const verifyAll = args.verifyAll ? verifyCli('all') : null;
    const reached = reachedRun(listed);
    reached.failing = reached.failing.filter((n) => !preexisting.has(n));
    // navigate names a nested class Outer.Inner; runners (and their TRX) Outer+Inner. A TRX names a generic test
    // method with its type arguments, XML-escaped (MinMaxHeapTests.ExtractMinTest&lt;Char&gt;); navigate without them.
    const listedName = (n) => n.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/<[^.]*>$/, '').replace(/\+/g, '.');
    const notListed = full.failing.filter((n) => !listed.tests.includes(listedName(n)));
    // A TRX may name a test by its method alone (NUnit's testName): such a name matches the full name it ends.
    const sameTest = (full, other) => full === other || (!other.includes('.') && full.endsWith(`.${other}`));
    // (The reached run's names come from verify's report, without type arguments: both compared as navigate's are.)
    const notReached = reached.omitted > 0 ? (reached.failedCases >= full.failing.length ? [] : full.failing)
      : full.failing.filter((n) => !reached.failing.some((r) => sameTest(listedName(n), listedName(r))));
    // A run stopped by its time limit detected the fault (its TRX, if any, names what failed before it).
    reached.timedOut ||= reached.status === 'timedOut';
    // A verify stopped in its build ran no test: not a miss and not a detection, a run to repeat.
    const notMeasured = [verifyAll, reached].some((r) => r && /during the build/.test(r.summary ?? ''));
    // A test project that gave fewer results than the baseline ended part-way (its test host stopped: Parlot's pl-t04
    // and pl-p03 left 773 tests without results): the run failed, as verify's 'failed' status with no failed test says.
    const lost = !full.timedOut && full.ran < baseline.ran;
    const reachedFailed = reached.timedOut || (reached.failedCases ?? reached.failing.length) > 0 || reached.status === 'failed';
    const verdict = notMeasured ? 'not measured (a verify timed out during the build)'
      : lost && !notListed.length ? (reachedFailed ? `detected by both (${baseline.ran - full.ran} tests gave no result)` : 'MISSED (the full run lost results, the reached run did not fail)')
      : full.timedOut ? (reached.timedOut || (reached.failedCases ?? reached.failing.length) > 0 ? 'detected by both (timed out)' : 'MISSED (the full run timed out, the reached run did not fail)')
      : full.failing.length === 0 ? 'not detected by the full run'
      : notListed.length || notReached.length ? `MISSED ${Math.max(notListed.length, notReached.length)}`
      : 'detected by both';
    rows.faults.push({ ...fault, navigateMs, listed, notListed, notReached, full, verifyAll, reached, verdict });
    writeResults(); // After each fault: a run stopped later keeps what it found.
    console.log(`${fault.id} ${fault.symbol}: full ${full.failing.length} failing of ${full.ran} (${full.ms} ms); listed ${listed.tests.length}; reached ${reached.failedCases ?? reached.failing.length} failing of ${reached.ran} (${reached.ms} ms); ${verdict}${notListed.length ? ` — not listed: ${notListed.slice(0, 5).join(', ')}` : ''}`);
  } finally {
    fs.writeFileSync(file, original);
    fs.rmSync(journal, { force: true });
  }
}

writeResults();
console.log(table(rows));
const missed = rows.faults.filter((f) => f.verdict.startsWith('MISSED')).length;
process.exitCode = missed ? 1 : 0;
