// One session of SharpClaw on one workspace, whichever surface runs it (VS Code, the CLI, the MCP
// server): the workspace folder, the permission policy, the host supervisor, the configured dotnet,
// progress and events (an edit applied, a verification running, a report published). It is the one
// entry per capability: runTool() for every tool call (it makes each call's ToolContext) and
// verify() for every verification (verify_workspace, the VS Code commands, `sharpclaw verify`, the
// check after agent edits, an @sharpclaw turn through the tool), so surfaces only wire and present.
import { Emitter, type Event } from 'vscode-jsonrpc';
import type { InterruptedEdit } from './protocol/edits';
import { callHost } from './protocol/callHost';
import { Methods } from './protocol/methods';
import type { HostCallbackOptions, LoadProgress } from './host/hostCallbacks';
import type { HostRequester } from './host/hostRequester';
import { HostSupervisor, type HostSupervisorLog } from './host/hostSupervisor';
import type { HostTransport } from './host/hostTransport';
import type { CrashBudget } from './host/crashBudget';
import { resolveAutomaticVerifyRequest, resolveVerification, resolveVerifyRequest, type ResolvedVerificationSettings } from './config/settings';
import type { SettingsLayer } from './config/verificationSettings';
import type { PermissionPolicy } from './permissions/permissionPolicy';
import { endCall, PermissionGate } from './permissions/permissionGate';
import { newCallId } from './permissions/grants';
import { runTool, type ToolOutcome } from './tools/runTool';
import type { AnyToolDefinition, HostSessionControl, Surface, ToolContext } from './tools/toolDefinition';
import { ToolError } from './errors';
import { checkWorkspaceFolder } from './input/paths';
import type { VerificationReport } from './verification/report';
import { ReportHistory, type RunningVerification } from './verification/reportHistory';
import type { VerifyArguments } from './verification/request';
import { verify as runVerification } from './verification/runner';

export interface SessionOptions {
  surface: Surface;
  /** The workspace folder tools work in (VS Code: the first folder; undefined: none is open). */
  workspaceFolder: () => string | undefined;
  permissions: PermissionPolicy;
  /** How this surface runs the host (stdio JSON-RPC, or vscode-languageclient). */
  transport: HostTransport;
  /** The person's configured dotnet executable (empty or undefined: dotnet on PATH). */
  dotnetPath?: () => string | undefined;
  /** VS Code: applies granted host writes through the editor (HostCallbackOptions.applyWrite). */
  applyWrite?: HostCallbackOptions['applyWrite'];
  /** The surface's own settings layers over the JSONC files (VS Code: sharpclaw.verification.*). */
  settingsLayers?: () => SettingsLayer[];
  /** The home folder of ~/.sharpclaw/settings.jsonc (default: the user's). */
  home?: string;
  /** Progress of a tool's long work (loads, builds). */
  progress?: (tool: AnyToolDefinition, message: string, percent?: number) => void;
  log?: HostSupervisorLog;
  restartHint?: string;
  crashBudget?: CrashBudget;
}

/** How one verification is asked for (Session.verify). */
export interface VerifyOptions {
  /** Who asks ("verify_workspace", "SharpClaw: Verify All", "sharpclaw verify"): named in the approval and the sidebar. */
  requestedBy: string;
  /** Each step ("Building 3 affected projects…"), for the caller's own progress display. */
  progress?: (message: string) => void;
  signal?: AbortSignal;
  /**
   * An automatic check (after another agent's edits): unset fields come from the settings with their
   * defaults (the configured scope, the 600 s automatic timeout), not from the explicit-call defaults.
   */
  automatic?: boolean;
  /** The tool call this verification serves (permissions/grants.ts); absent: it is a call of its own. */
  call?: string;
}

/** One tool call's id and what its caller wants to hear of it, beyond its outcome. */
export interface ToolCallOptions {
  /** The call's id, when the surface holds grants for it (MCP's answered questions); else a new one (permissions/grants.ts). */
  call?: string;
  /** The report of a verification this call ran (also when the call then fails, e.g. denied). */
  onVerificationReport?(report: VerificationReport): void;
  /** When the surface needs the answer (Date.now() time): a search answers from the index built so far by then (mcpLoadWait.ts). */
  answerBy?: number;
}

export interface EditApplied {
  tool: string;
  summary: string;
}

export class Session {
  readonly host: HostSupervisor;
  private readonly editEmitter = new Emitter<EditApplied>();
  private readonly reportEmitter = new Emitter<VerificationReport>();
  private readonly answerEmitter = new Emitter<void>();
  /** After a tool's host wrote an edit (VS Code's Undo Last Edit replays them in order). */
  readonly onDidApplyEdit: Event<EditApplied> = this.editEmitter.event;
  /** Every verification report of this session, whoever asked (a tool, a command, an automatic check). */
  readonly onDidPublishReport: Event<VerificationReport> = this.reportEmitter.event;
  private readonly runningEmitter = new Emitter<RunningVerification | undefined>();
  /** A verification starts, reaches a step, or ends (undefined). */
  readonly onDidChangeVerification: Event<RunningVerification | undefined> = this.runningEmitter.event;
  /** The latest reports of this session (prompt assembly reads the latest real build). */
  readonly reports = new ReportHistory();
  /** After every host answer (or failure): loaded contexts may have changed. */
  readonly onDidHostAnswer: Event<void> = this.answerEmitter.event;
  private readonly interruptedEmitter = new Emitter<InterruptedEdit[]>();
  /**
   * A host that started found applies an earlier, killed host left unfinished (recovered and
   * journaled for undo): surfaces tell the person at once, not only with the next edit.
   */
  readonly onDidRecoverInterruptedEdits: Event<InterruptedEdit[]> = this.interruptedEmitter.event;
  private readonly stateSubscription: { dispose(): void };
  private readonly progressSubscription: { dispose(): void };
  /** The load in progress: its last step (undefined when none runs). */
  private lastLoadProgress: LoadProgress | undefined;
  /** The host's lifecycle as tools see it (lsp status and reload). */
  readonly hostSession: HostSessionControl = {
    state: () => this.host.state,
    loading: () => this.lastLoadProgress,
    restart: () => this.host.restart(),
  };
  /** The tool whose call runs now, named in authorization requests that do not name one. */
  private currentTool = 'SharpClaw';
  /** The interrupted-apply report asked for when the host last became ready (it never rejects). */
  private recovery: Promise<void> = Promise.resolve();

  /** The host as tools and commands use it: the supervisor, with onDidHostAnswer after each answer. */
  readonly requester: HostRequester = {
    request: async (method, params, schema, signal) => {
      try {
        return await this.host.request(method, params, schema, signal);
      } finally {
        this.answerEmitter.fire();
      }
    },
  };

  /** The surface's policy behind the one gate every permission request passes (permissions/permissionGate.ts). */
  private readonly gate: PermissionGate;

  constructor(private readonly options: SessionOptions) {
    this.gate = PermissionGate.of(options.permissions);
    this.host = new HostSupervisor({
      transport: options.transport,
      callbacks: {
        workspaceFolder: options.workspaceFolder,
        permissions: this.gate,
        requestedBy: () => this.currentTool,
        ...(options.applyWrite ? { applyWrite: options.applyWrite } : {}),
      },
      ...(options.log ? { log: options.log } : {}),
      ...(options.restartHint ? { restartHint: options.restartHint } : {}),
      ...(options.crashBudget ? { crashBudget: options.crashBudget } : {}),
    });
    this.stateSubscription = this.host.onDidChangeState((state) => {
      if (state.kind === 'ready') this.recovery = this.recoverInterruptedEdits();
      if (state.kind !== 'ready') this.lastLoadProgress = undefined;
    });
    this.progressSubscription = this.host.onLoadProgress((progress) => {
      this.lastLoadProgress = progress.projectIndex >= progress.projectCount ? undefined : progress;
    });
  }

  /** Asks a freshly started host for the workspace's interrupted applies (the host reads its journal only: no target is looked for). */
  private async recoverInterruptedEdits(): Promise<void> {
    const workspace = this.options.workspaceFolder();
    if (!workspace) return;
    try {
      const { interrupted } = await callHost(this.host, Methods.interruptedEdits, { workspace, tool: 'SharpClaw' });
      if (interrupted.length > 0) this.interruptedEmitter.fire(interrupted);
    } catch (error) {
      this.options.log?.trace?.(`No interrupted edits were recovered: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  get surface(): Surface {
    return this.options.surface;
  }

  /** The surface's policy behind the gate: use this, never the policy itself. */
  get permissions(): PermissionPolicy {
    return this.gate;
  }

  /** Whether a permission request of this session waits on the surface's policy now (the person may be being asked). */
  get askingThePerson(): boolean {
    return this.gate.asking;
  }

  workspaceFolder(): string | undefined {
    return this.options.workspaceFolder();
  }

  /** The workspace folder, or the typed error every surface gives when none is open or it cannot be one (input/paths.ts). */
  requireWorkspaceFolder(): string {
    const folder = this.options.workspaceFolder();
    if (!folder) throw new ToolError('invalid_request', 'Open a folder that contains a .NET solution or project first.');
    checkWorkspaceFolder(folder, 'The workspace folder');
    return folder;
  }

  dotnetPath(): string | undefined {
    return this.options.dotnetPath?.() || undefined;
  }

  /** The context of one call of `tool`; `options.call` is its id (permissions/grants.ts), else a new one. */
  toolContext(tool: AnyToolDefinition, signal: AbortSignal, callOptions: ToolCallOptions = {}): ToolContext {
    const call = callOptions.call ?? newCallId(this.options.surface);
    const workspaceFolder = this.requireWorkspaceFolder();
    this.currentTool = tool.name;
    return {
      workspaceFolder,
      permissions: this.gate,
      call,
      host: { request: (method, params, schema, requestSignal) => this.requester.request(method, params, schema, requestSignal ?? signal) },
      surface: this.options.surface,
      signal,
      ...(callOptions.answerBy !== undefined ? { answerBy: callOptions.answerBy } : {}),
      progress: (message, percent) => this.options.progress?.(tool, message, percent),
      onEditApplied: (summary) => this.editEmitter.fire({ tool: tool.name, summary }),
      hostSession: this.hostSession,
      verify: async (args, options) => {
        const report = await this.verify(args, { ...options, signal: options.signal ?? signal, call });
        callOptions.onVerificationReport?.(report);
        return report;
      },
    };
  }

  /** Runs one tool call through the shared pipeline. Grants of the call it did not use are gone afterwards. */
  async runTool(tool: AnyToolDefinition, input: unknown, signal: AbortSignal, options: ToolCallOptions = {}): Promise<ToolOutcome> {
    const call = options.call ?? newCallId(this.options.surface);
    try {
      return await runTool(tool, input, () => this.toolContext(tool, signal, { ...options, call }));
    } finally {
      endCall(call);
    }
  }

  /** The sharpclaw.verification.* settings of this session's layers: the JSONC files, then the surface's own. Throws SettingsValidationError. */
  verificationSettings(): ResolvedVerificationSettings {
    const layers = this.options.settingsLayers?.();
    return resolveVerification({
      workspaceFolder: this.requireWorkspaceFolder(),
      ...(layers ? { editorLayers: layers } : {}),
      ...(this.options.home ? { home: this.options.home } : {}),
    });
  }

  /**
   * The one way to verify: resolves the request from `args` and this session's settings layers,
   * runs the runner (which asks the permission policy before any process), tells onDidPublishReport
   * and returns the report to its caller, which gets exactly the report of its own run.
   */
  async verify(args: VerifyArguments, options: VerifyOptions): Promise<VerificationReport> {
    const workspaceFolder = this.requireWorkspaceFolder();
    const settings = this.verificationSettings();
    const request = options.automatic ? resolveAutomaticVerifyRequest(args, settings.values) : resolveVerifyRequest(args, settings);
    const running: RunningVerification = { scope: request.scope, requestedBy: options.requestedBy };
    this.runningEmitter.fire(running);
    try {
      const dotnet = this.dotnetPath();
      const report = await runVerification(request, {
        workspaceFolder,
        permissions: this.gate,
        requestedBy: options.requestedBy,
        ...(options.call ? { call: options.call } : {}),
        host: this.requester,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(dotnet ? { dotnet } : {}),
        progress: (message) => {
          this.runningEmitter.fire({ ...running, step: message });
          options.progress?.(message);
        },
      });
      // Settings that were set but not taken (a workspace's allowRestore) are said where the run is read.
      report.notes.push(...settings.notes);
      this.reports.record(report);
      this.reportEmitter.fire(report);
      return report;
    } finally {
      this.runningEmitter.fire(undefined);
    }
  }

  /**
   * Stops the host, after the interrupted-apply report its start asked for: a CLI call on the resident host
   * closes its connection right after the answer, which would drop a report still on its way. (Not awaited
   * per tool call: the host answers it behind a running load, and other calls must not wait for that.)
   */
  async close(): Promise<void> {
    await this.recovery;
    await this.host.stop();
  }

  dispose(): void {
    this.stateSubscription.dispose();
    this.progressSubscription.dispose();
    this.interruptedEmitter.dispose();
    this.host.dispose();
    this.editEmitter.dispose();
    this.reportEmitter.dispose();
    this.runningEmitter.dispose();
    this.answerEmitter.dispose();
  }
}
