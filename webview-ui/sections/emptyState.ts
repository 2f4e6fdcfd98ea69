// The top of the sidebar: what SharpClaw can do now, the verification under way ("Verifying…"),
// and the actions — Verify Affected and Load Workspace, always here, also once reports exist.
// In Restricted Mode it says so and offers Manage Workspace Trust instead (SharpClaw runs no
// project code there, and the palette hides those commands).
import type { ToWebviewMessage } from '../../src/surfaces/vscode/views/webviewMessages';
import { button, element } from '../dom';

export type WorkspaceView = Omit<Extract<ToWebviewMessage, { type: 'workspace' }>, 'type'>;

export function verifyingNotice(workspace: WorkspaceView | undefined): HTMLElement[] {
  const running = workspace?.verifying;
  if (!running) return [];
  const who = running.requestedBy.startsWith('SharpClaw: ') ? running.requestedBy.slice('SharpClaw: '.length) : `an agent (${running.requestedBy})`;
  return [
    element(
      'div',
      { className: 'notice', attrs: { role: 'status', 'data-testid': 'verifying' } },
      element('span', { text: `Verifying… (${who})` }),
      ...(running.step ? [element('div', { text: running.step, className: 'muted' })] : []),
    ),
  ];
}

export function actions(workspace: WorkspaceView | undefined): HTMLElement {
  if (workspace && !workspace.trusted) {
    return element(
      'div',
      { attrs: { 'data-testid': 'restricted' } },
      element('p', { text: 'Restricted Mode: this folder is not trusted, so SharpClaw loads, builds and tests nothing here. Host status still works.', className: 'notice' }),
      element(
        'div',
        { className: 'actions' },
        button('Manage Workspace Trust', { type: 'runCommand', command: 'workbench.trust.manage' }, 'Trust this folder to let SharpClaw load, build and test it (no reload needed)'),
      ),
    );
  }
  const busy = Boolean(workspace?.verifying);
  const verify = button('Verify Affected', { type: 'runCommand', command: 'sharpclaw.verifyAffected' }, 'Build and test the projects that own changed files, and their dependents');
  if (busy) verify.disabled = true;
  return element(
    'div',
    { className: 'actions', attrs: { 'data-testid': 'actions' } },
    verify,
    button('Load Workspace', { type: 'runCommand', command: 'sharpclaw.loadWorkspace' }, 'Load the solution into the Roslyn host (asks before running MSBuild)', 'secondary'),
  );
}

export function emptyState(workspace: WorkspaceView | undefined): HTMLElement {
  return element(
    'section',
    { attrs: { 'aria-label': 'Verification', 'data-testid': 'empty-state' } },
    element('h2', { text: 'Verification' }),
    ...verifyingNotice(workspace),
    ...(workspace?.verifying || workspace?.trusted === false
      ? []
      : [element('p', { text: 'No verification report yet. Verify the projects your changes affect, or load the workspace for exact C# answers.', className: 'muted' })]),
    actions(workspace),
  );
}
