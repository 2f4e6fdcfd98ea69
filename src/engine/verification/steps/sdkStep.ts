// Step 1 of a verification: is there a .NET SDK that can build this target? `dotnet --version` in
// the target's folder honours its global.json; a dotnet that cannot start or a global.json no
// installed SDK matches is a named missing prerequisite, not a failure.
import { clip, stepFrom } from './reportBuilder';
import { StepStop, type VerificationRun } from './verificationRun';

export async function checkSdk(run: VerificationRun): Promise<StepStop | undefined> {
  const { report, dotnet, targetDir } = run;
  run.progress('Checking the .NET SDK…');
  const args = ['--version'];
  const sdk = await run.dotnetProcess(args, targetDir);
  report.addStep(stepFrom('sdk', report.target!, dotnet, args, targetDir, sdk));
  const stop = run.stopped(sdk, 'the SDK check');
  if (stop) return stop;
  if (sdk.kind !== 'failedToStart' && sdk.exitCode === 0) return undefined;
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
  return new StepStop(report.finish('missingPrerequisites', 'Missing prerequisite: a .NET SDK that can build this workspace.'));
}
