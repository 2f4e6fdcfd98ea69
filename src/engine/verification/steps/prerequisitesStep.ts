// Step 4 of a verification: what the build needs that verification never provides on its own.
// Without restore allowed, a project whose assets file (obj/project.assets.json) is missing is a
// named prerequisite with the command that provides it, and nothing is built. (The tests scope's
// missing build outputs are checked per test project: testProjectStep.ts.)
import * as fs from 'node:fs';
import { notRunTests, quoteForShell } from './reportBuilder';
import type { SelectedProjects } from './selectStep';
import { StepStop, type VerificationRun } from './verificationRun';

export function checkRestored(run: VerificationRun, selected: SelectedProjects): StepStop | undefined {
  const { report, request, target } = run;
  if (request.scope === 'tests' || request.restore) return undefined;
  const unrestored = selected.toBuild.filter((project) => project.assetsFile && !fs.existsSync(project.assetsFile));
  if (unrestored.length === 0) return undefined;
  for (const project of unrestored) {
    report.prerequisites.push({
      kind: 'assets',
      message: `${report.relative(project.path)} is not restored: ${report.relative(project.assetsFile!)} is missing. Verification never restores unless asked (--restore).`,
      command: `dotnet restore ${quoteForShell(report.relative(target.path))}`,
      project: report.relative(project.path),
    });
  }
  report.build = { status: 'missingPrerequisites', reason: 'Restore is off and some projects are not restored.', errors: 0, warnings: 0, diagnostics: [], omittedDiagnostics: 0 };
  if (request.scope !== 'build') report.tests = notRunTests('The build did not run, so no tests ran.');
  return new StepStop(report.finish('missingPrerequisites', `Missing prerequisite: ${unrestored.length} project(s) are not restored; run dotnet restore ${report.relative(target.path)} or pass --restore.`));
}
