// The `sharpclaw` subcommands. Each lives in its own file under cli/commands/.
import type { GlobalOptions } from './cliOptions';

export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  /** Extra options beyond the global ones, in node:util parseArgs form. */
  options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;
  run(values: Record<string, unknown>, positionals: string[], globals: GlobalOptions): Promise<number>;
}
