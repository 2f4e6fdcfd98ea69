// "Always for this workspace" decisions, kept in the extension's own storage (globalState),
// keyed by workspace folder and permission kind — never in workspace settings or files, so
// nothing in a repository can pre-approve itself.
import type * as vscode from 'vscode';
import type { PermissionKind } from '../../../engine/permissions/permissionPolicy';

const storageKey = 'sharpclaw.approvals.v1';

export interface RememberedApproval {
  folder: string;
  kind: PermissionKind;
  grantedAt: string;
}

export class ApprovalStore {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly memento: vscode.Memento) {}

  /** Called after an approval is remembered or the approvals are reset. */
  onDidChange(listener: () => void): vscode.Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The kinds remembered for one workspace folder. */
  kindsFor(folder: string): PermissionKind[] {
    return this.list().filter((entry) => entry.folder === folder).map((entry) => entry.kind);
  }

  list(): RememberedApproval[] {
    return this.memento.get<RememberedApproval[]>(storageKey, []);
  }

  isRemembered(folder: string, kind: PermissionKind): boolean {
    return this.list().some((entry) => entry.folder === folder && entry.kind === kind);
  }

  async remember(folder: string, kind: PermissionKind): Promise<void> {
    if (this.isRemembered(folder, kind)) return;
    await this.memento.update(storageKey, [...this.list(), { folder, kind, grantedAt: new Date().toISOString() }]);
    this.changed();
  }

  async reset(): Promise<number> {
    const count = this.list().length;
    await this.memento.update(storageKey, []);
    this.changed();
    return count;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
