// SharpClaw: Show Host Status, Restart Host and Stop Host: the person's handles on the host
// supervisor. Show Host Status starts the host if needed and summarizes its versions.
import * as vscode from 'vscode';
import type { HostSupervisor } from '../../../engine/host/hostSupervisor';
import type { HostStatus } from '../../../engine/protocol/hostStatus';
import type { ExtensionLog } from '../logging/extensionLog';
import { toAbortSignal } from '../tools/vscodeToolAdapter';

export async function showHostStatus(host: HostSupervisor, log: ExtensionLog): Promise<HostStatus | undefined> {
  try {
    const status = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'SharpClaw: asking the host' }, async (_progress, token) => {
      const abort = toAbortSignal(token);
      try {
        return await host.status(abort.signal);
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

/** Stops the host, forgets earlier crashes, starts a fresh one and returns its status. */
export async function restartHost(host: HostSupervisor, log: ExtensionLog): Promise<HostStatus> {
  log.info('Restarting the SharpClaw host on request.');
  await host.restart();
  return host.status();
}
