// A verification without dotnet, for the unit tests of the runner's steps: a temporary workspace
// with empty project files, a host that answers sharpclaw/resolveTarget and sharpclaw/projectGraph
// as the C# host would, and a process runner (the runner's seam) that answers each dotnet command
// with a scripted or recorded outcome, writing recorded TRX files where `dotnet test` would.
// Real dotnet runs of the same cases are in test/host-e2e/verification.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { z } from 'zod';
import type { HostRequester } from '../../../src/engine/host/hostRequester';
import type { ProjectGraphNodeSchema } from '../../../src/engine/protocol/semantic';
import type { ProcessOutcome, ProcessRunner, RunProcessOptions } from '../../../src/engine/verification/processRunner';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { VerifyRequestSchema, type VerifyRequestInput } from '../../../src/engine/verification/request';
import { verify } from '../../../src/engine/verification/runner';

export type Node = z.input<typeof ProjectGraphNodeSchema>;

/** A project of the fake graph (paths workspace-relative). */
export function node(relative: string, options: Partial<Node> = {}): Node {
  const name = path.basename(relative, '.csproj');
  const frameworks = options.targetFrameworks ?? ['net10.0'];
  return {
    path: relative,
    isTestProject: false,
    isTestProjectSource: 'absent',
    targetFrameworks: frameworks,
    outputType: 'Library',
    assetsFile: `${path.dirname(relative)}/obj/project.assets.json`,
    restored: true,
    compileItems: [`${path.dirname(relative)}/${name}.cs`],
    projectReferences: [],
    imports: [],
    otherItems: [],
    packageReferences: [],
    isTestingPlatformApplication: false,
    testingPlatformDotnetTestSupport: false,
    outputs: frameworks.map((tfm) => ({ targetFramework: tfm, targetPath: `${path.dirname(relative)}/bin/Debug/${tfm}/${name}.dll`, intermediateAssembly: null })),
    ...options,
  };
}

export function testNode(relative: string, options: Partial<Node> = {}): Node {
  return node(relative, { isTestProject: true, isTestProjectSource: 'evaluated', packageReferences: ['Microsoft.NET.Test.Sdk'], ...options });
}

/** What the fake dotnet answers: an exit code, output lines, and files it writes into `--results-directory`. */
export interface ScriptedRun {
  exitCode?: number;
  kind?: ProcessOutcome['kind'];
  output?: string;
  /** File name → content, written into the run's --results-directory (`{results}` and `{workspace}` are replaced). */
  trx?: Record<string, string>;
  /** Runs until its signal aborts (a build the verifier stops), then ends as cancelled. */
  untilCancelled?: boolean;
}

/** What the fake host and workspace do besides answering at once. */
export interface RecordedWorkspaceOptions {
  globalJson?: string;
  /** Projects whose assets file is missing. */
  unrestored?: string[];
  /** Projects the graph has but the target does not name (referenced from outside the solution). */
  outsideTarget?: string[];
  /** Milliseconds the host takes to answer sharpclaw/projectGraph when it evaluates (a cold evaluation). */
  evaluationMs?: number;
  /** The host keeps a valid graph: it answers an offer of a build collection with it, at once. */
  keptGraph?: boolean;
  /** The host's answer to sharpclaw/resolveSdk (without it the host does not know the method, as a recorded host). */
  sdk?: { dotnetRoot: string | null; version: string | null; reason: string | null };
}

export interface Call {
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
}

/** The collection the recorded host offers a build (the host's BuildCollection; its variables are the real ones). */
export const recordedCollection = {
  id: '0123456789abcdef0123456789abcdef',
  environment: { CustomAfterMicrosoftCommonTargets: '/state/c.targets', CustomAfterMicrosoftCommonCrossTargetingTargets: '/state/c.targets', SharpClawCollectFolder: '/state/rows' },
};

const created: string[] = [];

export class RecordedWorkspace {
  readonly folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-steps-'));
  readonly stateRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-steps-state-'));
  readonly calls: Call[] = [];
  /**
   * What happened, in order: `graph` when the host answered the project graph (`graph from the build` from a build's
   * collection, `offer` when it offered one), and each dotnet command (as {@link commands}).
   */
  readonly events: string[] = [];

  constructor(
    readonly nodes: Node[],
    private readonly answer: (args: readonly string[]) => ScriptedRun,
    private readonly options: RecordedWorkspaceOptions = {},
  ) {
    created.push(this.folder, this.stateRoot);
    fs.writeFileSync(path.join(this.folder, 'App.slnx'), '<Solution />');
    for (const project of nodes) {
      const file = path.join(this.folder, project.path);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '<Project />');
      // Items outside the workspace (a package's Program.cs in the NuGet cache) are not the workspace's to write.
      for (const item of (project.compileItems ?? []).filter((item) => !path.isAbsolute(item))) {
        fs.mkdirSync(path.dirname(path.join(this.folder, item)), { recursive: true });
        fs.writeFileSync(path.join(this.folder, item), '');
      }
      if (project.assetsFile && !this.options.unrestored?.includes(project.path)) {
        fs.mkdirSync(path.dirname(path.join(this.folder, project.assetsFile)), { recursive: true });
        fs.writeFileSync(path.join(this.folder, project.assetsFile), '{}');
      }
    }
    const globalJson = this.options.globalJson;
    if (globalJson) fs.writeFileSync(path.join(this.folder, 'global.json'), globalJson);
  }

  readonly host: HostRequester = {
    request: async (method, params, schema, signal) => {
      const base = { workspace: this.folder, target: 'App.slnx' };
      if (method === 'sharpclaw/resolveTarget') return schema.parse({ ...base, kind: 'solution', projects: this.nodes.map((n) => n.path).filter((p) => !this.options.outsideTarget?.includes(p)) });
      const graph = { ...base, configuration: 'Debug', targetFramework: null, projects: this.nodes, excludedAnalyzers: [], partialLoad: [], dynamicImports: [] };
      const collection = (params as { buildCollection?: string }).buildCollection;
      if (method === 'sharpclaw/projectGraph' && collection === 'offer') {
        this.events.push(this.options.keptGraph ? 'graph' : 'offer');
        return schema.parse(this.options.keptGraph ? { ...graph, fromCache: true } : { ...graph, projects: [], fromCache: false, buildCollection: recordedCollection });
      }
      if (method === 'sharpclaw/projectGraph' && collection === recordedCollection.id) {
        this.events.push('graph from the build');
        return schema.parse({ ...graph, fromCache: false });
      }
      if (method === 'sharpclaw/projectGraph') {
        if (this.options.evaluationMs) {
          // A cold evaluation, which the caller's cancellation stops, as the host's does.
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, this.options.evaluationMs);
            signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('the evaluation was cancelled'))), { once: true });
          });
        }
        this.events.push('graph');
        return schema.parse({ ...graph, fromCache: false });
      }
      if (method === 'sharpclaw/resolveSdk' && this.options.sdk) {
        this.events.push('resolveSdk');
        return schema.parse(this.options.sdk);
      }
      throw new Error(`the recorded host does not answer ${method}`);
    },
  };

  readonly processes: ProcessRunner = async (_file, args, options: RunProcessOptions) => {
    this.calls.push({ args, cwd: options.cwd, env: options.env ?? {} });
    this.events.push(commandOf(args));
    const scripted = this.answer(args);
    if (scripted.untilCancelled) {
      await new Promise<void>((resolve) => (options.signal?.aborted ? resolve() : options.signal?.addEventListener('abort', () => resolve(), { once: true })));
      this.events.push(`${commandOf(args)} cancelled`);
      return { kind: 'cancelled', exitCode: null, signal: 'SIGTERM', startedAt: new Date().toISOString(), durationMs: 1, log: { text: '', truncated: false, totalBytes: 0 } };
    }
    const results = args.includes('--results-directory') ? args[args.indexOf('--results-directory') + 1]! : undefined;
    const fill = (text: string) => text.replaceAll('{workspace}', this.folder).replaceAll('{results}', results ?? '');
    for (const [name, content] of Object.entries(scripted.trx ?? {})) {
      if (!results) throw new Error(`${args.join(' ')} has no --results-directory for ${name}`);
      fs.mkdirSync(results, { recursive: true });
      fs.writeFileSync(path.join(results, name), fill(content));
    }
    const output = fill(scripted.output ?? '');
    if (options.onLine) for (const line of output.split(/\r?\n/)) options.onLine(line);
    const kind = scripted.kind ?? 'exited';
    return {
      kind,
      exitCode: kind === 'exited' ? (scripted.exitCode ?? 0) : null,
      signal: null,
      startedAt: new Date().toISOString(),
      durationMs: 1,
      log: { text: output, truncated: false, totalBytes: Buffer.byteLength(output) },
      ...(kind === 'failedToStart' ? { startError: 'spawn dotnet ENOENT' } : {}),
    };
  };

  /** Runs the verifier over this workspace with every permission granted. */
  verify(request: VerifyRequestInput, signal?: AbortSignal): Promise<VerificationReport> {
    return verify(VerifyRequestSchema.parse(request), {
      ...(signal ? { signal } : {}),
      workspaceFolder: this.folder,
      permissions: { request: async () => ({ granted: true, source: 'policy' }) },
      requestedBy: 'unit test',
      host: this.host,
      stateRoot: this.stateRoot,
      processes: this.processes,
    });
  }

  /** The dotnet commands run, as `build`, `test Lib.Tests`, … */
  commands(): string[] {
    return this.calls.map(({ args }) => commandOf(args));
  }
}

/** A dotnet command as `build`, `test Lib.Tests`, `--version`, … */
function commandOf(args: readonly string[]): string {
  return args[0] === 'test' ? `test ${path.basename(args[args[1] === '--project' ? 2 : 1]!, '.csproj')}${args.includes('--help') ? ' --help' : ''}` : args[0]!;
}

/** A file of test/unit/verification/recorded (copied next to the compiled tests? no: read from the source tree). */
export function recorded(...parts: string[]): string {
  return fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'test', 'unit', 'verification', 'recorded', ...parts), 'utf8');
}

export function removeRecordedWorkspaces(): void {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A VSTest TRX with the given results (outcome per test name). */
export function trxOf(results: Record<string, 'Passed' | 'Failed'>, runError?: string): string {
  const rows = Object.entries(results).map(
    ([name, outcome], index) =>
      `<UnitTestResult testId="t${index}" testName="${name}" outcome="${outcome}">${outcome === 'Failed' ? `<Output><ErrorInfo><Message>Assert.Equal() Failure</Message><StackTrace>at ${name}() in /w/Tests.cs:line 9</StackTrace></ErrorInfo></Output>` : ''}</UnitTestResult>`,
  );
  const passed = Object.values(results).filter((o) => o === 'Passed').length;
  const failed = Object.values(results).filter((o) => o === 'Failed').length;
  return `<?xml version="1.0" encoding="utf-8"?><TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results>${rows.join('')}</Results><ResultSummary outcome="${failed ? 'Failed' : 'Completed'}"><Counters total="${passed + failed}" executed="${passed + failed}" passed="${passed}" failed="${failed}" />${runError ? `<RunInfos><RunInfo outcome="Error"><Text>${runError}</Text></RunInfo></RunInfos>` : ''}</ResultSummary></TestRun>`;
}
