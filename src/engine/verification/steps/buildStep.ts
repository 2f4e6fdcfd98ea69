// Step 5 of a verification: one `dotnet build` of the target, or of the affected projects' roots
// through a traversal project in the private run folder. The exit code decides, whatever was
// printed; errors that are all missing prerequisites (NETSDK1004, …) are prerequisites, not a
// failure; warnings of projects MSBuild found up to date come from their last compile
// (compileMemory.ts). Fills report.build; stops the run unless the build passed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildRoots } from '../affected';
import { CompileMemory } from '../compileMemory';
import { DiagnosticCollector, interferenceCodes, prerequisiteCodes } from '../diagnostics';
import type { ProjectGraph } from '../projectGraph';
import { createRunDirectory } from '../runDirectory';
import { buildSection, clip, notRunTests, quoteForShell, stepFrom } from './reportBuilder';
import type { SelectedProjects } from './selectStep';
import { StepStop, type VerificationRun } from './verificationRun';

export async function build(run: VerificationRun, graph: ProjectGraph, selected: SelectedProjects): Promise<StepStop | undefined> {
  const { report, request, target } = run;
  const tests = request.scope !== 'build';
  if (selected.projects.length === 0 && !selected.wholeTarget) {
    report.build = { status: 'notRun', reason: 'No projects were selected.', errors: 0, warnings: 0, diagnostics: [], omittedDiagnostics: 0 };
    return undefined;
  }
  const runDir = createRunDirectory(run.stateDir);
  const buildTarget = selected.wholeTarget ? target.path : buildTargetFor(graph, selected.paths, runDir);
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
  const buildLabel = path.dirname(buildTarget) === runDir ? `${buildRoots(graph, selected.paths).length} affected projects` : report.relative(buildTarget);
  run.progress(`Building ${buildLabel}…`);
  // Warnings of projects MSBuild finds up to date come from their last compile (compileMemory.ts).
  const compileMemory = CompileMemory.open(run.stateDir, request.configuration);
  compileMemory.prepare(selected.toBuild, request.framework);
  const collector = new DiagnosticCollector();
  const outcome = await run.dotnetProcess(args, run.targetDir, (line) => collector.add(line));
  report.addStep(stepFrom('build', buildLabel, run.dotnet, args, run.targetDir, outcome));
  const stop = run.stopped(outcome, 'the build');
  if (stop) {
    report.build = buildSection(outcome.kind === 'cancelled' ? 'cancelled' : 'timedOut', `The build was ${outcome.kind === 'cancelled' ? 'cancelled' : 'stopped by the timeout'}.`, collector);
    if (tests) report.tests = notRunTests('The build did not finish, so no tests ran.');
    // The report was finished before the sections were set: finish it again with them.
    return new StepStop(report.finish(stop.report.status, stop.report.summary));
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
