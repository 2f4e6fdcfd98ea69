// What the steps of one verification share once the permission and the lock are held: the
// request, the report under construction, the target, the state folder, the dotnet to run and the
// process runner (the seam unit tests replace with recorded dotnet outputs), and the one way a step
// says the run ends here (StepStop, carrying the finished report).
import * as path from 'node:path';
import type { HostRequester } from '../../host/hostRequester';
import type { ResolvedTarget } from '../hostGraph';
import { dotnetEnvironment, type ProcessOutcome, type ProcessRunner } from '../processRunner';
import type { VerificationReport } from '../report';
import type { VerifyRequest } from '../request';
import type { ReportBuilder } from './reportBuilder';

/** A step's way of ending the run early: the report says why. */
export class StepStop {
  constructor(readonly report: VerificationReport) {}
}

export interface VerificationRunOptions {
  request: VerifyRequest;
  report: ReportBuilder;
  target: ResolvedTarget;
  /** The workspace's private state folder (runs, compile memory). */
  stateDir: string;
  dotnet: string;
  host: HostRequester;
  requestedBy: string;
  /** The tool call this verification serves: the host names it when it asks to evaluate (permissions/grants.ts). */
  call: string;
  processes: ProcessRunner;
  progress: (message: string) => void;
  signal?: AbortSignal;
  /** Test processes run at once. */
  testParallelism: number;
}

export class VerificationRun {
  readonly request: VerifyRequest;
  readonly report: ReportBuilder;
  readonly target: ResolvedTarget;
  readonly stateDir: string;
  readonly dotnet: string;
  readonly host: HostRequester;
  readonly requestedBy: string;
  readonly call: string;
  readonly progress: (message: string) => void;
  readonly signal: AbortSignal | undefined;
  readonly testParallelism: number;
  private readonly processes: ProcessRunner;

  constructor(options: VerificationRunOptions) {
    this.request = options.request;
    this.report = options.report;
    this.target = options.target;
    this.stateDir = options.stateDir;
    this.dotnet = options.dotnet;
    this.host = options.host;
    this.requestedBy = options.requestedBy;
    this.call = options.call;
    this.progress = options.progress;
    this.signal = options.signal;
    this.testParallelism = options.testParallelism;
    this.processes = options.processes;
  }

  get timeoutMs(): number {
    return this.request.timeoutSeconds * 1000;
  }

  /** The target's folder (global.json there decides the SDK). */
  get targetDir(): string {
    return path.dirname(this.target.path);
  }

  /** Runs dotnet with the run's timeout, cancellation (or `signal`, one that follows it) and environment (plus `environment`). */
  dotnetProcess(
    args: readonly string[],
    cwd: string,
    onLine?: (line: string) => void,
    signal: AbortSignal | undefined = this.signal,
    environment: Record<string, string> = {},
  ): Promise<ProcessOutcome> {
    return this.processes(this.dotnet, args, { cwd, timeoutMs: this.timeoutMs, env: { ...dotnetEnvironment, ...environment }, ...(signal ? { signal } : {}), ...(onLine ? { onLine } : {}) });
  }

  /** The stop of a process that was cancelled or timed out, else undefined. */
  stopped(outcome: ProcessOutcome, what: string): StepStop | undefined {
    if (outcome.kind === 'cancelled') return new StepStop(this.report.finish('cancelled', `Cancelled during ${what}.`));
    if (outcome.kind === 'timedOut') return new StepStop(this.report.finish('timedOut', `Timed out after ${this.request.timeoutSeconds} s during ${what}; the process tree was killed.`));
    return undefined;
  }
}
