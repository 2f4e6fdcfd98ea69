// The composition root behind activation: builds the engine Session (workspace, permissions, the
// host supervisor over vscode-languageclient, dotnet path) and the VS Code parts around it
// (approvals, sidebar, status, edit journal, verification) and maps command ids to their
// handlers, each in a file of its own. extension.ts loads this bundle (dist/core.js) on first
// use, so that activation itself stays tiny.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApprovalLog } from './approvals/approvalLog';
import { ApprovalStore } from './approvals/approvalStore';
import { resetApprovals } from './approvals/resetApprovalsCommand';
import { VsCodePermissionPolicy } from './approvals/vscodePermissionPolicy';
import { restartHost, showHostStatus } from './commands/hostCommands';
import { clearCache } from './commands/clearCacheCommand';
import { loadWorkspace } from './commands/loadWorkspaceCommand';
import { setUpMcpForAnotherAgent } from './commands/setUpMcpCommand';
import { refreshMcpLauncher, type LauncherPlaces } from './commands/mcpLauncher';
import { applyHostWrite } from './edits/hostWrites';
import { createChatHandler } from './chat/chatParticipant';
import { TurnRecording } from './chat/turnRecording';
import { TurnStorage } from './chat/turnStorage';
import { undoLastTurn } from './chat/undoLastTurnCommand';
import { renameSymbol } from './edits/renameSymbolCommand';
import { fixAll } from './edits/fixAllCommand';
import { createEditJournal, replayEdit } from './edits/replayEditCommands';
import type { EditJournal } from './edits/editJournal';
import { showInterruptedEdits } from './edits/interruptedEditsToast';
import { showHostFailures } from './host/hostFailureToasts';
import { LanguageClientTransport } from './host/languageClientTransport';
import type { ExtensionLog } from './logging/extensionLog';
import { reportInvalidSettings } from './messages/settingsErrors';
import { LoadProgressReporter } from './status/loadProgressReporter';
import type { HostStatusBar } from './status/hostStatusBar';
import { invokeTool, prepareToolInvocation } from './tools/vscodeToolAdapter';
import { createVerificationFeature } from './verification/verificationCommands';
import { ReportViewProvider } from './views/reportViewProvider';
import { vscodeVerificationLayers } from './config/vscodeSettings';
import { TurnVerifications } from './chat/turnVerifications';
import type { VerificationSettings } from '../../engine/config/verificationSettings';
import type { HostSupervisor } from '../../engine/host/hostSupervisor';
import { Session } from '../../engine/session';
import { findTool } from '../../engine/tools/registry';
import type { AnyToolDefinition } from '../../engine/tools/toolDefinition';

export interface CoreServices {
  context: vscode.ExtensionContext;
  log: ExtensionLog;
  trace: vscode.LogOutputChannel;
  statusBar: HostStatusBar;
}

export type CommandHandler = (...args: unknown[]) => unknown;

/** The machine-scoped sharpclaw.dotnetPath (user value only: a workspace cannot choose the executable we run). */
function configuredDotnetPath(): string {
  return vscode.workspace.getConfiguration('sharpclaw').inspect<string>('dotnetPath')?.globalValue ?? '';
}

function firstWorkspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

export class Core implements vscode.Disposable {
  readonly session: Session;
  readonly reportView: ReportViewProvider;
  readonly approvalLog = new ApprovalLog();
  readonly approvalStore: ApprovalStore;
  readonly permissions: VsCodePermissionPolicy;
  readonly loadProgress: LoadProgressReporter;
  /** SharpClaw's edits in this window, for Undo Last Edit / Redo Last Edit. */
  readonly editJournal: EditJournal;
  /** @sharpclaw turns of this workspace: their event log and checkpoints, in the extension's workspace storage. */
  readonly turnStorage: TurnStorage;
  /** sharpclaw.verification.afterAgentEdits: the affected check of files other agents changed. */
  readonly verifyAfterAgentEdits: (changedFiles: string[]) => Promise<unknown>;
  /** The resolved verification settings, or undefined when no folder is open or a value is invalid. */
  readonly afterAgentEditsSettings: () => VerificationSettings | undefined;
  /** Records our tools' writes into the running @sharpclaw turn. */
  readonly turnRecording = new TurnRecording();
  /** The verifications @sharpclaw turns wait on: the tool adapter hands each its own report. */
  private readonly turnVerifications = new TurnVerifications();
  /** The @sharpclaw participant's request handler. */
  readonly chatHandler: vscode.ChatRequestHandler;
  /** Handlers of the commands contributed in package.json, by command id. */
  readonly commands: Record<string, CommandHandler>;
  /** Where Set Up MCP's launcher lives and what it runs (commands/mcpLauncher.ts). */
  readonly mcpLauncher: LauncherPlaces;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(services: CoreServices) {
    const { context, log, trace, statusBar } = services;
    this.mcpLauncher = { storageFolder: context.globalStorageUri.fsPath, extensionPath: context.extensionPath, extensionId: context.extension.id, runtime: process.execPath };
    try {
      // A launcher an earlier Set Up MCP wrote names this installation and runtime from now on.
      refreshMcpLauncher(this.mcpLauncher);
    } catch (error) {
      log.warn(`Set Up MCP: could not refresh the MCP launcher in ${context.globalStorageUri.fsPath}: ${(error as Error).message}`);
    }
    this.approvalStore = new ApprovalStore(context.globalState);
    this.permissions = new VsCodePermissionPolicy(this.approvalStore, this.approvalLog, log);
    this.session = new Session({
      surface: 'vscode',
      workspaceFolder: firstWorkspaceFolder,
      permissions: this.permissions,
      transport: new LanguageClientTransport({ serverDll: context.asAbsolutePath(path.join('dist', 'server', 'SharpClaw.Server.dll')), logDirectory: context.logUri.fsPath, storeDirectory: path.join(context.globalStorageUri.fsPath, 'store'), dotnetPath: configuredDotnetPath }, log, trace),
      dotnetPath: configuredDotnetPath,
      applyWrite: async (params) => {
        const applied = await applyHostWrite(params);
        if (applied) await this.turnRecording.recordHostWrite(params);
        return applied;
      },
      settingsLayers: () => vscodeVerificationLayers(vscode.workspace.workspaceFolders?.[0]?.uri),
      progress: (tool, message) => log.debug(`${tool.name}: ${message}`),
      log: { info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(m), trace: (m) => trace.appendLine(m) },
      restartHint: 'Run "SharpClaw: Restart Host" to try again.',
    });
    const host = this.session.host;
    this.loadProgress = new LoadProgressReporter(() => host.cancelAll());
    this.turnStorage = new TurnStorage(context);
    this.reportView = new ReportViewProvider(context.extensionUri, host, log, this.approvalLog, this.loadProgress, {
      approvalStore: this.approvalStore,
      onDidChangeVerification: (listener) => this.session.onDidChangeVerification(listener),
      workspaceFolder: firstWorkspaceFolder,
    }, { events: this.turnStorage.events, lastUndoableTurn: (events) => this.turnStorage.lastUndoableTurn(events), activeTurnId: () => this.turnRecording.activeTurnId });
    this.editJournal = createEditJournal(this.session.requester, () => this.session.requireWorkspaceFolder());
    const verification = createVerificationFeature({ session: this.session, log, workspaceFolder: firstWorkspaceFolder });
    this.chatHandler = createChatHandler({
      storage: this.turnStorage,
      recording: this.turnRecording,
      permissions: this.permissions,
      workspaceFolder: firstWorkspaceFolder,
      verifications: this.turnVerifications,
      settings: () => this.session.verificationSettings().values,
      lastBuildReport: () => this.session.reports.lastBuildReport,
    });
    reportInvalidSettings(log);
    this.disposables.push(
      this.approvalLog,
      this.loadProgress,
      { dispose: () => this.session.dispose() },
      this.reportView,
      host.onLoadProgress((progress) => this.loadProgress.report(progress)),
      this.loadProgress.onDidChange((progress) => statusBar.showLoadProgress(progress)),
      host.onDidChangeState((state) => statusBar.update(state)),
      showHostFailures(host, log),
      this.session.onDidHostAnswer(() => this.reportView.hostAnswered()),
      this.session.onDidApplyEdit(({ summary }) => this.editJournal.record({ kind: 'host', label: summary })),
      this.session.onDidRecoverInterruptedEdits((edits) => showInterruptedEdits(edits, this.editJournal, log)),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('sharpclaw.verification')) reportInvalidSettings(log);
      }),
      ...verification.disposables,
      this.session.onDidPublishReport((report) => {
        this.reportView.addReport(report);
        statusBar.showVerdict(verification.verdict(report));
      }),
    );
    this.verifyAfterAgentEdits = (files) => verification.verifyAfterAgentEdits(files);
    this.afterAgentEditsSettings = () => {
      const folder = firstWorkspaceFolder();
      if (!folder) return undefined;
      try {
        return this.session.verificationSettings().values;
      } catch {
        return undefined; // an invalid setting is reported by reportInvalidSettings; nothing runs on it
      }
    };
    const rename = () => renameSymbol({ host: this.session.requester, workspaceFolder: firstWorkspaceFolder, journal: this.editJournal, log });
    this.commands = {
      ...verification.commands,
      'sharpclaw.renameSymbol': rename,
      // The editor context menu's entry (its title names SharpClaw beside VS Code's own Rename Symbol).
      'sharpclaw.renameSymbolInEditor': rename,
      'sharpclaw.fixAll': (request?: unknown) => fixAll({ host: this.session.requester, workspaceFolder: firstWorkspaceFolder, journal: this.editJournal, log }, request),
      'sharpclaw.undoLastTurn': () => undoLastTurn(this.turnStorage, log),
      'sharpclaw.undoLastEdit': () => replayEdit(this.editJournal, 'undo', log),
      'sharpclaw.redoLastEdit': () => replayEdit(this.editJournal, 'redo', log),
      'sharpclaw.showHostStatus': () => showHostStatus(host, log),
      'sharpclaw.restartHost': () => restartHost(host, log),
      'sharpclaw.stopHost': () => host.stop(),
      'sharpclaw.showLog': () => log.show(),
      'sharpclaw.openSidebar': () => vscode.commands.executeCommand(`${ReportViewProvider.viewId}.focus`),
      'sharpclaw.loadWorkspace': () => loadWorkspace(this.session, this.reportView, log),
      'sharpclaw.resetApprovals': () => resetApprovals(this.approvalStore, log),
      'sharpclaw.clearCache': () => clearCache(this.session, log),
      'sharpclaw.setUpMcp': () => setUpMcpForAnotherAgent({ workspaceFolder: firstWorkspaceFolder, launcher: this.mcpLauncher, log }),
    };
  }

  /** The host supervisor (the integration API reads its state). */
  get host(): HostSupervisor {
    return this.session.host;
  }

  prepareTool(name: string, options: { input: unknown }): vscode.PreparedToolInvocation {
    return prepareToolInvocation(this.tool(name), options);
  }

  invokeTool(name: string, options: { input: unknown; toolInvocationToken?: unknown }, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return invokeTool(this.session, this.tool(name), options, token, this.turnVerifications);
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  private tool(name: string): AnyToolDefinition {
    const tool = findTool(name);
    if (!tool) throw new Error(`SharpClaw contributes the tool ${name} but does not implement it.`);
    return tool;
  }
}

export function createCore(services: CoreServices): Core {
  return new Core(services);
}
