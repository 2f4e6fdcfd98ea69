// Step 5 of a verification: one `dotnet build` of the target, or of the affected projects' roots
// through a traversal project in the private run folder. The exit code decides, whatever was
// printed; errors that are all missing prerequisites (NETSDK1004, …) are prerequisites, not a
// failure; warnings of projects MSBuild found up to date come from their last compile
// (compileMemory.ts). Fills report.build; stops the run unless the build passed. A whole-target
// build can start early, beside the evaluation or collecting it (startWholeTargetBuild).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildRoots } from '../affected';
import { CompileMemory } from '../compileMemory';
import { DiagnosticCollector, interferenceCodes, prerequisiteCodes } from '../diagnostics';
import type { ProcessOutcome } from '../processRunner';
import { evaluateWithHost, isBuildCollectionOffer, type BuildCollectionOffer } from '../hostGraph';
import { EvaluationError, type ProjectGraph } from '../projectGraph';
import { createRunDirectory } from '../runDirectory';
import { hostEvaluateOptions } from './evaluateStep';
import { buildSection, clip, notRunTests, quoteForShell, stepFrom } from './reportBuilder';
import type { SelectedProjects } from './selectStep';
import { StepStop, type VerificationRun } from './verificationRun';

/** A `dotnet build` under way: started by {@link build}, or early by {@link startWholeTargetBuild}. */
export interface RunningBuild {
  readonly args: string[];
  /** What it builds, for the report and progress: a path, or "N affected projects". */
  readonly label: string;
  /** Date.now() when it started: the compiles that write their output from then on are this build's. */
  readonly startedAt: number;
  readonly collector: DiagnosticCollector;
  readonly outcome: Promise<ProcessOutcome>;
  /** Stops it, for a run that ends before its build is needed (the evaluation failed, a project is not restored). */
  cancel(): Promise<void>;
}

function startBuild(run: VerificationRun, buildTarget: string, label: string, runDir: string | undefined, environment: Record<string, string> = {}): RunningBuild {
  const { request } = run;
  const args = [
    'build',
    buildTarget,
    // A project SharpClaw generated lives in the state folder: no Directory.Build.rsp above it may add switches.
    ...(runDir && buildTarget.startsWith(runDir) ? ['-noAutoResponse'] : []),
    ...(request.restore ? [] : ['--no-restore']),
    '-c',
    request.configuration,
    ...(request.framework ? ['-f', request.framework] : []),
    '-nologo',
    '--tl:off',
    '-v:m',
    '-nodeReuse:false',
    '-clp:NoSummary;ForceNoAlign;DisableConsoleColor',
  ];
  run.progress(`Building ${label}…`);
  const stop = new AbortController();
  const onRunAbort = () => stop.abort();
  run.signal?.addEventListener('abort', onRunAbort, { once: true });
  if (run.signal?.aborted) stop.abort();
  const collector = new DiagnosticCollector();
  const startedAt = Date.now();
  const outcome = run.dotnetProcess(args, run.targetDir, (line) => collector.add(line), stop.signal, environment);
  // The run's own cancellation is told apart by run.signal; a build cancelled by the run's steps is never read.
  void outcome.finally(() => run.signal?.removeEventListener('abort', onRunAbort)).catch(() => undefined);
  return {
    args,
    label,
    startedAt,
    collector,
    outcome,
    cancel: async () => {
      stop.abort();
      await outcome.catch(() => undefined);
    },
  };
}

/**
 * How a run's build starts. For the scopes that build the whole target (all, build) with restore off, the build
 * needs nothing from the evaluation: it starts as soon as the SDK check passes (waiting for a cold evaluation was most
 * of what a first verify after a person's own build added to it; issue 39) — `beside` the host's evaluation, or,
 * `collecting`, with the evaluation collected by the build itself when the host keeps no valid one (the host's
 * BuildCollection: no second MSBuild process; not for one framework, whose build would not reach the others). Not
 * early (`after`) when a project the target names has no assets file where restore writes it: the evaluation then
 * decides, before any build, which projects are not restored (prerequisitesStep.ts), as a run that waits for it does.
 */
export type BuildStart = 'after' | 'beside' | 'collecting';

export function buildStart(run: VerificationRun): BuildStart {
  const { request, target } = run;
  if ((request.scope !== 'all' && request.scope !== 'build') || request.restore) return 'after';
  if (!target.projects.every((project) => restoreOutputFound(project, run.report.workspaceFolder))) return 'after';
  return request.framework ? 'beside' : 'collecting';
}

/**
 * Starts the whole-target build as {@link buildStart} said, with the evaluation `evaluation` (evaluateStep.ts
 * startEvaluation) it goes beside: the host's graph; or, collecting, the host's kept graph or a collection this build
 * fills, read from the host once the build ran (when the person's environment already sets a variable the
 * collection needs, the build runs as it would and the host evaluates beside it).
 */
export async function startWholeTargetBuild(
  run: VerificationRun,
  start: BuildStart,
  evaluation: Promise<ProjectGraph | BuildCollectionOffer>,
): Promise<{ early: RunningBuild | undefined; graph: Promise<ProjectGraph> }> {
  const graphOnly = evaluation as Promise<ProjectGraph>; // offered only when collecting
  if (start === 'after') return { early: undefined, graph: graphOnly };
  const label = run.report.relative(run.target.path);
  if (start === 'beside') return { early: startBuild(run, run.target.path, label, undefined), graph: graphOnly };
  let answer: ProjectGraph | BuildCollectionOffer;
  try {
    answer = await evaluation;
  } catch {
    return { early: undefined, graph: graphOnly }; // evaluate() reports why, before any build
  }
  if (!isBuildCollectionOffer(answer)) return { early: startBuild(run, run.target.path, label, undefined), graph: Promise.resolve(answer) };
  if (Object.keys(answer.environment).some((name) => process.env[name] !== undefined)) {
    const graph = evaluateWithHost(run.host, hostEvaluateOptions(run)); // the collection is left for the host to remove
    graph.catch(() => undefined);
    return { early: startBuild(run, run.target.path, label, undefined), graph };
  }
  const early = startBuild(run, run.target.path, label, undefined, answer.environment);
  const id = answer.id;
  const graph = early.outcome.then(() =>
    run.signal?.aborted
      ? Promise.reject(new EvaluationError(`Evaluating ${run.target.relative} was cancelled.`, 'cancelled'))
      : evaluateWithHost(run.host, { ...hostEvaluateOptions(run), buildCollection: id }),
  );
  graph.catch(() => undefined); // read by evaluate()
  return { early, graph };
}

/**
 * Whether `project`'s assets file is where restore writes it by default: obj/ beside the project, or, with
 * UseArtifactsOutput (Polly, for one), artifacts/obj/<project name>/ under a folder above it, up to the
 * workspace (ArtifactsPath defaults to the folder of the Directory.Build.props that turns it on). Only a guess
 * of whether to start the build before the evaluation's answer: the evaluation still decides what is not
 * restored, and stops a build started beside it when something is not (prerequisitesStep.ts).
 */
function restoreOutputFound(project: string, workspaceFolder: string): boolean {
  const folder = path.dirname(project);
  if (fs.existsSync(path.join(folder, 'obj', 'project.assets.json'))) return true;
  const name = path.basename(project, path.extname(project));
  const inWorkspace = !path.relative(workspaceFolder, folder).startsWith('..');
  for (let dir = folder; inWorkspace; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'artifacts', 'obj', name, 'project.assets.json'))) return true;
    if (path.relative(workspaceFolder, dir) === '' || path.dirname(dir) === dir) break;
  }
  return false;
}

/** `early`: the build {@link startWholeTargetBuild} started beside the evaluation, else one starts here. */
export async function build(run: VerificationRun, graph: ProjectGraph, selected: SelectedProjects, early?: RunningBuild): Promise<StepStop | undefined> {
  const { report, request, target } = run;
  const tests = request.scope !== 'build';
  if (selected.projects.length === 0 && !selected.wholeTarget) {
    report.build = { status: 'notRun', reason: 'No projects were selected.', errors: 0, warnings: 0, diagnostics: [], omittedDiagnostics: 0 };
    return undefined;
  }
  let running = early;
  // A build started beside the evaluation was announced before "Evaluating…": say again what runs now.
  if (running) run.progress(`Building ${running.label}…`);
  else {
    const runDir = createRunDirectory(run.stateDir);
    const buildTarget = selected.wholeTarget ? target.path : buildTargetFor(graph, selected.paths, runDir);
    // A traversal project in the private run folder is named by what it builds, never by its path.
    const label = path.dirname(buildTarget) === runDir ? `${buildRoots(graph, selected.paths).length} affected projects` : report.relative(buildTarget);
    running = startBuild(run, buildTarget, label, runDir);
  }
  const { collector } = running;
  const outcome = await running.outcome;
  const stop = stoppedBuild(run, running, outcome);
  if (stop) return stop;
  // Warnings of projects MSBuild found up to date come from their last compile (compileMemory.ts).
  const remembered = CompileMemory.open(run.stateDir, request.configuration).complete(selected.toBuild, request.framework, running.startedAt, collector.list());
  remembered.replayed.forEach((diagnostic) => collector.addDiagnostic(diagnostic));
  report.notes.push(...remembered.notes);
  // The exit code decides, whatever was printed.
  const passed = outcome.kind === 'exited' && outcome.exitCode === 0;
  const errors = collector.list().filter((d) => d.severity === 'error');
  const missing = errors.filter((d) => d.code && prerequisiteCodes[d.code]);
  if (!passed && missing.length > 0 && missing.length === errors.length) {
    for (const diagnostic of missing) {
      report.prerequisites.push({
        kind: prerequisiteCodes[diagnostic.code!]!,
        message: `${diagnostic.code}: ${diagnostic.message}`,
        command: prerequisiteCodes[diagnostic.code!] === 'assets' ? `dotnet restore ${quoteForShell(report.relative(target.path))}` : 'dotnet --list-sdks',
        project: diagnostic.project ? report.relative(diagnostic.project) : null,
      });
    }
    report.build = buildSection('missingPrerequisites', 'The build needs something that is not installed or restored.', collector);
    if (tests) report.tests = notRunTests('The build did not succeed, so no tests ran.');
    return new StepStop(report.finish('missingPrerequisites', `Missing prerequisite: ${missing[0]!.code}: ${clip(missing[0]!.message, 200)}`));
  }
  if (errors.some((d) => d.code && interferenceCodes.has(d.code))) {
    report.notes.push('Some errors (CS2012, MSB3713, MSB3026/7, MSB3021, NU1403) usually mean another build was writing the same files at the same time: interference, not a code error.');
  }
  report.build = buildSection(
    passed ? 'passed' : 'failed',
    passed
      ? null
      : outcome.kind === 'failedToStart'
        ? `dotnet could not be started: ${outcome.startError}`
        : `dotnet build exited with code ${outcome.exitCode}${errors.length === 0 ? ' without printing any diagnostic' : ''}.`,
    collector,
  );
  if (remembered.unknown.length > 0) report.build.warningsUnknownFor = remembered.unknown;
  if (passed) return undefined;
  if (tests) report.tests = notRunTests('The build failed, so no tests ran.');
  return new StepStop(report.finish('failed', report.summarize('failed')));
}

/**
 * Adds the build's step to the report; when the build was cancelled or timed out, fills the build section, says
 * no test ran, and ends the run.
 */
function stoppedBuild(run: VerificationRun, running: RunningBuild, outcome: ProcessOutcome): StepStop | undefined {
  const { report, request } = run;
  report.addStep(stepFrom('build', running.label, run.dotnet, running.args, run.targetDir, outcome));
  const stop = run.stopped(outcome, 'the build');
  if (!stop) return undefined;
  report.build = buildSection(outcome.kind === 'cancelled' ? 'cancelled' : 'timedOut', `The build was ${outcome.kind === 'cancelled' ? 'cancelled' : 'stopped by the timeout'}.`, running.collector);
  if (request.scope !== 'build') report.tests = notRunTests('The build did not finish, so no tests ran.');
  // The report was finished before the sections were set: finish it again with them.
  return new StepStop(report.finish(stop.report.status, stop.report.summary));
}

/**
 * Ends a build started beside the evaluation when the run stops before it needs the build (`stop`: the
 * evaluation failed, or a project is not restored). A run cancelled by its caller cancelled that build too:
 * the report then says the build was cancelled, as it does when the caller cancels a build that started after
 * the evaluation. Otherwise the build is stopped and left out of the report, which `stop` already finished.
 */
export async function endEarlyBuild(run: VerificationRun, early: RunningBuild | undefined, stop: StepStop): Promise<StepStop> {
  if (!early) return stop;
  if (run.signal?.aborted) {
    const outcome = await early.outcome;
    // A build that ended before the cancellation is in the report too, beside the stop that ended the run.
    return stoppedBuild(run, early, outcome) ?? new StepStop(run.report.finish(stop.report.status, stop.report.summary));
  }
  await early.cancel();
  return stop;
}

/**
 * One project builds directly; several are built by one traversal project in the run folder. The
 * traversal imports nothing (no Sdk, so no Directory.Build.props/targets or Directory.Packages.props
 * from the folders above it) and is built with -noAutoResponse (no Directory.Build.rsp either).
 */
function buildTargetFor(graph: ProjectGraph, selected: readonly string[], runDir: string): string {
  const roots = buildRoots(graph, selected);
  if (roots.length === 1) return roots[0]!;
  const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/%/g, '%25').replace(/\$/g, '%24').replace(/@/g, '%40').replace(/;/g, '%3B');
  const traversal = path.join(runDir, 'affected.proj');
  fs.writeFileSync(
    traversal,
    [
      '<Project>',
      '  <!-- Written by SharpClaw: builds the affected projects in one MSBuild invocation. -->',
      '  <ItemGroup>',
      ...roots.map((root) => `    <AffectedProject Include="${escape(root)}" />`),
      '  </ItemGroup>',
      '  <Target Name="Build">',
      '    <MSBuild Projects="@(AffectedProject)" Targets="Build" BuildInParallel="true" />',
      '  </Target>',
      '</Project>',
      '',
    ].join('\n'),
  );
  return traversal;
}
