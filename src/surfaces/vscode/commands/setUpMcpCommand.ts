// SharpClaw: Set Up MCP for Another Agent… — registers SharpClaw's MCP server in another agent's
// client (Claude Code, Codex, Cursor, Copilot CLI, or a workspace's .vscode/mcp.json) with the
// permissions the person ticks, the way `sharpclaw mcp setup` does (engine/config/mcpSetup.ts):
// merged into that client's one file, other servers and comments kept, after a modal that names
// the file and the permissions. The file is read, merged, checked and written by the engine's one
// path (engine/config/mcpSetupWrite.ts: no link, no FIFO, a verified merge, an atomic write).
// The server it names survives SharpClaw updates (mcpLauncher.ts): `sharpclaw` when the npm
// package is on PATH, else the launcher in the extension's global storage; the modal says which
// and what that means for a file a team commits. Nothing is registered into VS Code's own chat:
// Copilot has our LM tools already.
import * as vscode from 'vscode';
import { setupPlan, type SetupChoices, type SetupClient } from '../../../engine/config/mcpSetup';
import { prepareSetup, writeSetup } from '../../../engine/config/mcpSetupWrite';
import { launcherCommandPath, sharpclawOnPath, writeMcpLauncher, type LauncherPlaces } from './mcpLauncher';
import type { ExtensionLog } from '../logging/extensionLog';
import { showPersonError } from '../messages/personMessages';

const clients: ReadonlyArray<{ client: SetupClient; label: string; detail: string }> = [
  { client: 'claude-code', label: 'Claude Code', detail: 'this folder\'s .mcp.json' },
  { client: 'codex', label: 'Codex', detail: 'your ~/.codex/config.toml (for this folder)' },
  { client: 'cursor', label: 'Cursor', detail: 'this folder\'s .cursor/mcp.json' },
  { client: 'copilot-cli', label: 'Copilot CLI', detail: 'your ~/.copilot/mcp-config.json (for this folder)' },
  { client: 'vscode', label: 'VS Code MCP configuration', detail: 'this folder\'s .vscode/mcp.json, for other agents in VS Code (Copilot already has SharpClaw\'s tools)' },
];

const grants = [
  { key: 'allowEvaluation', flag: '--allow-evaluation', label: 'Load the solution (MSBuild evaluation)', why: 'every tool that reads code needs it; it runs the projects\' build logic' },
  { key: 'allowWrite', flag: '--allow-write', label: 'Apply edits', why: 'edit and rename with apply: true change files' },
  { key: 'allowShell', flag: '--allow-shell', label: 'Build and test', why: 'verify_workspace runs dotnet build and dotnet test' },
] as const;

export interface SetUpMcpDependencies {
  workspaceFolder(): string | undefined;
  /** Where the launcher goes and what it runs (this installation, VS Code's runtime). */
  launcher: LauncherPlaces;
  log: ExtensionLog;
}

export async function setUpMcpForAnotherAgent(dependencies: SetUpMcpDependencies): Promise<string | undefined> {
  const { log } = dependencies;
  const folder = dependencies.workspaceFolder();
  if (!folder) {
    void vscode.window.showErrorMessage('SharpClaw: open the folder of a .NET solution first; the agent\'s configuration is written for it.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(clients.map((c) => ({ ...c, description: c.detail, detail: undefined })), {
    title: 'SharpClaw: Set Up MCP for Another Agent',
    placeHolder: 'Which agent should get SharpClaw\'s MCP server?',
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  const allowed = await vscode.window.showQuickPick(grants.map((g) => ({ ...g, description: `${g.flag}: ${g.why}` })), {
    title: `SharpClaw for ${picked.label}: what may it do without asking?`,
    placeHolder: 'Tick what the agent may do without asking you (nothing ticked: its client asks you, or the call is refused naming the flag)',
    canPickMany: true,
    ignoreFocusOut: true,
  });
  if (!allowed) return undefined;

  const choices: SetupChoices = {
    allowEvaluation: allowed.some((g) => g.key === 'allowEvaluation'),
    allowWrite: allowed.some((g) => g.key === 'allowWrite'),
    allowShell: allowed.some((g) => g.key === 'allowShell'),
    tools: 'default',
    workspace: folder,
  };
  const onPath = sharpclawOnPath();
  const launcher = onPath ? undefined : launcherCommandPath(dependencies.launcher.storageFolder);
  choices.launcher = { command: launcher ?? 'sharpclaw', args: [] };
  try {
    const plan = setupPlan(picked.client, choices, { project: folder });
    const merged = prepareSetup(plan);
    if (merged.unchanged) {
      void vscode.window.showInformationMessage(`SharpClaw's MCP server for ${picked.label} in ${plan.file} already has these settings; nothing was written.`);
      return plan.file;
    }
    const flags = allowed.length ? allowed.map((g) => g.flag).join(', ') : 'no permissions (the agent\'s client asks, or calls are refused)';
    const command = launcher
      ? `The command is SharpClaw's launcher in VS Code's storage (${launcher}): it keeps working after SharpClaw updates and needs no Node.js, but it exists only on this machine${plan.scope === 'project' ? '; a teammate using this file needs the npm package (npm install -g sharpclaw) and "sharpclaw" as the command' : ''}.`
      : `The command is "sharpclaw" from your PATH (${onPath}), the same on every machine with the npm package (npm install -g sharpclaw).`;
    const answer = await vscode.window.showInformationMessage(
      `${merged.replaced ? 'Replace' : 'Add'} SharpClaw's MCP server in ${plan.file}?`,
      { modal: true, detail: `${picked.label} will start it with ${flags}. ${command} Other servers and comments in the file stay.\n\n${plan.snippet}` },
      'Write',
    );
    if (answer !== 'Write') return undefined;
    if (launcher) writeMcpLauncher(dependencies.launcher);
    writeSetup(merged);
    log.info(`Set Up MCP: wrote SharpClaw's entry for ${picked.label} to ${plan.file}.`);
    void vscode.window.showInformationMessage(`SharpClaw's MCP server is set up for ${picked.label} in ${plan.file}.`, 'Open File').then((choice) => {
      if (choice) void vscode.window.showTextDocument(vscode.Uri.file(plan.file));
    });
    return plan.file;
  } catch (error) {
    showPersonError(log, 'Set Up MCP', 'did not set up MCP', error);
    return undefined;
  }
}
