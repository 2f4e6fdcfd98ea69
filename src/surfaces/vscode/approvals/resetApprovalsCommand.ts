// SharpClaw: Reset Approvals — forgets every remembered approval, so SharpClaw asks again.
import * as vscode from 'vscode';
import type { ExtensionLog } from '../logging/extensionLog';
import type { ApprovalStore } from './approvalStore';

export async function resetApprovals(store: ApprovalStore, log: ExtensionLog): Promise<number> {
  const count = await store.reset();
  log.info(`Reset ${count} remembered approvals.`);
  void vscode.window.showInformationMessage(count ? `SharpClaw forgot ${count === 1 ? 'the remembered approval' : `${count} remembered approvals`}; it will ask again.` : 'SharpClaw had no remembered approvals.');
  return count;
}
