// Entry point. Activation is lazy (commands, views and language-model tools only) and tiny:
// output channels, the status bar item and thin registrations. Everything else lives in
// core.ts, bundled separately (dist/core.js) and loaded the first time something is used, so
// activation neither loads the language client nor starts any process.
import * as vscode from 'vscode';
import type { ApprovalLogEntry } from './approvals/approvalLog';
import type { PendingPermissionDialog } from './approvals/vscodePermissionPolicy';
import type { Core } from './core';
import type { HostState } from '../../engine/host/hostState';
import { ExtensionLog, type LogLine } from './logging/extensionLog';
import type { HostStatus } from '../../engine/protocol/hostStatus';
import { HostStatusBar } from './status/hostStatusBar';
import type { TurnEvent } from '../../engine/turns/turnEvents';
import type { VerificationReport } from '../../engine/verification/report';
import { AfterAgentEditsVerifier } from './verification/afterAgentEdits';
import { registerFixAllCodeActions } from './edits/fixAllCodeActions';

/** What activate() returns: used by the integration tests and by other extensions. */
export interface SharpClawApi {
  readonly activationMs: number;
  hostState(): HostState;
  hostStatus(): Promise<HostStatus>;
  statusBarText(): string;
  recentLog(): readonly LogLine[];
  /** The extension's log folder: the "SharpClaw" output channel's file and the host's own logs (--log-directory). */
  logDirectory(): string;
  onDidChangeHostState: vscode.Event<HostState>;
  onDidRenderSidebar: Core['reportView']['onDidRender'];
  approvals(): readonly ApprovalLogEntry[];
  /** Each step of a solution load (undefined when it ends), as the status bar shows it. */
  onDidChangeLoadProgress: Core['loadProgress']['onDidChange'];
  /** The @sharpclaw turns' lifecycle events of this workspace, oldest first (what the sidebar's timeline shows). */
  turnEvents(): readonly TurnEvent[];
  /** Every verification report as it is published to the sidebar and the Problems panel. */
  onDidPublishReport(listener: (report: VerificationReport) => void): vscode.Disposable;
  /** Extension tests only (ExtensionMode.Test): the next permission dialog, which VS Code refuses to show while tests run. */
  nextPermissionDialog?(): Promise<PendingPermissionDialog>;
}

interface ContributedManifest {
  version: string;
  contributes: { commands: Array<{ command: string }>; languageModelTools?: Array<{ name: string }> };
}

let core: Core | undefined;

/** Permission dialogs handed to extension tests, in order; take() waits for the next one. */
class DialogQueue {
  private readonly dialogs: PendingPermissionDialog[] = [];
  private readonly waiting: Array<(dialog: PendingPermissionDialog) => void> = [];

  put(dialog: PendingPermissionDialog): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(dialog);
    else this.dialogs.push(dialog);
  }

  take(): Promise<PendingPermissionDialog> {
    const dialog = this.dialogs.shift();
    return dialog ? Promise.resolve(dialog) : new Promise((resolve) => this.waiting.push(resolve));
  }
}

/** @sharpclaw (contributed in package.json); none where this VS Code has no chat. */
function createParticipant(handler: vscode.ChatRequestHandler): vscode.Disposable[] {
  if (typeof vscode.chat?.createChatParticipant !== 'function') return [];
  const participant = vscode.chat.createChatParticipant('sharpclaw.agent', handler);
  participant.iconPath = new vscode.ThemeIcon('verified');
  return [participant];
}

export function activate(context: vscode.ExtensionContext): SharpClawApi {
  const started = performance.now();
  const log = new ExtensionLog(vscode.window.createOutputChannel('SharpClaw', { log: true }));
  const traceLog = new ExtensionLog(vscode.window.createOutputChannel('SharpClaw Trace', { log: true }));
  const trace = traceLog.guardedChannel();
  const statusBar = new HostStatusBar();
  const testDialogs = new DialogQueue();
  const getCore = (): Core => {
    if (!core) {
      // Resolved at run time next to this file: dist/core.js in the bundle, out/src/core.js in tests.
      const module = require('./core.js') as typeof import('./core');
      core = module.createCore({ context, log, trace, statusBar });
      if (context.extensionMode === vscode.ExtensionMode.Test) core.permissions.routeDialogsToTests((dialog) => testDialogs.put(dialog));
    }
    return core;
  };
  const manifest = context.extension.packageJSON as ContributedManifest;

  // Disposed in this order: the core (which stops the host) before the channels it logs to.
  context.subscriptions.push(
    { dispose: () => core?.dispose() },
    statusBar,
    ...manifest.contributes.commands.map(({ command }) =>
      vscode.commands.registerCommand(command, (...args: unknown[]) => {
        const handler = getCore().commands[command];
        if (!handler) throw new Error(`SharpClaw contributes the command ${command} but does not implement it.`);
        return handler(...args);
      }),
    ),
    ...(manifest.contributes.languageModelTools ?? []).map(({ name }) =>
      vscode.lm.registerTool(name, {
        prepareInvocation: (options) => getCore().prepareTool(name, options),
        invoke: (options, token) => getCore().invokeTool(name, options, token),
      }),
    ),
    ...createParticipant((request, chatContext, stream, token) => getCore().chatHandler(request, chatContext, stream, token)),
    // Cheap until an agent's edit arrives (typing is told apart without reading anything); then the core decides.
    new AfterAgentEditsVerifier({
      settings: () => getCore().afterAgentEditsSettings(),
      verify: (files) => getCore().verifyAfterAgentEdits(files),
      ownTurnRunning: () => core?.turnRecording.activeTurnId !== undefined,
      log,
    }),
    // Fix all CSxxxx in project/solution (compiler-checked)… on C# diagnostics: offered without the core.
    registerFixAllCodeActions(),
    vscode.window.registerWebviewViewProvider('sharpclaw.reportView', {
      resolveWebviewView: (view, resolveContext, token) => getCore().reportView.resolveWebviewView(view, resolveContext, token),
    }),
    log,
    traceLog,
  );

  const activationMs = performance.now() - started;
  log.info(`SharpClaw ${manifest.version} activated in ${activationMs.toFixed(1)} ms.`);
  return {
    activationMs,
    hostState: () => core?.host.state ?? { kind: 'stopped' },
    hostStatus: () => getCore().host.status(),
    statusBarText: () => statusBar.text,
    recentLog: () => log.recent(),
    logDirectory: () => context.logUri.fsPath,
    onDidChangeHostState: (listener, thisArgs, disposables) => getCore().host.onDidChangeState(listener, thisArgs, disposables),
    onDidRenderSidebar: (listener, thisArgs, disposables) => getCore().reportView.onDidRender(listener, thisArgs, disposables),
    approvals: () => core?.approvalLog.list() ?? [],
    turnEvents: () => getCore().turnStorage.events.read(),
    onDidPublishReport: (listener) => {
      const subscription = getCore().session.onDidPublishReport(listener);
      return new vscode.Disposable(() => subscription.dispose());
    },
    onDidChangeLoadProgress: (listener, thisArgs, disposables) => getCore().loadProgress.onDidChange(listener, thisArgs, disposables),
    ...(context.extensionMode === vscode.ExtensionMode.Test
      ? { nextPermissionDialog: () => testDialogs.take() }
      : {}),
  };
}

export async function deactivate(): Promise<void> {
  await core?.host.stop();
  core = undefined;
}
