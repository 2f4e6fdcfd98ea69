// Everything behind activation: the Roslyn host controller, approvals, tools, the sidebar and
// the command handlers. extension.ts loads this bundle (dist/core.js) on first use, so that
// activation itself stays tiny.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApprovalLog } from './approvals/approvalLog';
import { ApprovalStore } from './approvals/approvalStore';
import { VsCodePermissionPolicy } from './approvals/vscodePermissionPolicy';
import { SettingsValidationError } from '../../engine/config/verificationSettings';
import { readVerificationSettings, vscodeVerificationLayers } from './config/vscodeSettings';
import { HostController } from './host/hostController';
import type { ExtensionLog } from './logging/extensionLog';
import type { HostStatus } from '../../engine/protocol/hostStatus';
import type { SolutionInspectResult } from '../../engine/protocol/semantic';
import { showPersonError } from './messages/personMessages';
import { LoadProgressReporter } from './status/loadProgressReporter';
import type { HostStatusBar } from './status/hostStatusBar';
import { findTool } from '../../engine/tools/registry';
import type { AnyToolDefinition, ToolContext } from '../../engine/tools/toolDefinition';
import { renderSolutionInspect } from '../../engine/tools/solutionInspect/renderSolutionInspect';
import { ToolError } from '../../engine/errors';
import { invokeTool, prepareToolInvocation, toAbortSignal } from './tools/vscodeToolAdapter';
import { EditJournal } from './edits/editJournal';
import { FileChangedError } from './edits/fileChanges';
import { applyHostWrite } from './edits/hostWrites';
import { renameSymbol } from './edits/renameSymbolCommand';
import { callHost } from '../../engine/protocol/callHost';
import { Methods } from '../../engine/protocol/methods';
import type { HostRequester } from '../../engine/host/hostRequester';
import { createVerificationFeature } from './verification/verificationCommands';
import { verificationService } from '../../engine/verification/verificationService';
import { ReportViewProvider } from './views/reportViewProvider';

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
  readonly host: HostController;
  readonly reportView: ReportViewProvider;
  readonly approvalLog = new ApprovalLog();
  readonly approvalStore: ApprovalStore;
  readonly permissions: VsCodePermissionPolicy;
  readonly loadProgress: LoadProgressReporter;
  /** SharpClaw's edits in this window, for Undo Last Edit / Redo Last Edit. */
  readonly editJournal: EditJournal;
  /** Handlers of the commands contributed in package.json, by command id. */
  readonly commands: Record<string, CommandHandler>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly services: CoreServices) {
    const { context, log, trace, statusBar } = services;
    this.approvalStore = new ApprovalStore(context.globalState);
    this.permissions = new VsCodePermissionPolicy(this.approvalStore, this.approvalLog, log);
    this.loadProgress = new LoadProgressReporter(() => this.host.cancelAll());
    this.host = new HostController(
      {
        serverDll: context.asAbsolutePath(path.join('dist', 'server', 'SharpClaw.Server.dll')),
        logDirectory: context.logUri.fsPath,
        dotnetPath: configuredDotnetPath,
        permissions: this.permissions,
        workspaceFolder: firstWorkspaceFolder,
        onLoadProgress: (progress) => this.loadProgress.report(progress),
        applyWrite: applyHostWrite,
      },
      log,
      trace,
    );
    this.reportView = new ReportViewProvider(context.extensionUri, this.host, log, this.approvalLog, this.loadProgress, {
      approvalStore: this.approvalStore,
      onDidChangeVerification: (listener) => verificationService.onDidChangeRunning(listener),
      workspaceFolder: firstWorkspaceFolder,
    });
    this.disposables.push(
      this.approvalLog,
      this.loadProgress,
      this.host,
      this.reportView,
      this.loadProgress.onDidChange((progress) => statusBar.showLoadProgress(progress)),
      this.host.onDidChangeState((state) => statusBar.update(state)),
    );
    const verification = createVerificationFeature({
      service: verificationService,
      permissions: this.permissions,
      log,
      workspaceFolder: firstWorkspaceFolder,
      dotnetPath: configuredDotnetPath,
      host: this.requester,
    });
    this.validateSettings();
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('sharpclaw.verification')) this.validateSettings();
      }),
      ...verification.disposables,
      verificationService.onDidReport((report) => {
        this.reportView.addReport(report);
        statusBar.showVerdict(verification.verdict(report));
      }),
    );
    this.editJournal = new EditJournal({
      undo: () => this.replayHostEdit(Methods.undoEdit),
      redo: () => this.replayHostEdit(Methods.redoEdit),
    });
    this.commands = {
      ...verification.commands,
      'sharpclaw.renameSymbol': () => this.renameSymbol(),
      // The editor context menu's entry (its title names SharpClaw beside VS Code's own Rename Symbol).
      'sharpclaw.renameSymbolInEditor': () => this.renameSymbol(),
      'sharpclaw.undoLastEdit': () => this.replayEdit('undo'),
      'sharpclaw.redoLastEdit': () => this.replayEdit('redo'),
      'sharpclaw.showHostStatus': () => this.showHostStatus(),
      'sharpclaw.restartHost': async () => {
        log.info('Restarting the SharpClaw host on request.');
        return this.host.restart();
      },
      'sharpclaw.stopHost': () => this.host.stop(),
      'sharpclaw.showLog': () => log.show(),
      'sharpclaw.openSidebar': () => vscode.commands.executeCommand(`${ReportViewProvider.viewId}.focus`),
      'sharpclaw.loadWorkspace': () => this.loadWorkspace(),
      'sharpclaw.resetApprovals': async () => {
        const count = await this.approvalStore.reset();
        log.info(`Reset ${count} remembered approvals.`);
        void vscode.window.showInformationMessage(count ? `SharpClaw forgot ${count === 1 ? 'the remembered approval' : `${count} remembered approvals`}; it will ask again.` : 'SharpClaw had no remembered approvals.');
        return count;
      },
    };
  }

  /**
   * The host as tools and commands use it: after each answer the sidebar checks whether the
   * loaded contexts changed (a query, a rename or an agent's tool may have loaded the solution).
   */
  private readonly requester: HostRequester = {
    request: async (method, params, schema, signal) => {
      try {
        return await this.host.request(method, params, schema, signal);
      } finally {
        this.reportView.hostAnswered();
      }
    },
  };

  toolContext(tool: AnyToolDefinition, signal: AbortSignal): ToolContext {
    const workspaceFolder = firstWorkspaceFolder();
    if (!workspaceFolder) throw new ToolError('invalid_request', 'Open a folder that contains a .NET solution or project first.');
    return {
      workspaceFolder,
      permissions: this.permissions,
      host: { request: (method, params, schema, requestSignal) => this.requester.request(method, params, schema, requestSignal ?? signal) },
      surface: 'vscode',
      signal,
      progress: (message) => this.services.log.info(`${tool.name}: ${message}`),
      onEditApplied: (summary) => this.editJournal.record({ kind: 'host', label: summary }),
      dotnetPath: configuredDotnetPath(),
      settingsLayers: () => vscodeVerificationLayers(vscode.workspace.workspaceFolders?.[0]?.uri),
    };
  }

  prepareTool(name: string, options: { input: unknown }): vscode.PreparedToolInvocation {
    return prepareToolInvocation(this.tool(name), options);
  }

  invokeTool(name: string, options: { input: unknown }, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return invokeTool(this.tool(name), options, token, (tool, signal) => this.toolContext(tool, signal));
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  private tool(name: string): AnyToolDefinition {
    const tool = findTool(name);
    if (!tool) throw new Error(`SharpClaw contributes the tool ${name} but does not implement it.`);
    return tool;
  }

  private renameSymbol(): Promise<boolean> {
    return renameSymbol({
      host: this.requester,
      workspaceFolder: firstWorkspaceFolder,
      journal: this.editJournal,
      log: this.services.log,
    });
  }

  /** Undo Last Edit / Redo Last Edit: replays SharpClaw's last edit (or undone edit) with content checks. */
  private async replayEdit(direction: 'undo' | 'redo'): Promise<boolean> {
    const log = this.services.log;
    try {
      const entry = direction === 'undo' ? await this.editJournal.undo() : await this.editJournal.redo();
      if (!entry) {
        void vscode.window.showInformationMessage(`SharpClaw has no edit to ${direction} in this window.`);
        return false;
      }
      log.info(`${direction === 'undo' ? 'Undid' : 'Redid'}: ${entry.label}`);
      void vscode.window.showInformationMessage(`SharpClaw ${direction === 'undo' ? 'undid' : 'redid'}: ${entry.label}`);
      return true;
    } catch (error) {
      if (error instanceof FileChangedError) {
        log.info(`${direction}: ${error.message}`);
        void vscode.window.showWarningMessage(`SharpClaw: ${error.message}`);
      } else {
        showPersonError(log, direction === 'undo' ? 'Undo Last Edit' : 'Redo Last Edit', direction === 'undo' ? 'did not undo' : 'did not redo', error);
      }
      return false;
    }
  }

  /** The host's own journal (edits it wrote for tool calls); asks for write permission like any write. */
  private async replayHostEdit(method: typeof Methods.undoEdit | typeof Methods.redoEdit): Promise<void> {
    const workspace = firstWorkspaceFolder();
    if (!workspace) throw new ToolError('invalid_request', 'Open a folder that contains a .NET solution or project first.');
    await callHost(this.host, method, { workspace, tool: method === Methods.undoEdit ? 'SharpClaw: Undo Last Edit' : 'SharpClaw: Redo Last Edit' });
  }

  /** Reports an invalid sharpclaw.verification.* value with its key, value and valid range. */
  private validateSettings(): void {
    try {
      const folder = vscode.workspace.workspaceFolders?.[0];
      if (folder) readVerificationSettings(folder.uri.fsPath, folder.uri);
    } catch (error) {
      if (!(error instanceof SettingsValidationError)) throw error;
      this.services.log.error(error.message);
      void vscode.window.showErrorMessage(`SharpClaw: ${error.message}`, 'Open Settings').then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', error.key);
      });
    }
  }

  /** Loads (or refreshes) the workspace's solution in the host, asking before MSBuild runs. */
  private async loadWorkspace(): Promise<SolutionInspectResult | undefined> {
    const log = this.services.log;
    try {
      const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'SharpClaw: loading the workspace' }, async (_progress, token) => {
        const abort = toAbortSignal(token);
        try {
          const workspace = firstWorkspaceFolder();
          if (!workspace) throw new ToolError('invalid_request', 'Open a folder that contains a .NET solution or project first.');
          // Named as the person's command, so the approval says "you, via SharpClaw: Load Workspace".
          return await callHost(this.host, Methods.solutionInspect, { workspace, tool: 'SharpClaw: Load Workspace' }, abort.signal);
        } finally {
          abort.dispose();
        }
      });
      log.info(renderSolutionInspect(result));
      this.reportView.showLoad(result);
      void vscode.window
        .showInformationMessage(`SharpClaw loaded ${result.target}: ${result.projects.length} project${result.projects.length === 1 ? '' : 's'}${result.loadStatus === 'partial' ? `, ${result.partialLoad.length} failed to load` : ''}.`, 'Show in Sidebar')
        .then((choice) => choice && vscode.commands.executeCommand(`${ReportViewProvider.viewId}.focus`));
      return result;
    } catch (error) {
      showPersonError(log, 'Load Workspace', 'could not load the workspace', error);
      return undefined;
    }
  }

  private async showHostStatus(): Promise<HostStatus | undefined> {
    const log = this.services.log;
    try {
      const status = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'SharpClaw: asking the host' }, async (_progress, token) => {
        const abort = toAbortSignal(token);
        try {
          return await this.host.status(abort.signal);
        } finally {
          abort.dispose();
        }
      });
      const sdks = status.sdks.map((sdk) => sdk.version).join(', ') || 'none';
      const summary = `SharpClaw host ${status.hostVersion}: Roslyn ${status.roslynVersion}, ${status.runtime.frameworkDescription}, SDKs ${sdks}, ${status.loadedContexts.length} loaded contexts.`;
      log.info(summary);
      void vscode.window.showInformationMessage(summary);
      return status;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(message);
      void vscode.window.showErrorMessage(message, 'Show Log').then((choice) => choice && log.show());
      return undefined;
    }
  }
}

export function createCore(services: CoreServices): Core {
  return new Core(services);
}
