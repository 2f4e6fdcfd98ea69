// The SharpClaw sidebar (webview view): verification reports, the timeline of @sharpclaw turns, the
// Roslyn host's live status, what the last load gave, and approvals. Every change is pushed to the view as it happens (host
// state, loads, verifications under way, approvals, Workspace Trust): the person never needs
// Refresh to see the truth. Opening it is a user action, so it may start the host.
import * as vscode from 'vscode';
import { describeHostState } from '../../../engine/host/hostState';
import type { ApprovalLog } from '../approvals/approvalLog';
import type { HostSupervisor } from '../../../engine/host/hostSupervisor';
import type { LoadProgressReporter } from '../status/loadProgressReporter';
import type { ExtensionLog } from '../logging/extensionLog';
import type { VerificationReport } from '../../../engine/verification/report';
import type { RunningVerification } from '../../../engine/verification/reportHistory';
import type { SolutionInspectResult } from '../../../engine/protocol/semantic';
import { allTools } from '../../../engine/tools/registry';
import { turnTimelines } from '../../../engine/turns/turnTimeline';
import type { TurnEvent, TurnEventLog } from '../../../engine/turns/turnEvents';
import type { ApprovalStore } from '../approvals/approvalStore';
import { renderWebviewHtml } from './webviewHtml';
import { FromWebviewMessageSchema, type FromWebviewMessage, type ToWebviewMessage } from './webviewMessages';

export class ReportViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = 'sharpclaw.reportView';

  private view: vscode.WebviewView | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly renderedEmitter = new vscode.EventEmitter<FromWebviewMessage & { type: 'rendered' }>();
  /** Fires when the webview has put a status or an error on screen. */
  readonly onDidRender = this.renderedEmitter.event;

  /** Reports of this session, newest first. */
  private readonly reports: VerificationReport[] = [];
  private static readonly historySize = 5;

  private verifying: RunningVerification | undefined;
  private lastLoad: { result: SolutionInspectResult; at: string } | undefined;
  /** The loaded contexts of the last status the view got, to notice a load that finished. */
  private loadedContextsKey = '';

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: HostSupervisor,
    private readonly log: ExtensionLog,
    private readonly approvals: ApprovalLog,
    private readonly loadProgress: LoadProgressReporter,
    private readonly workspace: {
      approvalStore: ApprovalStore;
      onDidChangeVerification(listener: (running: RunningVerification | undefined) => void): { dispose(): void };
      workspaceFolder(): string | undefined;
    },
    private readonly turns: {
      events: TurnEventLog;
      lastUndoableTurn(events: readonly TurnEvent[]): string | undefined;
      activeTurnId(): string | undefined;
    },
  ) {
    this.disposables.push(
      host.onDidChangeState((state) => {
        this.post({ type: 'hostState', state, description: describeHostState(state) });
        // A new host (after Stop, Restart or a crash) has new versions and no loaded contexts.
        if (state.kind === 'ready') void this.postHostStatus();
      }),
      approvals.onDidRecord(() => this.postApprovals()),
      workspace.approvalStore.onDidChange(() => this.postWorkspace()),
      loadProgress.onDidChange((progress) => {
        this.post({ type: 'loadProgress', progress: progress ?? null });
        // A load ended (Load Workspace, or one an agent's query or a rename started): show what is loaded now.
        if (!progress) void this.postLoadedContexts();
      }),
      workspace.onDidChangeVerification((running) => {
        this.verifying = running;
        this.postWorkspace();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.postWorkspace()),
      turns.events.onDidAppend(() => this.postTurns()),
    );
  }

  /** What Load Workspace gave: shown until the next load. */
  showLoad(result: SolutionInspectResult): void {
    this.lastLoad = { result, at: new Date().toISOString() };
    this.postWorkspace();
    void this.postHostStatus();
  }

  resolveWebviewView(view: vscode.WebviewView, _context?: vscode.WebviewViewResolveContext, _token?: vscode.CancellationToken): void {
    this.view = view;
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [webviewRoot, vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    view.webview.html = renderWebviewHtml({
      cspSource: view.webview.cspSource,
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, 'main.js')).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, 'styles.css')).toString(),
      title: 'SharpClaw',
    });
    this.disposables.push(
      view.webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw)),
      view.onDidChangeVisibility(() => {
        if (view.visible) void this.refreshStatus();
      }),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
      }),
    );
  }

  /** Shows a new verification report first and keeps a short history. */
  addReport(report: VerificationReport): void {
    this.reports.unshift(report);
    this.reports.length = Math.min(this.reports.length, ReportViewProvider.historySize);
    this.post({ type: 'reports', reports: this.reports });
  }

  async refreshStatus(): Promise<void> {
    if (this.reports.length) this.post({ type: 'reports', reports: this.reports });
    this.post({ type: 'hostState', state: this.host.state, description: describeHostState(this.host.state) });
    this.postApprovals();
    this.postWorkspace();
    this.postTurns();
    this.post({ type: 'loadProgress', progress: this.loadProgress.last ?? null });
    await this.postHostStatus(true);
  }

  /** Asks the host for its status; unless asked to, only when it is running (a stopped host stays stopped). */
  private async postHostStatus(startIfNeeded = false): Promise<void> {
    if (!this.view) return;
    if (!startIfNeeded && this.host.state.kind !== 'ready') return;
    try {
      const status = await this.host.status();
      this.loadedContextsKey = status.loadedContexts.map((c) => `${c.target}|${c.configuration}|${c.targetFramework ?? ''}|${c.projectCount}`).join(';');
      this.post({ type: 'hostStatus', status });
    } catch (error) {
      this.post({ type: 'hostError', message: error instanceof Error ? error.message : String(error) });
    }
  }

  private answeredTimer: NodeJS.Timeout | undefined;

  /** A tool or command got an answer from the host: show the loaded contexts if they changed. */
  hostAnswered(): void {
    if (this.answeredTimer) clearTimeout(this.answeredTimer);
    this.answeredTimer = setTimeout(() => {
      this.answeredTimer = undefined;
      void this.postHostStatus();
    }, 300);
  }

  /**
   * After the last progress step the host still builds the compilations, so the new context may
   * appear in its status a little later: ask until it does (about once a second, for a minute).
   */
  private async postLoadedContexts(): Promise<void> {
    if (!this.view || this.host.state.kind !== 'ready') return;
    const before = this.loadedContextsKey;
    for (let attempt = 0; attempt < 60; attempt++) {
      await this.postHostStatus();
      if (this.loadedContextsKey !== before || this.host.state.kind !== 'ready') return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  private postWorkspace(): void {
    const folder = this.workspace.workspaceFolder();
    this.post({
      type: 'workspace',
      trusted: vscode.workspace.isTrusted,
      remembered: folder ? this.workspace.approvalStore.kindsFor(folder) : [],
      verifying: this.verifying ?? null,
      load: this.lastLoad ?? null,
      agentTools: allTools.filter((tool) => tool.name !== 'dotnet_solution_inspect' && tool.name !== 'verify_workspace').map((tool) => ({ name: tool.name, displayName: tool.displayName })),
    });
  }

  dispose(): void {
    if (this.answeredTimer) clearTimeout(this.answeredTimer);
    for (const disposable of this.disposables) disposable.dispose();
    this.renderedEmitter.dispose();
  }

  private onMessage(raw: unknown): void {
    const parsed = FromWebviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`Ignored an invalid message from the SharpClaw sidebar: ${parsed.error.message}`);
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ready':
      case 'refreshStatus':
        void this.refreshStatus();
        return;
      case 'restartHost':
        void vscode.commands.executeCommand('sharpclaw.restartHost');
        return;
      case 'showLog':
        this.log.show();
        return;
      case 'runCommand':
        void vscode.commands.executeCommand(message.command);
        return;
      case 'openLocation':
        void this.openLocation(message.file, message.line, message.column ?? 1);
        return;
      case 'rendered':
        this.renderedEmitter.fire(message);
        return;
    }
  }

  /** Opens a workspace file at a one-based position; refuses anything outside the workspace. */
  private async openLocation(file: string, line: number, column: number): Promise<void> {
    const uri = vscode.Uri.file(file);
    if (!vscode.workspace.getWorkspaceFolder(uri)) {
      this.log.warn(`The sidebar asked to open ${file}, which is outside the workspace; ignored.`);
      return;
    }
    const position = new vscode.Position(line - 1, column - 1);
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position), preview: true });
  }

  /** The timeline of the newest turns, read back from the append-only log (it is small: a few turns' events). */
  private postTurns(): void {
    if (!this.view) return;
    try {
      const events = this.turns.events.read();
      this.post({ type: 'turns', turns: turnTimelines(events, this.workspace.workspaceFolder()), undoable: this.turns.lastUndoableTurn(events) ?? null, running: this.turns.activeTurnId() ?? null });
    } catch (error) {
      this.log.warn(`Could not read the turn log for the sidebar: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private postApprovals(): void {
    this.post({ type: 'approvals', entries: [...this.approvals.list()] });
  }

  private post(message: ToWebviewMessage): void {
    void this.view?.webview.postMessage(message);
  }
}
