// The extension's permission policy. Restricted Mode always denies; otherwise a remembered
// "Always for this workspace" answers, else a modal dialog asks the person. Chat's own tool
// confirmation (even when auto-approved) never replaces this: it is checked for every request.
import * as vscode from 'vscode';
import type { ApprovalLog } from './approvalLog';
import type { ApprovalStore } from './approvalStore';
import type { PermissionDecision, PermissionPolicy, PermissionRequest } from '../../../engine/permissions/permissionPolicy';
import { permissionFilesLine } from '../../../engine/permissions/permissionPolicy';
import type { ExtensionLog } from '../logging/extensionLog';
import { describeRequester } from './requester';

const allowOnce = 'Allow once';
const allowAlways = 'Always for this workspace';
const deny = 'Deny';

/** A permission dialog handed to the integration tests instead of VS Code (see routeDialogsToTests). */
export interface PendingPermissionDialog {
  message: string;
  detail: string;
  buttons: string[];
  answer(button: string | undefined): void;
}

export class VsCodePermissionPolicy implements PermissionPolicy {
  private testDialogs: ((dialog: PendingPermissionDialog) => void) | undefined;

  /**
   * Extension tests only (ExtensionMode.Test, set by extensionTestsPath): VS Code refuses every
   * modal dialog while extension tests run ("DialogService: refused to show dialog in tests"), so
   * the same dialog — title, detail, buttons — goes to the test, which answers it like a person.
   * Nothing in a workspace or a tool argument can reach this.
   */
  routeDialogsToTests(handler: (dialog: PendingPermissionDialog) => void): void {
    this.testDialogs = handler;
  }

  constructor(
    private readonly store: ApprovalStore,
    private readonly log: ApprovalLog,
    private readonly output: ExtensionLog,
  ) {}

  async request(request: PermissionRequest, signal?: AbortSignal): Promise<PermissionDecision> {
    const decision = await this.decide(request, signal);
    this.log.record(request, decision);
    this.output.info(
      `Permission ${decision.granted ? 'granted' : 'denied'} (${decision.source}): ${request.kind} for ${request.target ?? request.workspaceFolder}, asked by ${request.requestedBy}.`,
    );
    return decision;
  }

  private async decide(request: PermissionRequest, signal?: AbortSignal): Promise<PermissionDecision> {
    if (!vscode.workspace.isTrusted) {
      return {
        granted: false,
        source: 'restricted-mode',
        message:
          'This folder is open in Restricted Mode, where SharpClaw never runs project code. To allow it, trust the folder: run "Workspaces: Manage Workspace Trust" and choose Trust; no reload is needed.',
      };
    }
    if (this.store.isRemembered(request.workspaceFolder, request.kind)) return { granted: true, source: 'remembered' };
    if (signal?.aborted) return { granted: false, source: 'dialog', message: 'The request was cancelled before it was approved.' };
    const detail = [
      `Target: ${request.target ?? request.workspaceFolder}`,
      `What runs: ${request.action}`,
      `Why: ${request.reason}`,
      `Asked by: ${describeRequester(request.requestedBy)}`,
      ...[permissionFilesLine(request)].filter((line) => line !== undefined),
      '',
      'Project and build files can run arbitrary code. Allow only for code you trust.',
    ].join('\n');
    const testDialogs = this.testDialogs;
    const choice = testDialogs
      ? await new Promise<string | undefined>((answer) => testDialogs({ message: titleFor(request), detail, buttons: [allowOnce, allowAlways, deny], answer }))
      : (await vscode.window.showWarningMessage<vscode.MessageItem>(
          titleFor(request),
          { modal: true, detail },
          { title: allowOnce },
          { title: allowAlways },
          // The close affordance: Escape (and closing the dialog) answer Deny, and VS Code adds no Cancel button.
          { title: deny, isCloseAffordance: true },
        ))?.title;
    if (choice === allowAlways) {
      await this.store.remember(request.workspaceFolder, request.kind);
      return { granted: true, source: 'dialog' };
    }
    if (choice === allowOnce) return { granted: true, source: 'dialog' };
    return { granted: false, source: 'dialog', message: `You denied SharpClaw permission to ${request.action}.` };
  }
}

function titleFor(request: PermissionRequest): string {
  switch (request.kind) {
    case 'evaluation':
      return `Allow SharpClaw to load ${request.target ?? 'this workspace'} with MSBuild?`;
    case 'shell':
      return `Allow SharpClaw to build and test ${request.target ?? 'this workspace'}?`;
    case 'write':
      return 'Allow SharpClaw to change files in this workspace?';
  }
}
