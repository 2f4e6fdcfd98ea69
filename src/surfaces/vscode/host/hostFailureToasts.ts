// Tells the person when the host supervisor gives up on a host that keeps crashing: an error toast
// with "Restart Host" and "Show Log". (Missing .NET is offered by the transport, once.)
import * as vscode from 'vscode';
import type { HostSupervisor } from '../../../engine/host/hostSupervisor';
import type { ExtensionLog } from '../logging/extensionLog';

export function showHostFailures(host: HostSupervisor, log: ExtensionLog): vscode.Disposable {
  return host.onDidChangeState((state) => {
    if (state.kind !== 'failed' || state.cause !== 'crashes') return;
    void vscode.window.showErrorMessage(state.message, 'Restart Host', 'Show Log').then((choice) => {
      if (choice === 'Restart Host') void vscode.commands.executeCommand('sharpclaw.restartHost');
      if (choice === 'Show Log') log.show();
    });
  });
}
