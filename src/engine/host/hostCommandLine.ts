// The Roslyn host's command line, built in one place for every client (CLI, MCP server, VS Code):
// the server DLL, the client's pid (the host exits with it), the private state folder (so client and
// host agree on where locks and generated files live) and, when given, the log folder and the store's
// folder (VS Code keeps its store in the extension's storage; the CLI and MCP in the state folder).
import { stateRoot } from '../stateFolder';

export interface HostCommandLineOptions {
  serverDll: string;
  logDirectory?: string;
  /** The state root (default: the rule of src/engine/stateFolder.ts, created and checked here). */
  stateDirectory?: string;
  /** Where the store (syntax index, approved snapshots) lives instead of the state root: VS Code's extension storage. */
  storeDirectory?: string;
}

export function hostArguments(options: HostCommandLineOptions): string[] {
  const args = [options.serverDll, '--clientProcessId', String(process.pid), '--state-directory', options.stateDirectory ?? stateRoot()];
  if (options.logDirectory) args.push('--log-directory', options.logDirectory);
  if (options.storeDirectory) args.push('--store-directory', options.storeDirectory);
  return args;
}
