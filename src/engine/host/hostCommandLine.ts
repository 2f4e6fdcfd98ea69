// The Roslyn host's command line, built in one place for every client (CLI, MCP server, VS Code):
// the server DLL, the client's pid (the host exits with it), the private state folder (so client and
// host agree on where locks and generated files live) and, when given, the log folder.
import { stateRoot } from '../stateFolder';

export interface HostCommandLineOptions {
  serverDll: string;
  logDirectory?: string;
  /** The state root (default: the rule of src/engine/stateFolder.ts, created and checked here). */
  stateDirectory?: string;
}

export function hostArguments(options: HostCommandLineOptions): string[] {
  const args = [options.serverDll, '--clientProcessId', String(process.pid), '--state-directory', options.stateDirectory ?? stateRoot()];
  if (options.logDirectory) args.push('--log-directory', options.logDirectory);
  return args;
}
