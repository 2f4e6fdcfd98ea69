// SharpClaw: Clear Cache — deletes the host's store of each workspace folder (the syntax index behind
// csharp_symbol_search / csharp_workspace_search and the approved snapshots, in the extension's global
// storage); the next search rebuilds it. Approvals are not part of the store (SharpClaw: Reset
// Approvals forgets those). Returns what it cleared (tests read it).
import * as vscode from 'vscode';
import { callHost } from '../../../engine/protocol/callHost';
import { Methods } from '../../../engine/protocol/methods';
import type { Session } from '../../../engine/session';
import type { ExtensionLog } from '../logging/extensionLog';
import { showPersonError } from '../messages/personMessages';

export interface ClearedCache {
  bytes: number;
  /** The store files deleted (or that did not exist), one per workspace folder. */
  paths: string[];
}

export async function clearCache(session: Session, log: ExtensionLog): Promise<ClearedCache> {
  const paths: string[] = [];
  try {
    let bytes = 0;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      const result = await callHost(session.host, Methods.clearStore, { workspace: folder.uri.fsPath });
      log.info(`Cleared the store of ${folder.uri.fsPath}: ${result.path} (${result.deleted ? `${result.bytes} bytes` : 'there was none'}).`);
      bytes += result.bytes;
      paths.push(result.path);
    }
    void vscode.window.showInformationMessage(bytes ? `SharpClaw cleared its cache (${(bytes / 1024 / 1024).toFixed(1)} MB); the next search rebuilds it.` : 'SharpClaw had no cache for this workspace.');
    return { bytes, paths };
  } catch (error) {
    showPersonError(log, 'Clear Cache', 'could not clear the cache', error);
    return { bytes: 0, paths };
  }
}
