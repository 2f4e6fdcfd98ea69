// Entry point. Activation is lazy (commands and views only) and cheap: it wires up channels,
// the status bar, commands and the sidebar, and starts no process.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApprovalLog, type ApprovalLogEntry } from './approvals/approvalLog';
import { ApprovalStore } from './approvals/approvalStore';
import { VsCodePermissionPolicy } from './approvals/vscodePermissionPolicy';
import { HostController } from './host/hostController';
import type { HostState } from './host/hostState';
import { ExtensionLog, type LogLine } from './logging/extensionLog';
import type { HostStatus } from './protocol/hostStatus';
import { LoadProgressReporter } from './semantic/loadProgressReporter';
import { HostStatusBar } from './status/hostStatusBar';
import { allTools } from './tools/registry';
import type { ToolContext } from './tools/toolDefinition';
import { ToolError } from './tools/toolErrors';
import { registerLanguageModelTools, toAbortSignal } from './tools/vscodeToolAdapter';
import { ReportViewProvider } from './views/reportViewProvider';

/** What activate() returns: used by the integration tests and by other extensions. */
export interface SharpClawApi {
  readonly activationMs: number;
  hostState(): HostState;
  hostStatus(): Promise<HostStatus>;
  statusBarText(): string;
  recentLog(): readonly LogLine[];
  onDidChangeHostState: vscode.Event<HostState>;
  onDidRenderSidebar: ReportViewProvider['onDidRender'];
  approvals(): readonly ApprovalLogEntry[];
}

function firstWorkspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

let host: HostController | undefined;

export function activate(context: vscode.ExtensionContext): SharpClawApi {
  const started = performance.now();
  const log = new ExtensionLog(vscode.window.createOutputChannel('SharpClaw', { log: true }));
  const trace = vscode.window.createOutputChannel('SharpClaw Trace', { log: true });
  const statusBar = new HostStatusBar();
  const approvalLog = new ApprovalLog();
  const approvalStore = new ApprovalStore(context.globalState);
  const permissions = new VsCodePermissionPolicy(approvalStore, approvalLog, log);
  const loadProgress = new LoadProgressReporter(() => host?.cancelAll());

  host = new HostController(
    {
      serverDll: context.asAbsolutePath(path.join('dist', 'server', 'SharpClaw.Server.dll')),
      logDirectory: context.logUri.fsPath,
      // Machine-scoped setting: a workspace cannot choose the executable we run.
      dotnetPath: () => vscode.workspace.getConfiguration('sharpclaw').inspect<string>('dotnetPath')?.globalValue ?? '',
      permissions,
      workspaceFolder: firstWorkspaceFolder,
      onLoadProgress: (progress) => loadProgress.report(progress),
    },
    log,
    trace,
  );
  const reportView = new ReportViewProvider(context.extensionUri, host, log);
  const controller = host;
  const toolContext = (tool: { name: string }, signal: AbortSignal): ToolContext => {
    const workspaceFolder = firstWorkspaceFolder();
    if (!workspaceFolder) throw new ToolError('InvalidRequest', 'Open a folder that contains a .NET solution or project first.');
    return {
      workspaceFolder,
      permissions,
      host: { request: (method, params, schema, requestSignal) => controller.request(method, params, schema, requestSignal ?? signal, tool.name) },
      surface: 'vscode',
      signal,
      progress: (message) => log.info(`${tool.name}: ${message}`),
    };
  };

  context.subscriptions.push(
    log,
    trace,
    statusBar,
    approvalLog,
    loadProgress,
    loadProgress.onDidChange((progress) => statusBar.showLoadProgress(progress)),
    ...registerLanguageModelTools(allTools, toolContext),
    controller,
    reportView,
    controller.onDidChangeState((state) => statusBar.update(state)),
    vscode.window.registerWebviewViewProvider(ReportViewProvider.viewId, reportView, { webviewOptions: { retainContextWhenHidden: false } }),
    vscode.commands.registerCommand('sharpclaw.showHostStatus', () => showHostStatus(controller, log)),
    vscode.commands.registerCommand('sharpclaw.restartHost', async () => {
      log.info('Restarting the SharpClaw host on request.');
      return controller.restart();
    }),
    vscode.commands.registerCommand('sharpclaw.stopHost', () => controller.stop()),
    vscode.commands.registerCommand('sharpclaw.showLog', () => log.show()),
    vscode.commands.registerCommand('sharpclaw.resetApprovals', async () => {
      const count = await approvalStore.reset();
      log.info(`Reset ${count} remembered approvals.`);
      void vscode.window.showInformationMessage(count ? `SharpClaw forgot ${count} remembered approvals; it will ask again.` : 'SharpClaw had no remembered approvals.');
      return count;
    }),
    vscode.commands.registerCommand('sharpclaw.openSidebar', () => vscode.commands.executeCommand(`${ReportViewProvider.viewId}.focus`)),
  );

  const activationMs = performance.now() - started;
  log.info(`SharpClaw ${context.extension.packageJSON.version as string} activated in ${activationMs.toFixed(1)} ms.`);
  return {
    activationMs,
    hostState: () => controller.state,
    hostStatus: () => controller.status(),
    statusBarText: () => statusBar.text,
    recentLog: () => log.recent(),
    onDidChangeHostState: controller.onDidChangeState,
    onDidRenderSidebar: reportView.onDidRender,
    approvals: () => approvalLog.list(),
  };
}

export async function deactivate(): Promise<void> {
  await host?.stop();
  host = undefined;
}

async function showHostStatus(controller: HostController, log: ExtensionLog): Promise<HostStatus | undefined> {
  try {
    const status = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'SharpClaw: asking the host' },
      async (_progress, token) => {
        const abort = toAbortSignal(token);
        try {
          return await controller.status(abort.signal);
        } finally {
          abort.dispose();
        }
      },
    );
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
