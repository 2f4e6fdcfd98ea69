// SharpClaw: Load Workspace — loads (or refreshes) the workspace's solution in the host, asking
// before MSBuild runs, and shows what loaded in a toast and the sidebar.
import * as vscode from 'vscode';
import { callHost } from '../../../engine/protocol/callHost';
import { Methods } from '../../../engine/protocol/methods';
import type { SolutionInspectResult } from '../../../engine/protocol/semantic';
import type { Session } from '../../../engine/session';
import { renderSolutionInspect } from '../../../engine/tools/solutionInspect/renderSolutionInspect';
import type { ExtensionLog } from '../logging/extensionLog';
import { showPersonError } from '../messages/personMessages';
import { toAbortSignal } from '../tools/vscodeToolAdapter';
import { ReportViewProvider } from '../views/reportViewProvider';

export async function loadWorkspace(session: Session, reportView: ReportViewProvider, log: ExtensionLog): Promise<SolutionInspectResult | undefined> {
  try {
    const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'SharpClaw: loading the workspace' }, async (_progress, token) => {
      const abort = toAbortSignal(token);
      try {
        const workspace = session.requireWorkspaceFolder();
        // Named as the person's command, so the approval says "you, via SharpClaw: Load Workspace".
        return await callHost(session.host, Methods.solutionInspect, { workspace, tool: 'SharpClaw: Load Workspace' }, abort.signal);
      } finally {
        abort.dispose();
      }
    });
    log.info(renderSolutionInspect(result));
    reportView.showLoad(result);
    void vscode.window
      .showInformationMessage(`SharpClaw loaded ${result.target}: ${result.projects.length} project${result.projects.length === 1 ? '' : 's'}${result.loadStatus === 'partial' ? `, ${result.partialLoad.length} failed to load` : ''}.`, 'Show in Sidebar')
      .then((choice) => choice && vscode.commands.executeCommand(`${ReportViewProvider.viewId}.focus`));
    return result;
  } catch (error) {
    showPersonError(log, 'Load Workspace', 'could not load the workspace', error);
    return undefined;
  }
}
