// Every permission decision, newest last, for the log channel and the sidebar.
import * as vscode from 'vscode';
import type { PermissionDecision, PermissionRequest } from '../../../engine/permissions/permissionPolicy';

export interface ApprovalLogEntry {
  at: string;
  kind: PermissionRequest['kind'];
  target?: string;
  requestedBy: string;
  granted: boolean;
  source: PermissionDecision['source'];
}

export class ApprovalLog implements vscode.Disposable {
  private readonly entries: ApprovalLogEntry[] = [];
  private readonly changed = new vscode.EventEmitter<ApprovalLogEntry>();
  readonly onDidRecord = this.changed.event;

  record(request: PermissionRequest, decision: PermissionDecision): ApprovalLogEntry {
    const entry: ApprovalLogEntry = {
      at: new Date().toISOString(),
      kind: request.kind,
      ...(request.target ? { target: request.target } : {}),
      requestedBy: request.requestedBy,
      granted: decision.granted,
      source: decision.source,
    };
    this.entries.push(entry);
    if (this.entries.length > 100) this.entries.shift();
    this.changed.fire(entry);
    return entry;
  }

  list(): readonly ApprovalLogEntry[] {
    return this.entries;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
