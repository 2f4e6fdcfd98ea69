// The verification runner: one plain module for the extension host, the CLI and the MCP server.
// Order of work: find the target (the host's sharpclaw/resolveTarget, files only) → ask the
// permission policy (no project code has run yet) → take the workspace lock → check the SDK →
// evaluate the projects (the host's sharpclaw/projectGraph) → select → check prerequisites →
// build → test → release. Every process goes through runProcess (timeout,
// cancellation, process-tree kill, bounded logs).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PermissionPolicy } from '../permissions/permissionPolicy';
import { buildRoots, isBuildInput, selectAffected } from './affected';
import { CompileMemory } from './compileMemory';
import { DiagnosticCollector, interferenceCodes, prerequisiteCodes } from './diagnostics';
import { gitChanges } from './gitChanges';
import { commandLine, dotnetEnvironment, runProcess, type ProcessOutcome } from './processRunner';
import type { HostRequester } from '../host/hostRequester';
import { evaluateWithHost, resolveTarget, type ResolvedTarget } from './hostGraph';
import { EvaluationError, type EvaluatedProject, type ProjectGraph } from './projectGraph';
import {
  addCounters,
  emptyCounters,
  type BuildSection,
  type Change,
  type FailedTest,
  type Prerequisite,
  type SelectedProject,
  type Selection,
  type Step,
  type TestCounters,
  type TestProjectResult,
  type TestSection,
  type VerificationReport,
  type VerificationStatus,
} from './report';
import type { VerifyRequest } from './request';
import { createRunDirectory, verificationStateFolder } from './runDirectory';
import { dotnetTestMode, errorLines, helpArguments, mtpExitMeaning, parseMtpSummary, runnerNames, testArguments, testRunnerFor, trxOptionFrom, type TrxOption } from './testRunner';
import { parseTrx, TrxError } from './trx';
import { ToolError } from '../errors';
import { acquireWorkspaceLock, LockWaitError } from '../workspaceLock';

export interface VerifyContext {
  workspaceFolder: string;
  permissions: PermissionPolicy;
  /** The tool or command asking, for the approval dialog and log. */
  requestedBy: string;
  signal?: AbortSignal;
  progress?: (message: string) => void;
  /** The dotnet executable (default: `dotnet` on PATH). */
  dotnet?: string;
  /** The Roslyn host: the target and the project graph come from it (the same rule as the read tools). */
  host: HostRequester;
  /** Overrides the per-user state root (src/engine/stateFolder.ts) that holds the lock and runs. */
  stateRoot?: string;
  /** Test processes run at once (default 2). */
  testParallelism?: number;
}

const maxDiagnostics = 200;
const maxFailedTests = 100;
const maxTextLength = 4000;

const clip = (text: string, max = maxTextLength) => (text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text);

class ReportBuilder {
  /** When the run started; moved to the moment the person answered the approval (their wait is not the run's). */
  started = Date.now();
  readonly steps: Step[] = [];
  readonly prerequisites: Prerequisite[] = [];
  readonly notes: string[] = [];
  selection: Selection | null = null;
  build: BuildSection | null = null;
  tests: TestSection | null = null;
  lockWaitMs = 0;
  target: string | null = null;

  constructor(
    readonly request: VerifyRequest,
    readonly workspaceFolder: string,
  ) {}

  relative(file: string): string {
    return path.relative(this.workspaceFolder, file).split(path.sep).join('/') || path.basename(file);
  }

  addStep(step: Step): void {
    this.steps.push(step);
  }

  finish(status: VerificationStatus, summary: string): VerificationReport {
    const finished = Date.now();
    return {
      schemaVersion: 1,
      status,
      summary,
      scope: this.request.scope,
      workspaceFolder: this.workspaceFolder,
      target: this.target,
      configuration: this.request.configuration,
      framework: this.request.framework ?? null,
      restore: this.request.restore,
      timeoutSeconds: this.request.timeoutSeconds,
      startedAt: new Date(this.started).toISOString(),
      finishedAt: new Date(finished).toISOString(),
      durationMs: finished - this.started,
      lockWaitMs: this.lockWaitMs,
      selection: this.selection,
      prerequisites: this.prerequisites,
      steps: this.steps,
      build: this.build,
      tests: this.tests,
      notes: this.notes,
    };
  }
}

function stepFrom(kind: Step['kind'], target: string, file: string, args: readonly string[], cwd: string, outcome: ProcessOutcome): Step {
  return {
    kind,
    target,
    commandLine: commandLine(file, args),
    cwd,
    startedAt: outcome.startedAt,
    durationMs: outcome.durationMs,
    outcome: outcome.kind,
    exitCode: outcome.exitCode,
    log: outcome.log,
  };
}

/** A verification the permission policy (or the person) refused: it ran nothing. */
function deniedReport(report: ReportBuilder, message: string): VerificationReport {
  report.notes.push(message);
  return report.finish('denied', `permission_denied: ${message}`);
}

export async function verify(request: VerifyRequest, context: VerifyContext): Promise<VerificationReport> {
  const workspaceFolder = path.resolve(context.workspaceFolder);
  const report = new ReportBuilder(request, workspaceFolder);
  const progress = context.progress ?? (() => undefined);
  const dotnet = context.dotnet ?? 'dotnet';

  // 0. A policy that refuses without asking anyone (read-only mode, Restricted Mode, a terminal
  // that cannot prompt) refuses before any process work — the host's target discovery included.
  const refused = context.permissions.refusal?.('shell');
  if (refused) return deniedReport(report, refused.message ?? 'Permission to build and test was denied.');

  // 1. The target, from files only (the host's discovery: what the read tools use).
  const resolution = await resolveTarget(context.host, workspaceFolder, request.target, context.signal);
  if (resolution.kind === 'none') {
    report.build = null;
    report.tests = null;
    return report.finish('skipped', `Skipped: ${resolution.reason}`);
  }
  const target = resolution.target;
  report.target = report.relative(target.path);

  // 2. Permission, before any process: evaluation, builds and tests all run project code.
  const decision = await context.permissions.request(
    {
      kind: 'shell',
      workspaceFolder,
      target: report.target,
      requestedBy: context.requestedBy,
      action: `build and test ${report.target} with dotnet (scope ${request.scope}, ${request.configuration}${request.framework ? `, ${request.framework}` : ''}${request.restore ? ', restore allowed' : ''})`,
      reason: 'verification evaluates, builds and tests the projects, which runs code from their project and build files',
      ...(request.changedFiles?.length ? { files: request.changedFiles } : {}),
    },
    context.signal,
  );
  if (!decision.granted) return deniedReport(report, decision.message ?? `Permission to build and test ${report.target} was denied.`);
  // The time a dialog waited for the person is not part of the run.
  report.started = Date.now();

  // 3. The workspace lock.
  const stateDir = verificationStateFolder(workspaceFolder, context.stateRoot);
  const timeoutMs = request.timeoutSeconds * 1000;
  let lock;
  try {
    lock = await acquireWorkspaceLock(stateDir, {
      timeoutMs,
      ...(context.signal ? { signal: context.signal } : {}),
      onWait: (holder) => progress(`Waiting for ${holder} of this workspace to finish…`),
    });
  } catch (error) {
    if (error instanceof LockWaitError) {
      report.lockWaitMs = Date.now() - report.started;
      report.notes.push(error.message);
      return report.finish(error.outcome, `${error.outcome === 'timedOut' ? 'Timed out' : 'Cancelled'} waiting for the workspace lock: ${error.message}`);
    }
    throw error;
  }
  report.lockWaitMs = lock.waitedMs;
  if (lock.waitedMs > 500) report.notes.push(`Waited ${(lock.waitedMs / 1000).toFixed(1)} s for another verification of this workspace.`);
  try {
    const result = await runLocked(request, context, report, target, stateDir, dotnet, progress);
    const compromised = lock.compromised();
    if (compromised) report.notes.push(`The workspace lock was lost while verifying (${compromised.message}); another run may have overlapped this one.`);
    return result;
  } finally {
    await lock.release();
  }
}

async function runLocked(
  request: VerifyRequest,
  context: VerifyContext,
  report: ReportBuilder,
  target: ResolvedTarget,
  stateDir: string,
  dotnet: string,
  progress: (message: string) => void,
): Promise<VerificationReport> {
  const timeoutMs = request.timeoutSeconds * 1000;
  const signal = context.signal;
  const targetDir = path.dirname(target.path);
  const run = (file: string, args: string[], cwd: string) =>
    runProcess(file, args, { cwd, timeoutMs, env: dotnetEnvironment, ...(signal ? { signal } : {}) });
  const stopped = (outcome: ProcessOutcome, what: string): VerificationReport | undefined => {
    if (outcome.kind === 'cancelled') return report.finish('cancelled', `Cancelled during ${what}.`);
    if (outcome.kind === 'timedOut') return report.finish('timedOut', `Timed out after ${request.timeoutSeconds} s during ${what}; the process tree was killed.`);
    return undefined;
  };

  // 4. The SDK (global.json is honoured by `dotnet --version` in the target's folder).
  progress('Checking the .NET SDK…');
  const sdkArgs = ['--version'];
  const sdk = await run(dotnet, sdkArgs, targetDir);
  report.addStep(stepFrom('sdk', report.target!, dotnet, sdkArgs, targetDir, sdk));
  const sdkStop = stopped(sdk, 'the SDK check');
  if (sdkStop) return sdkStop;
  if (sdk.kind === 'failedToStart' || sdk.exitCode !== 0) {
    const globalJson = /global\.json/i.test(sdk.log.text);
    report.prerequisites.push({
      kind: 'sdk',
      message:
        sdk.kind === 'failedToStart'
          ? `The .NET SDK is missing: ${dotnet} could not be started (${sdk.startError ?? 'not found'}). Install it from https://dotnet.microsoft.com/download.`
          : `No installed .NET SDK matches this workspace${globalJson ? ' (global.json)' : ''}: ${clip(sdk.log.text.trim(), 600)}`,
      command: sdk.kind === 'failedToStart' ? null : 'dotnet --list-sdks',
      project: null,
    });
    return report.finish('missingPrerequisites', 'Missing prerequisite: a .NET SDK that can build this workspace.');
  }

  // 5. Evaluation (runs project code: after the permission, inside the lock).
  progress(`Evaluating the projects of ${report.target}…`);
  let graph: ProjectGraph;
  try {
    graph = await evaluateWithHost(context.host, {
      workspaceFolder: report.workspaceFolder,
      target,
      configuration: request.configuration,
      timeoutMs,
      requestedBy: context.requestedBy,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (error instanceof ToolError && error.code === 'permission_denied') return deniedReport(report, error.message);
    if (error instanceof ToolError && error.code === 'missing_prerequisites') {
      report.prerequisites.push({ kind: 'sdk', message: error.message, command: error.details.command ?? 'dotnet --list-sdks', project: null });
      return report.finish('missingPrerequisites', `Missing prerequisite: ${clip(error.message, 200)}`);
    }
    if (!(error instanceof EvaluationError)) throw error;
    if (error.outcome !== 'failed') return report.finish(error.outcome, `${error.outcome === 'cancelled' ? 'Cancelled' : 'Timed out'} while evaluating projects: ${error.message}`);
    const collector = new DiagnosticCollector();
    error.output.split(/\r?\n/).forEach((line) => collector.add(line));
    report.build = buildSection('failed', error.message, collector);
    return report.finish('failed', `Failed: ${error.message}`);
  }

  // 6. Selection.
  const inTarget = [...graph.projects.values()];
  const selectedPaths = await select(request, context, report, graph, target);
  if (selectedPaths === undefined) return report.finish('skipped', `Skipped: ${report.selection!.reason}`);
  const selected = selectedPaths.map((p) => graph.projects.get(p)!).filter(Boolean);
  const supportsFramework = (project: EvaluatedProject) => !request.framework || project.targetFrameworks.length === 0 || project.targetFrameworks.includes(request.framework);
  const testProjects = selected.filter((project) => project.isTestProject && supportsFramework(project));
  const builds = request.scope !== 'tests';
  const tests = request.scope !== 'build';

  // 7. Prerequisites: restored assets (unless restore is allowed) and, for `tests`, build outputs.
  if (builds && !request.restore) {
    const toBuild = report.selection!.wholeTarget ? inTarget : closure(graph, selectedPaths);
    const unrestored = toBuild.filter((project) => project.assetsFile && !fs.existsSync(project.assetsFile));
    for (const project of unrestored) {
      report.prerequisites.push({
        kind: 'assets',
        message: `${report.relative(project.path)} is not restored: ${report.relative(project.assetsFile!)} is missing. Verification never restores unless asked (--restore).`,
        command: `dotnet restore ${quoteForShell(report.relative(target.path))}`,
        project: report.relative(project.path),
      });
    }
    if (unrestored.length > 0) {
      report.build = { status: 'missingPrerequisites', reason: 'Restore is off and some projects are not restored.', errors: 0, warnings: 0, diagnostics: [], omittedDiagnostics: 0 };
      if (tests) report.tests = notRunTests('The build did not run, so no tests ran.');
      return report.finish('missingPrerequisites', `Missing prerequisite: ${unrestored.length} project(s) are not restored; run dotnet restore ${report.relative(target.path)} or pass --restore.`);
    }
  }

  // 8. Build.
  if (builds) {
    if (selected.length === 0 && !report.selection!.wholeTarget) {
      report.build = { status: 'notRun', reason: 'No projects were selected.', errors: 0, warnings: 0, diagnostics: [], omittedDiagnostics: 0 };
    } else {
      const runDir = createRunDirectory(stateDir);
      const buildTarget = report.selection!.wholeTarget ? target.path : buildTargetFor(graph, selectedPaths, runDir);
      const args = [
        'build',
        buildTarget,
        // A project SharpClaw generated lives in the state folder: no Directory.Build.rsp above it may add switches.
        ...(buildTarget.startsWith(runDir) ? ['-noAutoResponse'] : []),
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
      // A traversal project in the private run folder is named by what it builds, never by its path.
      const buildLabel = path.dirname(buildTarget) === runDir ? `${buildRoots(graph, selectedPaths).length} affected projects` : report.relative(buildTarget);
      progress(`Building ${buildLabel}…`);
      // Warnings of projects MSBuild finds up to date come from their last compile (compileMemory.ts).
      const compileMemory = CompileMemory.open(stateDir, request.configuration);
      compileMemory.prepare(report.selection!.wholeTarget ? inTarget : closure(graph, selectedPaths), request.framework);
      const collector = new DiagnosticCollector();
      const outcome = await runProcess(dotnet, args, {
        cwd: targetDir,
        timeoutMs,
        env: dotnetEnvironment,
        ...(signal ? { signal } : {}),
        onLine: (line) => collector.add(line),
      });
      report.addStep(stepFrom('build', buildLabel, dotnet, args, targetDir, outcome));
      const stop = stopped(outcome, 'the build');
      if (stop) {
        report.build = buildSection(outcome.kind === 'cancelled' ? 'cancelled' : 'timedOut', `The build was ${outcome.kind === 'cancelled' ? 'cancelled' : 'stopped by the timeout'}.`, collector);
        if (tests) report.tests = notRunTests('The build did not finish, so no tests ran.');
        return stop;
      }
      const remembered = compileMemory.complete(collector.list());
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
        return report.finish('missingPrerequisites', `Missing prerequisite: ${missing[0]!.code}: ${clip(missing[0]!.message, 200)}`);
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
      if (!passed) {
        if (tests) report.tests = notRunTests('The build failed, so no tests ran.');
        return report.finish('failed', summarize(report, 'failed'));
      }
    }
  }

  // 9. Tests.
  if (tests) {
    const section = await runTests(request, context, report, graph, testProjects, stateDir, dotnet, progress);
    report.tests = section;
  }
  return finishFromSections(report);
}

async function select(request: VerifyRequest, context: VerifyContext, report: ReportBuilder, graph: ProjectGraph, target: ResolvedTarget): Promise<string[] | undefined> {
  const all = [...graph.projects.keys()];
  const describe = (projectPath: string, reasons: string[]): SelectedProject => {
    const project = graph.projects.get(projectPath)!;
    return { path: report.relative(project.path), name: project.name, isTestProject: project.isTestProject, testProjectSource: project.testProjectSource, targetFrameworks: project.targetFrameworks, reasons };
  };
  const evaluation = { projects: graph.projects.size, evaluated: graph.evaluated, cached: graph.cached, durationMs: graph.durationMs };
  if (request.scope !== 'affected') {
    report.selection = {
      wholeTarget: true,
      reason: `Scope ${request.scope} covers the whole target.`,
      changeSource: null,
      changes: [],
      projects: all.map((p) => describe(p, [target.kind === 'solution' && target.projects.includes(p) ? `in ${path.basename(target.path)}` : target.projects.includes(p) ? 'the target' : 'referenced by the target'])),
      evaluation,
    };
    return all;
  }
  let changes: Change[];
  let changeSource: 'request' | 'git' | 'none';
  if (request.changedFiles) {
    changeSource = 'request';
    changes = request.changedFiles.map((file) => {
      const absolute = path.resolve(report.workspaceFolder, file);
      return { path: absolute, kind: fs.existsSync(absolute) ? 'modified' : 'deleted' } satisfies Change;
    });
  } else {
    const git = await gitChanges(report.workspaceFolder, context.signal);
    if (git.kind === 'unavailable') {
      changeSource = 'none';
      changes = [];
      report.notes.push(`${git.reason} Without a change list or Git, affected selects the whole target.`);
      report.selection = {
        wholeTarget: true,
        reason: `No change list was given and Git is unavailable (${git.reason}); the whole target is selected.`,
        changeSource,
        changes,
        projects: all.map((p) => describe(p, ['whole target: changes unknown'])),
        evaluation,
      };
      return all;
    }
    changeSource = 'git';
    const workspace = report.workspaceFolder;
    changes = git.changes.filter((change) => {
      // Build outputs are not sources, except restore outputs, which are build inputs.
      if (/[\\/](bin|obj)[\\/]/.test(change.path) && !isBuildInput(change.path)) return false;
      const relative = path.relative(workspace, change.path);
      const inside = !relative.startsWith('..') && !path.isAbsolute(relative);
      // Outside the workspace only build inputs in its parent folders matter (Directory.Build.props above it).
      return inside || (isBuildInput(change.path) && workspace.startsWith(path.dirname(change.path)));
    });
  }
  const affected = selectAffected(graph, changes, report.workspaceFolder);
  const shownChanges = changes.map((change) => ({ ...change, path: report.relative(change.path) }));
  if (affected.wholeTarget) {
    report.selection = {
      wholeTarget: true,
      reason: affected.reason,
      changeSource,
      changes: shownChanges,
      projects: all.map((p) => describe(p, [`whole target: ${affected.reason}`])),
      evaluation,
    };
    return all;
  }
  report.selection = {
    wholeTarget: false,
    reason: affected.reason,
    changeSource,
    changes: shownChanges,
    projects: [...affected.projects].map(([p, reasons]) => describe(p, reasons)),
    evaluation,
  };
  if (affected.projects.size === 0) {
    if (report.request.scope !== 'build') report.tests = { ...notRunTests('No files changed, so nothing was tested.'), status: 'skipped' };
    return undefined;
  }
  return [...affected.projects.keys()];
}

function closure(graph: ProjectGraph, roots: readonly string[]): EvaluatedProject[] {
  const seen = new Set<string>();
  const visit = (project: string) => {
    if (seen.has(project)) return;
    seen.add(project);
    graph.projects.get(project)?.projectReferences.forEach(visit);
  };
  roots.forEach(visit);
  return [...seen].map((p) => graph.projects.get(p)).filter((p): p is EvaluatedProject => p !== undefined);
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

function buildSection(status: BuildSection['status'], reason: string | null, collector: DiagnosticCollector): BuildSection {
  const diagnostics = collector.list();
  return {
    status,
    reason,
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
    diagnostics: diagnostics.slice(0, maxDiagnostics).map((d) => ({ ...d, message: clip(d.message, 1000) })),
    omittedDiagnostics: Math.max(0, diagnostics.length - maxDiagnostics),
  };
}

function notRunTests(reason: string): TestSection {
  return { status: 'notRun', reason, counters: emptyCounters(), projects: [], failedTests: [], omittedFailedTests: 0, resultsDirectory: null };
}

async function runTests(
  request: VerifyRequest,
  context: VerifyContext,
  report: ReportBuilder,
  graph: ProjectGraph,
  testProjects: EvaluatedProject[],
  stateDir: string,
  dotnet: string,
  progress: (message: string) => void,
): Promise<TestSection> {
  if (testProjects.length === 0) {
    const classified = [...graph.projects.values()].filter((p) => !p.isTestProject && (p.testingPlatformApplication || p.packageReferences.includes('Microsoft.NET.Test.Sdk')));
    return {
      ...notRunTests(
        `No test projects in the selection, so nothing was tested — this is not evidence that tests pass.${classified.length ? ` (${classified.map((p) => p.name).join(', ')} reference the test SDK or are test platform apps but evaluate IsTestProject=false.)` : ''}`,
      ),
      status: 'skipped',
    };
  }
  const runDir = createRunDirectory(stateDir);
  const results: Array<{ result: TestProjectResult; failed: FailedTest[] }> = [];
  const queue = [...testProjects];
  const worker = async () => {
    while (queue.length > 0) {
      const project = queue.shift()!;
      if (context.signal?.aborted) {
        results.push({ result: projectResult(report, project, request, 'cancelled', 'Cancelled before it started.'), failed: [] });
        continue;
      }
      results.push(await testProject(request, context, report, project, runDir, dotnet, progress, results.length + queue.length));
    }
  };
  await Promise.all(Array.from({ length: Math.min(context.testParallelism ?? 2, testProjects.length) }, worker));
  results.sort((a, b) => a.result.project.localeCompare(b.result.project));

  const projects = results.map((r) => r.result);
  const failedTests = results.flatMap((r) => r.failed);
  const counters = projects.reduce((sum, p) => addCounters(sum, p.counters), emptyCounters());
  const statuses = new Set(projects.map((p) => p.status));
  const status: TestSection['status'] = statuses.has('cancelled')
    ? 'cancelled'
    : statuses.has('timedOut')
      ? 'timedOut'
      : statuses.has('failed')
        ? 'failed'
        : statuses.has('missingPrerequisites')
          ? 'missingPrerequisites'
          : [...statuses].every((s) => s === 'skipped')
            ? 'skipped'
            : 'passed';
  return {
    status,
    reason: status === 'skipped' ? 'No test ran in any test project.' : null,
    counters,
    projects,
    failedTests: failedTests.slice(0, maxFailedTests),
    omittedFailedTests: Math.max(0, failedTests.length - maxFailedTests),
    resultsDirectory: runDir,
  };
}

function projectResult(report: ReportBuilder, project: EvaluatedProject, request: VerifyRequest, status: TestProjectResult['status'], reason: string | null): TestProjectResult {
  return {
    project: report.relative(project.path),
    runner: testRunnerFor(project, dotnetTestMode(path.dirname(project.path)).mode),
    trxOption: null,
    status,
    reason,
    frameworks: request.framework ? [request.framework] : project.targetFrameworks,
    trxFiles: [],
    counters: emptyCounters(),
  };
}

async function testProject(
  request: VerifyRequest,
  context: VerifyContext,
  report: ReportBuilder,
  project: EvaluatedProject,
  runDir: string,
  dotnet: string,
  progress: (message: string) => void,
  index: number,
): Promise<{ result: TestProjectResult; failed: FailedTest[] }> {
  const relative = report.relative(project.path);
  const frameworks = request.framework ? [request.framework] : project.targetFrameworks;
  // The tests scope never builds: a missing output is a prerequisite, not a pass.
  if (request.scope === 'tests') {
    const missing = frameworks.filter((tfm) => !project.targetPaths[tfm] || !fs.existsSync(project.targetPaths[tfm]!));
    if (missing.length > 0) {
      for (const tfm of missing) {
        report.prerequisites.push({
          kind: 'buildOutput',
          message: `${relative} has no ${request.configuration} build output for ${tfm}${project.targetPaths[tfm] ? ` (${report.relative(project.targetPaths[tfm]!)})` : ''}; the tests scope runs existing outputs only and never builds.`,
          command: `dotnet build ${quoteForShell(relative)} -c ${request.configuration}${request.framework ? ` -f ${request.framework}` : ''}`,
          project: relative,
        });
      }
      return { result: projectResult(report, project, request, 'missingPrerequisites', `No build output for ${missing.join(', ')}.`), failed: [] };
    }
  }
  const resultsDir = path.join(runDir, `${String(index).padStart(3, '0')}-${project.name}`);
  fs.mkdirSync(resultsDir, { recursive: true });
  const cwd = path.dirname(project.path);
  // dotnet test reads global.json from its working folder: the mode is the project folder's.
  const runner = testRunnerFor(project, dotnetTestMode(cwd).mode);
  const invocation = { project: project.path, configuration: request.configuration, framework: request.framework };
  const runTest = async (kind: 'test', args: string[]) => {
    const outcome = await runProcess(dotnet, args, {
      cwd,
      timeoutMs: request.timeoutSeconds * 1000,
      env: dotnetEnvironment,
      ...(context.signal ? { signal: context.signal } : {}),
    });
    report.addStep(stepFrom(kind, relative, dotnet, args, cwd, outcome));
    return outcome;
  };
  const interrupted = (outcome: ProcessOutcome): { result: TestProjectResult; failed: FailedTest[] } | undefined => {
    if (outcome.kind === 'cancelled') return { result: projectResult(report, project, request, 'cancelled', 'Cancelled; the test process tree was killed.'), failed: [] };
    if (outcome.kind === 'timedOut') return { result: projectResult(report, project, request, 'timedOut', `Did not finish within ${request.timeoutSeconds} s; the test process tree was killed.`), failed: [] };
    if (outcome.kind === 'failedToStart') return { result: projectResult(report, project, request, 'failed', `dotnet could not be started: ${outcome.startError}`), failed: [] };
    return undefined;
  };

  // An MTP app names its own TRX option (report-trx, report-xunit-trx): ask it, never assume.
  let trxOption: TrxOption | null = null;
  if (runner !== 'vstest') {
    progress(`Asking ${relative} for its options…`);
    const help = await runTest('test', helpArguments(runner, invocation));
    const stop = interrupted(help);
    if (stop) return stop;
    trxOption = trxOptionFrom(help.log.text);
    if (!trxOption && help.exitCode !== 0) {
      const errors = errorLines(help.log.text);
      const result = projectResult(report, project, request, 'failed', `dotnet test could not run it as a ${runnerNames[runner]} app (exit code ${help.exitCode})${errors.length ? `: ${errors.join(' | ')}` : ''}`);
      return { result: { ...result, runner }, failed: [] };
    }
  }

  const args = testArguments(runner, invocation, resultsDir, trxOption, project.name);
  progress(`Testing ${relative}…`);
  const outcome = await runTest('test', args);
  const stop = interrupted(outcome);
  if (stop) return stop;

  // Every TRX this invocation wrote, each counted once (a multi-targeted project writes one per framework).
  const trxFiles = fs.readdirSync(resultsDir).filter((file) => file.toLowerCase().endsWith('.trx')).sort().map((file) => path.join(resultsDir, file));
  // A framework whose runtime (or mono, for .NET Framework on Linux) is missing is a prerequisite,
  // not a failure; the frameworks that ran still count. Without a TRX to tell which framework it
  // was, the whole project is the prerequisite.
  if (missingTestHost.test(outcome.log.text) && !trxFiles.some((file) => frameworkOfTrx(file, project.targetFrameworks))) {
    report.prerequisites.push({ kind: 'runtime', message: `${relative} needs a .NET runtime that is not installed.`, command: 'dotnet --list-runtimes', project: relative });
    return { result: { ...projectResult(report, project, request, 'missingPrerequisites', 'A required .NET runtime is not installed.'), runner }, failed: [] };
  }
  const unrunnable: { framework: string; needs: string }[] = [];
  const expected = request.framework ? 1 : Math.max(1, project.targetFrameworks.length);
  const framework = request.framework ?? (project.targetFrameworks.length === 1 ? project.targetFrameworks[0]! : 'unknown');
  const result = projectResult(report, project, request, 'passed', null);
  result.runner = runner;
  result.trxOption = trxOption;
  result.trxFiles = trxFiles;
  const failed: FailedTest[] = [];
  const problems: string[] = [];
  let runErrors = 0;
  let zeroTestsExit = false;
  for (const file of trxFiles) {
    let run;
    try {
      run = parseTrx(fs.readFileSync(file, 'utf8'));
    } catch (error) {
      problems.push(`${path.basename(file)} could not be read: ${error instanceof TrxError ? error.message : String(error)}`);
      continue;
    }
    result.counters = addCounters(result.counters, run.counters);
    zeroTestsExit ||= run.zeroTestsExitCode;
    const hostMissing = run.runErrors.find((message) => missingTestHost.test(message));
    const trxFramework = frameworkOfTrx(file, project.targetFrameworks);
    if (hostMissing && trxFramework && run.counters.total === 0) {
      unrunnable.push({ framework: trxFramework, needs: /mono/i.test(hostMissing) ? 'mono (to run .NET Framework tests here)' : 'a .NET runtime that is not installed' });
      continue;
    }
    for (const message of run.runErrors) {
      runErrors++;
      problems.push(`test run error: ${clip(message, 500)}`);
    }
    for (const test of run.results.filter((r) => ['Failed', 'Error', 'Timeout', 'Aborted', 'PassedButRunAborted', 'Disconnected'].includes(r.outcome))) {
      failed.push({ name: test.name, outcome: test.outcome, message: clip(test.message), stackTrace: clip(test.stackTrace), project: relative, framework });
    }
  }
  // Without a TRX option the app's printed totals are all there is; its exit code still decides.
  const printed = runner !== 'vstest' && !trxOption ? parseMtpSummary(outcome.log.text) ?? parseBridgeSummary(outcome.log.text) : null;
  if (printed) result.counters = printed;
  if (trxOption || runner === 'vstest') {
    if (trxFiles.length < expected) {
      problems.unshift(`expected ${expected} TRX file(s) (one per target framework) and found ${trxFiles.length}; dotnet test exited with code ${outcome.exitCode}`);
      problems.push(...errorLines(outcome.log.text));
    }
  } else {
    result.reason = `${relative} offers no TRX option; counted from the totals dotnet test printed.`;
  }
  // MTP apps: exit code 8 is zero tests, not a failure (under VSTest mode dotnet test says so in its output).
  const meaning = runner === 'mtp' ? mtpExitMeaning(outcome.exitCode) : null;
  const zeroTests =
    result.counters.total === 0 &&
    (zeroTestsExit || (meaning?.kind === 'zeroTests') || (runner === 'mtpUnderVstest' && /zero tests ran|exit code 8\b/i.test(outcome.log.text)));
  for (const { framework: tfm, needs } of unrunnable) {
    report.prerequisites.push({ kind: 'runtime', message: `${relative} (${tfm}) needs ${needs}; its tests did not run.`, command: 'dotnet --list-runtimes', project: relative });
  }
  // dotnet test exits nonzero for the frameworks it could not run: that exit is the prerequisite's.
  const exitFailed = outcome.exitCode !== 0 && !zeroTests && unrunnable.length === 0;
  if (problems.length > 0 || result.counters.failed > 0 || runErrors > 0) {
    result.status = 'failed';
    result.reason = problems.length > 0 ? problems.join('; ') : `${result.counters.failed} test${result.counters.failed === 1 ? '' : 's'} failed${meaning && meaning.kind === 'failed' ? ` (${meaning.text})` : ''}.`;
  } else if (exitFailed) {
    result.status = 'failed';
    const errors = errorLines(outcome.log.text);
    result.reason = `dotnet test exited with code ${outcome.exitCode}${meaning ? ` (${meaning.text})` : ''} although its results show no failure${errors.length ? `: ${errors.join(' | ')}` : '.'}`;
  } else if (unrunnable.length > 0) {
    result.status = 'missingPrerequisites';
    const ran = trxFiles.map((file) => frameworkOfTrx(file, project.targetFrameworks)).filter((tfm): tfm is string => Boolean(tfm) && !unrunnable.some((u) => u.framework === tfm));
    result.reason = `Not run on ${unrunnable.map((u) => u.framework).join(', ')} (missing runtime)${ran.length ? `; ran on ${ran.join(', ')}: ${result.counters.passed} passed` : ''}.`;
  } else if (result.counters.total === 0) {
    result.status = 'skipped';
    result.reason = trxFiles.length > 0 ? 'The test run was valid but ran no tests (empty TRX).' : 'The test run was valid but ran no tests.';
  }
  return { result, failed };
}

/** What dotnet test prints when a framework's test host cannot start: its runtime, or mono, is missing. */
const missingTestHost = /You must install or update \.NET to run this application|Framework: 'Microsoft\.NETCore\.App', version '[^']+' \(\S+\) was not found|Could not find 'mono' host/i;

/**
 * The framework a VSTest TRX of a multi-targeted run belongs to: VSTest puts it in the file name
 * as one `_`-separated part (`<LogFilePrefix>_net8.0_20261202180144.trx`, `<run>_net8.0.trx`).
 */
function frameworkOfTrx(file: string, frameworks: readonly string[]): string | undefined {
  const parts = path.basename(file, path.extname(file)).toLowerCase().split('_');
  return frameworks.find((tfm) => parts.includes(tfm.toLowerCase()));
}

/** VSTest-mode dotnet test's line for an MTP app: `Failed! - Failed: 1, Passed: 2, Skipped: 0, Total: 3`. */
function parseBridgeSummary(output: string): TestCounters | null {
  const match = /Failed:\s*(\d+),\s*Passed:\s*(\d+),\s*Skipped:\s*(\d+),\s*Total:\s*(\d+)/i.exec(output);
  if (!match) return null;
  const [failed, passed, skipped, total] = match.slice(1).map(Number) as [number, number, number, number];
  return { total, passed, failed, skipped, other: Math.max(0, total - passed - failed - skipped) };
}

function finishFromSections(report: ReportBuilder): VerificationReport {
  const build = report.build?.status;
  const tests = report.tests?.status;
  let status: VerificationStatus;
  if (build === 'cancelled' || tests === 'cancelled') status = 'cancelled';
  else if (build === 'timedOut' || tests === 'timedOut') status = 'timedOut';
  else if (build === 'failed' || tests === 'failed') status = 'failed';
  else if (build === 'missingPrerequisites' || tests === 'missingPrerequisites' || report.prerequisites.length > 0) status = 'missingPrerequisites';
  else if (report.request.scope === 'tests' && tests === 'skipped') status = 'skipped';
  else status = 'passed';
  return report.finish(status, summarize(report, status));
}

function summarize(report: ReportBuilder, status: VerificationStatus): string {
  const parts: string[] = [];
  const build = report.build;
  if (build) parts.push(`build ${build.status} (${build.errors} error(s), ${build.warnings} warning(s))`);
  const tests = report.tests;
  if (tests) {
    const c = tests.counters;
    parts.push(
      tests.status === 'notRun' || (tests.status === 'skipped' && c.total === 0)
        ? `tests ${tests.status}${tests.reason ? `: ${tests.reason}` : ''}`
        : `tests ${tests.status}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped in ${tests.projects.length} project(s)`,
    );
    if (tests.failedTests.length > 0) parts.push(`failing: ${tests.failedTests.slice(0, 3).map((t) => t.name).join(', ')}${tests.failedTests.length > 3 ? ', …' : ''}`);
  }
  if (report.prerequisites.length > 0) parts.push(`${report.prerequisites.length} missing prerequisite(s)`);
  return `${status}: ${parts.join('; ') || 'nothing ran'}`;
}

function quoteForShell(value: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(value) ? value : `"${value.replace(/"/g, '\\"')}"`;
}
