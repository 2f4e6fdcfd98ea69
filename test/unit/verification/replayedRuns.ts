// Verifications recorded with real dotnet (test/unit/verification/recorded/<case>/run.json, written by
// test/host-e2e/verification/recordRuns.ts), replayed without dotnet: the host answers what it answered
// then, and each dotnet command the runner starts (through its process-runner seam) is answered with the
// recorded exit, output and TRX files of the same command line. A command the recording does not have
// fails the replay, naming it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HostRequester } from '../../../src/engine/host/hostRequester';
import { resolveVerifyRequest } from '../../../src/engine/config/settings';
import type { PermissionPolicy } from '../../../src/engine/permissions/permissionPolicy';
import type { ProcessOutcome } from '../../../src/engine/verification/processRunner';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { parseVerifyOptions } from '../../../src/engine/verification/request';
import { verify, type VerifyContext } from '../../../src/engine/verification/runner';
import type { RawVerifyOptions } from '../../../src/engine/verification/request';
import { RecordedWorkspace, type Node, type ScriptedRun } from './recordedRuns';

export const recordedRoot = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'unit', 'verification', 'recorded');
const fixturesRoot = path.resolve(__dirname, '..', '..', '..', '..', 'fixtures');

export interface RecordedCall {
  args: string[];
  kind: string;
  exitCode: number | null;
  /** The file (in the case's folder) with what the command printed. */
  output: string;
  /** TRX file name → the file (in the case's folder) with its content. */
  trx: Record<string, string>;
}

export interface RecordedRun {
  fixture: string;
  request: RawVerifyOptions;
  host: { resolveTarget: unknown; projectGraph: unknown };
  calls: RecordedCall[];
  report: unknown;
}

export function recordedRun(name: string): RecordedRun {
  return JSON.parse(fs.readFileSync(path.join(recordedRoot, name, 'run.json'), 'utf8')) as RecordedRun;
}

export interface Replay {
  report: VerificationReport;
  recorded: RecordedRun;
  workspace: RecordedWorkspace;
  /** Each command line the runner started, roots as placeholders. */
  commands: string[][];
  /** The recorded report and this one, with what differs between runs of the same commands (times, run folders) left out. */
  comparable(report: unknown): unknown;
}

export interface ReplayOptions {
  /** Changes the recorded request (another scope over the same recorded commands). */
  request?: Partial<RawVerifyOptions>;
  /** Changes a recorded TRX before the runner reads it (a test that failed, a broken file). */
  trx?: (name: string, text: string) => string;
  /** Changes what a recorded command answers. */
  answer?: (args: readonly string[], recorded: ScriptedRun) => ScriptedRun;
  permissions?: PermissionPolicy;
  context?: Partial<VerifyContext>;
}

/** Replays recorded run `name` through the runner. */
export async function replayRun(name: string, options: ReplayOptions = {}): Promise<Replay> {
  const recorded = recordedRun(name);
  const folder = path.join(recordedRoot, name);
  const graph = recorded.host.projectGraph as { projects: Node[] } | null;
  const globalJson = path.join(fixturesRoot, recorded.fixture, 'global.json');
  const commands: string[][] = [];
  const used = new Set<number>();
  let workspace: RecordedWorkspace | undefined;
  const roots = (text: string, results?: string) => {
    const ws = workspace!;
    let out = text;
    if (results) out = out.split(results).join('{results}');
    return out.split(ws.stateRoot).join('{state}').split(ws.folder).join('{workspace}');
  };
  const fill = (text: string) => text.split('{state}').join(workspace!.stateRoot);
  workspace = new RecordedWorkspace(
    graph?.projects ?? [],
    (args) => {
      const results = args.includes('--results-directory') ? args[args.indexOf('--results-directory') + 1] : undefined;
      const line = args.map((arg) => roots(arg, results));
      commands.push(line);
      const index = recorded.calls.findIndex((call, i) => !used.has(i) && JSON.stringify(call.args) === JSON.stringify(line));
      assert.ok(index >= 0, `${name}: the runner started a command the recording does not have: dotnet ${line.join(' ')}\nrecorded: ${recorded.calls.map((c) => c.args.join(' ')).join('\n          ')}`);
      used.add(index);
      const call = recorded.calls[index]!;
      const read = (file: string) => fill(fs.readFileSync(path.join(folder, file), 'utf8'));
      const trx = Object.fromEntries(Object.entries(call.trx).map(([trxName, file]) => [trxName, (options.trx ?? ((_n: string, t: string) => t))(trxName, read(file))]));
      const scripted: ScriptedRun = { kind: call.kind as ProcessOutcome['kind'], ...(call.exitCode === null ? {} : { exitCode: call.exitCode }), output: read(call.output), trx };
      return options.answer ? options.answer(args, scripted) : scripted;
    },
    fs.existsSync(globalJson) ? { globalJson: fs.readFileSync(globalJson, 'utf8') } : {},
  );
  const ws = workspace;
  const target = (recorded.host.resolveTarget as { target?: string } | null)?.target;
  if (target && !fs.existsSync(path.join(ws.folder, target))) fs.writeFileSync(path.join(ws.folder, target), '<Solution />');
  const answers = JSON.parse(JSON.stringify(recorded.host).split('{workspace}').join(ws.folder)) as RecordedRun['host'];
  const host: HostRequester = {
    request: async (method, _params, schema) => {
      if (method === 'sharpclaw/resolveTarget') return schema.parse(answers.resolveTarget);
      if (method === 'sharpclaw/projectGraph') return schema.parse(answers.projectGraph);
      throw new Error(`the recorded host does not answer ${method}`);
    },
  };
  const report = await verify(resolveVerifyRequest(parseVerifyOptions({ ...recorded.request, ...options.request })), {
    workspaceFolder: ws.folder,
    permissions: options.permissions ?? { request: async () => ({ granted: true, source: 'policy' }) },
    requestedBy: 'unit test',
    host,
    stateRoot: ws.stateRoot,
    processes: ws.processes,
    ...options.context,
  });
  const comparable = (value: unknown) => {
    const text = roots(JSON.stringify(value)).replace(/\{state\}\/workspaces\/[0-9a-f]{16}\/runs\/[^/"\\ ]+/g, '{run}');
    // Times, and the size of a log whose paths are this replay's and whose text the recording kept already cut (the text is compared).
    const report = JSON.parse(text, (key, inner: unknown) => (['startedAt', 'finishedAt', 'durationMs', 'lockWaitMs', 'totalBytes', 'truncated'].includes(key) ? undefined : inner)) as { steps?: Array<{ commandLine: string }> };
    // Test projects run two at a time: their steps end in either order.
    report.steps?.sort((a, b) => a.commandLine.localeCompare(b.commandLine));
    return report;
  };
  return { report, recorded, workspace: ws, commands, comparable };
}
