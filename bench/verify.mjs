// Verification benchmarks (run after `npm run build`):
//  1. `sharpclaw verify --scope all` against plain `dotnet build` + `dotnet test` on a copy of
//     fixtures/VerificationGraph, interleaved in the same run (goal: overhead ≤ 5 % + 0.5 s). On a real
//     solution instead: `--solution DIR --target FILE --name NAME` (restored already; built and tested in
//     place, as its person would; the result is verify-overhead-NAME.json), with `--only overhead`.
//  2. `--scope affected` against `--scope all` on a 50-project synthetic solution after a
//     one-file change in a leaf (goal: only the owner and its dependents run; selection < 2 s warm).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, option, p50, report, row } from './stats.mjs';
import { generateSolution } from './verifySolution.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');
const runs = Number(option('runs', '3'));

function timed(command, args, cwd, env = {}) {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { ms: performance.now() - started, code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Stops the resident host a run started on `stateDir`, then removes the folder (a host left running would idle for 10 minutes beside the next runs). */
function removeState(stateDir) {
  spawnSync(process.execPath, [cli, 'host', 'stop'], { stdio: 'ignore', timeout: 30_000, env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir } });
  fs.rmSync(stateDir, { recursive: true, force: true });
}

function verify(cwd, args, stateDir) {
  const spawnedAt = Date.now();
  const result = timed(process.execPath, [cli, 'verify', ...args, '--allow-shell', '--output-format', 'json', '--timeout', '600'], cwd, { SHARPCLAW_STATE_DIR: stateDir });
  const exitedAt = Date.now();
  const envelope = JSON.parse(result.stdout);
  return { ...result, report: envelope.data, spawnedAt, exitedAt };
}

/**
 * Where one `sharpclaw verify` run's time went, from its report's own timestamps (the run's start, each
 * step's start and duration, the finish) and the process's spawn and exit around it.
 */
function phasesOf(run) {
  const r = run.report;
  const at = (iso) => Date.parse(iso);
  const started = at(r.startedAt);
  const steps = r.steps.map((s) => ({ kind: s.kind, start: at(s.startedAt), end: at(s.startedAt) + s.durationMs }));
  const build = steps.find((s) => s.kind === 'build');
  const tests = steps.filter((s) => s.kind === 'test');
  const testsStart = Math.min(...tests.map((s) => s.start));
  const testsEnd = Math.max(...tests.map((s) => s.end));
  return {
    startToRun: started - run.spawnedAt,
    sdkAndEvaluation: build.start - started,
    build: build.end - build.start,
    tests: testsEnd - testsStart,
    reportAndExit: run.exitedAt - testsEnd,
    // Whether the SDK check and the evaluation ran this time or came from what an earlier run kept.
    sdkCheckMs: r.steps.find((s) => s.kind === 'sdk')?.durationMs ?? null,
    evaluationMs: r.selection?.evaluation?.durationMs ?? null,
    evaluationKept: (r.selection?.evaluation?.cached ?? 0) > 0,
  };
}

function copyFixture(name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sc-bench-${name}-`));
  fs.cpSync(path.join(repoRoot, 'fixtures', name), dir, { recursive: true, filter: (p) => !['bin', 'obj'].includes(path.basename(p)) });
  return dir;
}

/** The solution part 1 runs on: a copy of fixtures/VerificationGraph, or --solution's folder in place. */
function overheadSolution() {
  const solution = option('solution', undefined);
  if (!solution) {
    const dir = copyFixture('VerificationGraph');
    execFileSync('dotnet', ['restore', 'Graph.slnx'], { cwd: dir, stdio: 'ignore' });
    return { dir, target: 'Graph.slnx', name: 'verify-overhead', label: 'fixtures/VerificationGraph (9 projects, 3 test projects, one multi-targeted)', owned: true };
  }
  const target = option('target', undefined);
  const name = option('name', undefined);
  if (!target || !name || !/^[a-z0-9-]+$/.test(name)) throw new Error('--solution needs --target FILE (its solution or project) and --name NAME (lower case, digits, dashes)');
  return { dir: path.resolve(solution), target, name: `verify-overhead-${name}`, label: `${name}: ${target}`, owned: false };
}

export async function benchVerifyOverhead() {
  const solution = overheadSolution();
  const { dir, target } = solution;
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bench-state-'));
  try {
    execFileSync('dotnet', ['build', target, '--no-restore'], { cwd: dir, stdio: 'ignore' }); // warm: both sides start incremental
    // The rounds' own runs are warm: the state folder keeps the SDK check, the evaluation and the compile memory.
    const warmUp = verify(dir, ['--scope', 'all', '--target', target], state);
    if (warmUp.report.status !== 'passed') throw new Error(`sharpclaw verify: ${warmUp.report.summary}`);
    const plain = [];
    const plainBuild = [];
    const plainTest = [];
    const sharpclaw = [];
    const phases = [];
    // verify's first run after a build it did not watch (a new state folder: a cold host, no kept evaluation, no
    // compile memory): since issue 39 it no longer recompiles what that build compiled (compileMemory.ts names
    // those warnings as not known), and its whole-target build starts at once and collects the evaluation itself (the
    // host's BuildCollection), so it should cost what plain build + test do. Measured in each round after the warm
    // run, on a state folder of its own.
    const firsts = [];
    const firstPhases = [];
    let firstNotes = [];
    for (let i = 0; i < runs; i++) {
      const build = timed('dotnet', ['build', target, '--no-restore'], dir);
      const test = timed('dotnet', ['test', target, '--no-build', '--no-restore'], dir);
      if (build.code !== 0 || test.code !== 0) throw new Error(`plain dotnet failed: ${build.stdout}${test.stdout}`);
      plain.push(build.ms + test.ms);
      plainBuild.push(build.ms);
      plainTest.push(test.ms);
      const ours = verify(dir, ['--scope', 'all', '--target', target], state);
      if (ours.report.status !== 'passed') throw new Error(`sharpclaw verify: ${ours.report.summary}`);
      sharpclaw.push(ours.ms);
      phases.push(phasesOf(ours));
      const freshState = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bench-state-first-'));
      try {
        const first = verify(dir, ['--scope', 'all', '--target', target], freshState);
        if (first.report.status !== 'passed') throw new Error(`sharpclaw verify (first): ${first.report.summary}`);
        firsts.push(first.ms);
        firstPhases.push(phasesOf(first));
        firstNotes = first.report.notes;
      } finally {
        removeState(freshState);
      }
    }
    const phase = (name) => phases.map((p) => p[name]);
    const plainMs = p50(plain);
    const oursMs = p50(sharpclaw);
    const allowed = plainMs * 0.05 + 500;
    return report(solution.name, {
      solution: solution.label,
      rows: [
        row('`sharpclaw verify --scope all` vs plain `dotnet build` + `dotnet test` (interleaved runs)', sharpclaw, plain, {
          goal: 'overhead ≤ 5 % + 0.5 s',
          meets_goal: oursMs - plainMs <= allowed,
        }),
        row('first `sharpclaw verify --scope all` after a plain build (a new state folder: cold host, the evaluation collected by the build, nothing recompiled) vs plain `dotnet build` + `dotnet test`', firsts, plain, {
          goal: 'what the person\'s own build costs (≤ 5 % + 0.5 s)',
          meets_goal: p50(firsts) - plainMs <= allowed,
        }),
        // Where verify's time goes, per phase (from its report's timestamps), beside the plain command doing the same work.
        row('phase: spawn to the run (Node, host start, target, permission, lock)', phase('startToRun'), []),
        row("phase: run start to the build (SDK check, and the host's kept graph, or its offer of a collection to a whole-target build)", phase('sdkAndEvaluation'), []),
        row('phase: `dotnet build` vs plain `dotnet build`', phase('build'), plainBuild),
        row('phase: one `dotnet test` per test project (2 at a time) vs plain `dotnet test` of the solution', phase('tests'), plainTest),
        row('phase: last test to exit (TRX reading, report, host stop)', phase('reportAndExit'), []),
        row('first verify, phase: spawn to the run (Node, a cold host start, target, permission, lock)', firstPhases.map((p) => p.startToRun), []),
        row('first verify, phase: the evaluation, read from the build collection after the build', firstPhases.map((p) => p.evaluationMs), []),
        row('first verify, phase: `dotnet build` (collecting the evaluation) vs plain `dotnet build`', firstPhases.map((p) => p.build), plainBuild),
      ],
      runs,
      plainBuildPlusTestMs: plainMs,
      sharpclawVerifyAllMs: oursMs,
      overheadMs: Number((oursMs - plainMs).toFixed(1)),
      allowedOverheadMs: Number(allowed.toFixed(1)),
      goalMet: oursMs - plainMs <= allowed,
      firstVerifyRunsMs: firsts.map((v) => Math.round(v)),
      firstVerifyNotes: firstNotes,
      firstVerifyPhasesMs: firstPhases,
      plainRunsMs: plain.map((v) => Math.round(v)),
      sharpclawRunsMs: sharpclaw.map((v) => Math.round(v)),
      sharpclawPhasesMs: phases,
    });
  } finally {
    if (solution.owned) fs.rmSync(dir, { recursive: true, force: true }); // never --solution's folder: it is the person's
    removeState(state);
  }
}

/** The 50-project synthetic in `dir`, committed to a new Git repository (the affected scope reads Git's changes). */
function committedSynthetic(dir) {
  const generated = generateSolution(dir, { projects: 50, files: 20 });
  const git = (...args) => execFileSync('git', ['-c', 'user.email=b@example.invalid', '-c', 'user.name=bench', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'synthetic');
  return generated;
}

export async function benchVerifyAffected() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bench-synthetic-'));
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bench-state-'));
  try {
    const generated = committedSynthetic(dir);
    execFileSync('dotnet', ['restore', generated.solution], { cwd: dir, stdio: 'ignore' });
    const all = verify(dir, ['--scope', 'all'], state); // also the cold evaluation
    if (all.report.status !== 'passed') throw new Error(`all: ${all.report.summary}`);
    const allAgain = verify(dir, ['--scope', 'all'], state);
    fs.appendFileSync(path.join(dir, generated.leafFile), '// one-line change\n');
    const affectedRuns = [];
    let affected;
    for (let i = 0; i < runs; i++) {
      affected = verify(dir, ['--scope', 'affected'], state);
      if (affected.report.status !== 'passed') throw new Error(`affected: ${affected.report.summary}`);
      affectedRuns.push(affected);
    }
    const selected = affected.report.selection.projects.map((p) => p.name);
    const selectionMs = affectedRuns.map((run) => {
      const r = run.report;
      const firstBuild = r.steps.find((s) => s.kind === 'build' || s.kind === 'test');
      // From the start of the run to the first build or test process: SDK check, evaluation (cache), Git, selection.
      return Date.parse(firstBuild.startedAt) - Date.parse(r.startedAt);
    });
    // Where each warm selection went: the host's evaluation answer (kept graph), then Git and the selection up to
    // the build's start; and, before the run starts, Node loading the CLI, the resident host, target, permission, lock.
    const selectionPhasesMs = affectedRuns.map((run, i) => ({
      spawnToRun: Date.parse(run.report.startedAt) - run.spawnedAt,
      evaluation: run.report.selection.evaluation.durationMs,
      evaluationKept: run.report.selection.evaluation.cached,
      afterEvaluationToBuild: selectionMs[i] - run.report.selection.evaluation.durationMs,
    }));
    return report('verify-affected', {
      solution: `${generated.projects} projects (46 libraries in layers, 4 xunit test projects), 20 files each`,
      rows: [
        row(`\`verify --scope affected\` after a one-line change in leaf ${path.basename(path.dirname(generated.leafFile))} (built: ${selected.join(', ')}) vs \`verify --scope all\` warm`, affectedRuns.map((r) => r.ms), [allAgain.ms], {
          goal: 'only owner + dependents run',
          meets_goal: selected.length < generated.projects,
        }),
        row('affected selection itself (start to the first build, warm evaluation cache)', selectionMs, [], { goal: '< 2 s', meets_goal: p50(selectionMs) < 2000 }),
        row('`verify --scope all` cold (evaluation included)', [all.ms], []),
      ],
      changedFile: generated.leafFile,
      selectedProjects: selected.join(', '),
      testedProjects: affected.report.tests.projects.map((p) => p.project).join(', ') || 'none',
      allColdMs: Math.round(all.ms),
      allColdEvaluationMs: all.report.selection.evaluation.durationMs,
      allWarmMs: Math.round(allAgain.ms),
      affectedMs: median(affectedRuns.map((r) => r.ms)),
      selectionWarmMs: median(selectionMs),
      selectionGoalMet: median(selectionMs) < 2000,
      selectionRunsMs: selectionMs,
      selectionPhasesMs,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    removeState(state);
  }
}

/**
 * The affected selection alone, on the 50-project synthetic without restore or build: `verify --scope affected`
 * after a one-line change in a leaf stops at the restore prerequisite right after selecting, so the run's own
 * start-to-finish is the SDK check, the evaluation, Git and the selection. The first run evaluates (nothing
 * kept yet: the baseline column); the warm runs after it are what an agent's next verify costs.
 */
export async function benchVerifySelection() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bench-selection-'));
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bench-state-'));
  try {
    const generated = committedSynthetic(dir);
    fs.appendFileSync(path.join(dir, generated.leafFile), '// one-line change\n');
    const selection = (run) => {
      if (run.report.status !== 'missingPrerequisites' || !run.report.selection) throw new Error(`affected: ${run.report.summary}`);
      return Date.parse(run.report.finishedAt) - Date.parse(run.report.startedAt);
    };
    const cold = verify(dir, ['--scope', 'affected'], state);
    const coldMs = selection(cold);
    const warm = [];
    let last = cold;
    for (let i = 0; i < runs; i++) {
      last = verify(dir, ['--scope', 'affected'], state);
      warm.push(selection(last));
    }
    const names = (run) => run.report.selection.projects.map((p) => p.name).join(', ');
    if (names(last) !== names(cold)) throw new Error(`warm selected ${names(last)}, cold ${names(cold)}`);
    return report('verify-selection', {
      solution: `${generated.projects} projects (46 libraries in layers, 4 xunit test projects), 20 files each, not restored`,
      rows: [
        row(`affected selection after a one-line change in leaf ${path.basename(path.dirname(generated.leafFile))} (SDK check, evaluation, Git, selection), warm vs the first run's`, warm, [coldMs], {
          goal: '< 2 s warm, same selection',
          meets_goal: p50(warm) < 2000,
        }),
      ],
      selectedProjects: names(last),
      coldMs,
      coldEvaluation: cold.report.selection.evaluation,
      warmEvaluation: last.report.selection.evaluation,
      warmSdkCheckMs: last.report.steps.find((s) => s.kind === 'sdk')?.durationMs ?? null,
      warmRunsMs: warm,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    removeState(state);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = option('only', undefined);
  if (only !== undefined && only !== 'overhead' && only !== 'affected') throw new Error('--only is overhead or affected');
  if (only !== 'affected') await benchVerifyOverhead();
  if (only !== 'overhead' && !option('solution', undefined)) await benchVerifyAffected();
}
