// Step 1 of a verification: is there a .NET SDK that can build this target? `dotnet --version` in
// the target's folder honours its global.json; a dotnet that cannot start or a global.json no
// installed SDK matches is a named missing prerequisite, not a failure. A passing check is kept in
// the state folder and reused while dotnet, its SDKs, global.json and the environment are unchanged
// (sdkCheckCache.ts): a warm run starts no process for it. A first run where no global.json applies
// asks the host, whose in-process resolver answers what `dotnet --version` would print without a
// process (hostGraph.ts's sdkVersionFromHost; the host's SdkResolver says why global.json is left to
// the command); anything else runs the command.
import { sdkVersionFromHost } from '../hostGraph';
import type { ProcessOutcome } from '../processRunner';
import { dotnetRootOf, sdkCheckFingerprint, storedSdkCheck, storeSdkCheck } from '../sdkCheckCache';
import { answeredWithoutProcess, clip, stepFrom } from './reportBuilder';
import { StepStop, type VerificationRun } from './verificationRun';

export async function checkSdk(run: VerificationRun): Promise<StepStop | undefined> {
  const { report, dotnet, targetDir } = run;
  run.progress('Checking the .NET SDK…');
  const fingerprint = sdkCheckFingerprint(dotnet, targetDir);
  const stored = fingerprint ? storedSdkCheck(run.stateDir, fingerprint, report.target!, targetDir) : null;
  if (stored) {
    report.addStep(stored);
    return undefined;
  }
  const args = ['--version'];
  const resolved = await resolvedByHost(run);
  if (resolved) {
    const step = stepFrom('sdk', report.target!, dotnet, args, targetDir, resolved);
    report.addStep(step);
    if (fingerprint && sdkCheckFingerprint(dotnet, targetDir) === fingerprint) storeSdkCheck(run.stateDir, fingerprint, step);
    return undefined;
  }
  const sdk = await run.dotnetProcess(args, targetDir);
  const step = stepFrom('sdk', report.target!, dotnet, args, targetDir, sdk);
  report.addStep(step);
  const stop = run.stopped(sdk, 'the SDK check');
  if (stop) return stop;
  if (sdk.kind !== 'failedToStart' && sdk.exitCode === 0) {
    // Stored under the fingerprint read before the check, and only if nothing changed while it ran.
    if (fingerprint && sdkCheckFingerprint(dotnet, targetDir) === fingerprint) storeSdkCheck(run.stateDir, fingerprint, step);
    return undefined;
  }
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

/** The host's in-process answer as the outcome `dotnet --version` would have had, or null. */
async function resolvedByHost(run: VerificationRun): Promise<ProcessOutcome | null> {
  const root = dotnetRootOf(run.dotnet);
  if (!root) return null;
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const version = await sdkVersionFromHost(run.host, run.report.workspaceFolder, run.target, root, run.signal);
  if (!version) return null;
  const text = `${version}\n(answered without a process: the .NET host's SDK resolver, as dotnet --version would in this folder with no global.json above it)\n`;
  return answeredWithoutProcess(text, startedAt, Math.round(performance.now() - started));
}
