// What the sidebar offers before any verification report exists.
import { button, element, section } from '../dom';

export function emptyState(): HTMLElement {
  return section(
    'Verification',
    'empty-state',
    element('p', { text: 'No verification report yet. Verify the projects your changes affect, or load the workspace for exact C# answers.', className: 'muted' }),
    element(
      'div',
      { className: 'actions' },
      button('Verify Affected', { type: 'runCommand', command: 'sharpclaw.verifyAffected' }, 'Build and test the projects that own changed files, and their dependents'),
      button('Load Workspace', { type: 'runCommand', command: 'sharpclaw.loadWorkspace' }, 'Load the solution into the Roslyn host (asks before running MSBuild)'),
    ),
  );
}
