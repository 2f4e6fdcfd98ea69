// Options every `sharpclaw` command shares, parsed once.
import * as path from 'node:path';
import * as readline from 'node:readline';
import { CliPermissionPolicy, permissionModes, type PermissionMode } from './cliPermissionPolicy';
import { ToolError } from '../../engine/errors';

export type OutputFormat = 'text' | 'json';

export interface GlobalOptions {
  cwd: string;
  outputFormat: OutputFormat;
  permissions: CliPermissionPolicy;
}

export const globalOptionSpecs = {
  cwd: { type: 'string' },
  'output-format': { type: 'string' },
  'permission-mode': { type: 'string' },
  'allow-evaluation': { type: 'boolean' },
  'allow-shell': { type: 'boolean' },
  'allow-write': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const globalOptionsHelp = `Options for every command:
  --cwd DIR                         workspace folder (default: the current directory)
  --output-format text|json         compact text (default) or the JSON envelope
  --permission-mode read-only|workspace-write
                                    read-only denies anything that executes project code or writes
                                    (default: workspace-write, which still asks or needs --allow-*)
  --allow-evaluation                allow MSBuild evaluation (loading the solution) without asking
  --allow-shell                     allow builds and tests without asking
  --allow-write                     allow file writes without asking`;

function promptOnTerminal(question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
    rl.question(question, (answer) => {
      rl.close();
      resolve(/^y(es)?$/i.test(answer.trim()));
    });
  });
}

export function parseGlobalOptions(values: Record<string, unknown>): GlobalOptions {
  const format = (values['output-format'] as string | undefined) ?? 'text';
  if (format !== 'text' && format !== 'json') {
    throw new ToolError('invalid_request', `--output-format must be text or json, not "${format}".`);
  }
  const mode = ((values['permission-mode'] as string | undefined) ?? 'workspace-write') as PermissionMode;
  if (!permissionModes.includes(mode)) {
    throw new ToolError('invalid_request', `--permission-mode must be ${permissionModes.join(' or ')}, not "${mode}".`);
  }
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY);
  return {
    cwd: path.resolve((values.cwd as string | undefined) ?? process.cwd()),
    outputFormat: format,
    permissions: new CliPermissionPolicy({
      mode,
      allowEvaluation: values['allow-evaluation'] === true,
      allowShell: values['allow-shell'] === true,
      allowWrite: values['allow-write'] === true,
      ...(interactive ? { prompt: promptOnTerminal } : {}),
    }),
  };
}
