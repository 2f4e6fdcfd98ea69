// Who asked for a permission, in a person's words. SharpClaw's own commands name themselves
// "SharpClaw: <command>" (the person ran them); anything else is a language-model tool an agent
// called. One rule, used by the approval modal and the sidebar.
export function isPersonCommand(requestedBy: string): boolean {
  return requestedBy.startsWith('SharpClaw: ');
}

/** "you, via SharpClaw: Load Workspace" or "an agent, via the tool dotnet_solution_inspect". */
export function describeRequester(requestedBy: string): string {
  return isPersonCommand(requestedBy) ? `you, via ${requestedBy}` : `an agent, via the tool ${requestedBy}`;
}

/** What each permission kind allows, as the modal and the sidebar say it. */
export const permissionKindText = {
  evaluation: 'load projects with MSBuild',
  shell: 'build and test',
  write: 'change files',
} as const;
