// The entry of dist/core.js, the one bundle of every surface's code: the VS Code composition root
// (createCore, which dist/extension.js loads on first use) and the `sharpclaw` CLI with its MCP
// server (runCli, which dist/cli.js calls). The extension and the CLI share the engine, zod, execa
// and the JSON-RPC code, so one bundle carries them once (issue 18, package size). Each surface is
// required on first use, not imported, so esbuild initialises its modules only then: the CLI never
// loads `vscode` or the language client, and the extension never loads the MCP SDK.
import type { Core, CoreServices } from './vscode/core';

export function createCore(services: CoreServices): Core {
  return (require('./vscode/core') as typeof import('./vscode/core')).createCore(services);
}

/** Runs the CLI on this process's arguments and sets its exit code. */
export function runCli(): void {
  (require('./cli/main') as typeof import('./cli/main')).runFromCommandLine();
}
