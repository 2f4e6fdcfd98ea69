// Records real verifications for the unit tests (a tool, not a test: mocha never runs it):
//   npm run build && node out/test/host-e2e/verification/recordRuns.js [case …]
// runs each case's verification with real dotnet on a restored copy of its fixture and writes
// test/unit/verification/recorded/<case>/: run.json (the request, the host's resolveTarget and
// projectGraph answers, every dotnet command with its exit and the files holding its output and the
// TRX files it wrote, and the report, normalized) beside those files. The workspace, the results
// folder and the state folder are written {workspace}, {results} and {state}.
// test/unit/verification/recordedVerifications.test.ts replays each run through the runner's
// process-runner seam and must get the recorded report back.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveVerifyRequest } from '../../../src/engine/config/settings';
import type { HostRequester } from '../../../src/engine/host/hostRequester';
import { runProcess, type ProcessRunner } from '../../../src/engine/verification/processRunner';
import { readLogText } from '../../../src/engine/verification/testRunner';
import { parseVerifyOptions, type RawVerifyOptions } from '../../../src/engine/verification/request';
import { verify } from '../../../src/engine/verification/runner';
import type { RecordedCall, RecordedRun } from '../../unit/verification/replayedRuns';
import { cleanUpCopies, copyFixture, hostFor, RecordingPolicy, repoRoot, tempStateRoot } from '../support';

interface Case {
  fixture: string;
  restore?: string;
  request: RawVerifyOptions;
}

/** Each runner mode and each way a run ends that the unit tests replay. */
export const cases: Record<string, Case> = {
  'vstest-graph-all': { fixture: 'VerificationGraph', restore: 'Graph.slnx', request: { scope: 'all' } },
  'vstest-failing-test': { fixture: 'VerificationFailingTest', restore: 'FailingTest.slnx', request: { scope: 'all' } },
  'build-broken': { fixture: 'VerificationBroken', restore: 'Broken.slnx', request: { scope: 'all' } },
  'mtp-mode': { fixture: 'VerificationMtpMode', restore: 'Mtp.slnx', request: { scope: 'all' } },
  'mtp-under-vstest': { fixture: 'VerificationMtpUnderVstest', restore: 'UnderVstest.slnx', request: { scope: 'all' } },
  'vstest-missing-runtime': { fixture: 'VerificationMissingRuntime', restore: 'MissingRuntime.slnx', request: { scope: 'all' } },
  'vstest-host-stops': { fixture: 'TestHostStops', restore: 'Stops.slnx', request: { scope: 'all' } },
  'mtp-host-stops': { fixture: 'TestHostStopsMtp', restore: 'StopsMtp.slnx', request: { scope: 'all' } },
  'mtp-failure-names': { fixture: 'MtpFailureNames', restore: 'FailureNames.slnx', request: { scope: 'all' } },
  'mtp-under-vstest-failure-names': { fixture: 'MtpUnderVstestFailureNames', restore: 'UnderVstestNames.slnx', request: { scope: 'all' } },
  'mtp-under-vstest-host-stops': { fixture: 'TestHostStopsUnderVstest', restore: 'StopsUnderVstest.slnx', request: { scope: 'all' } },
};

export const recordedRoot = path.join(repoRoot, 'test', 'unit', 'verification', 'recorded');

/** Writes the roots of one run as placeholders, everywhere in a JSON value or a text (and this machine's user and host name as user_host, as xunit.v3 names its TRX files). */
export function placeholders(text: string, roots: { workspace: string; results?: string; state: string }): string {
  let out = text.split(`${os.userInfo().username}_${os.hostname()}_`).join('user_host_');
  if (roots.results) out = out.split(roots.results).join('{results}');
  // MTP's TRX writes UnitTest@storage lower-cased: that copy of the workspace path is the workspace too.
  return out.split(roots.state).join('{state}').split(roots.workspace).join('{workspace}').split(roots.workspace.toLowerCase()).join('{workspace}');
}

async function record(name: string, spec: Case): Promise<void> {
  const workspace = copyFixture(spec.fixture, spec.restore ?? []);
  const state = tempStateRoot();
  const folder = path.join(recordedRoot, name);
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true });
  const host = hostFor(workspace);
  const answers: RecordedRun['host'] = { resolveTarget: null, projectGraph: null };
  const recordingHost: HostRequester = {
    request: async (method, params, schema, signal) => {
      const answer = await host.request(method, params, schema, signal);
      if (method === 'sharpclaw/resolveTarget') answers.resolveTarget = answer;
      if (method === 'sharpclaw/projectGraph') answers.projectGraph = answer;
      return answer;
    },
  };
  const calls: RecordedCall[] = [];
  const processes: ProcessRunner = async (file, args, options) => {
    const outcome = await runProcess(file, args, options);
    const results = args.includes('--results-directory') ? args[args.indexOf('--results-directory') + 1] : undefined;
    const roots = { workspace, state, ...(results ? { results } : {}) };
    const index = String(calls.length + 1).padStart(2, '0');
    const output = `${index}-${args[0]!.replace(/^-+/, '')}.txt`;
    fs.writeFileSync(path.join(folder, output), placeholders(outcome.log.text, roots));
    const trx: Record<string, string> = {};
    if (results && fs.existsSync(results)) {
      // The TRX files, and the logs an MTP app under VSTest mode keeps its output in (UTF-16: stored as UTF-8).
      for (const entry of fs.readdirSync(results, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.trx') || file.endsWith('.log'))) {
        const stored = `${index}-${placeholders(path.basename(entry), roots)}`;
        fs.writeFileSync(path.join(folder, stored), placeholders(readLogText(path.join(results, entry)), roots));
        trx[placeholders(entry, roots)] = stored;
      }
    }
    calls.push({ args: args.map((arg) => placeholders(arg, roots)), kind: outcome.kind, exitCode: outcome.exitCode, output, trx });
    return outcome;
  };
  // A shared machine can take minutes to build: every recorded run may take 15.
  const request: RawVerifyOptions = { ...spec.request, timeout: 900 };
  const report = await verify(resolveVerifyRequest(parseVerifyOptions(request)), {
    workspaceFolder: workspace,
    permissions: new RecordingPolicy(true),
    requestedBy: 'recorder',
    stateRoot: state,
    host: recordingHost,
    processes,
  });
  const run: RecordedRun = { fixture: spec.fixture, request, host: answers, calls, report };
  fs.writeFileSync(path.join(folder, 'run.json'), `${placeholders(JSON.stringify(run, null, 2), { workspace, state })}\n`);
  console.log(`${name}: ${report.status} (${calls.length} dotnet commands) → ${path.relative(repoRoot, folder)}`);
}

async function main(names: string[]): Promise<void> {
  try {
    for (const name of names.length ? names : Object.keys(cases)) {
      const spec = cases[name];
      if (!spec) throw new Error(`Unknown case ${name}; valid: ${Object.keys(cases).join(', ')}`);
      await record(name, spec);
    }
  } finally {
    await cleanUpCopies();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
