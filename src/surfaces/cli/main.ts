#!/usr/bin/env node
// `sharpclaw`: the command-line surface for scripts and CI. Same tools, same permission rules
// as the extension; permissions come only from flags typed by the person running it.
import { parseArgs } from 'node:util';
import { ToolError } from '../../engine/errors';
import { globalOptionSpecs, globalOptionsHelp, parseGlobalOptions } from './cliOptions';
import type { CliCommand } from './commands';
import { hostCommand } from './commands/hostCommand';
import { mcpCommand } from './commands/mcpCommand';
import { toolCommand } from './commands/toolCommand';
import { toolsCommand } from './commands/toolsCommand';
import { verifyCommand } from './commands/verifyCommand';
import { exitCodeFor, printFailure } from './output';
import { cliVersion } from './version';

export const cliCommands: CliCommand[] = [toolCommand, toolsCommand, verifyCommand, mcpCommand, hostCommand];

function usage(): string {
  return [
    'Usage: sharpclaw COMMAND [arguments] [options]',
    '       sharpclaw --version',
    '',
    'Commands:',
    ...cliCommands.map((command) => `  ${command.usage}\n      ${command.summary}`),
    '',
    globalOptionsHelp,
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`sharpclaw ${cliVersion()}\n`);
    return 0;
  }
  const command = cliCommands.find((candidate) => candidate.name === name);
  if (!command) {
    process.stderr.write(`error invalid_request: unknown command "${name}". Commands: ${cliCommands.map((c) => c.name).join(', ')}.\n`);
    return 2;
  }
  // Errors before option parsing still honour a requested JSON envelope.
  let format: 'text' | 'json' = rest.some((arg, i) => arg === '--output-format=json' || (arg === 'json' && rest[i - 1] === '--output-format')) ? 'json' : 'text';
  try {
    const { values, positionals } = parseArgs({ args: rest, options: { ...globalOptionSpecs, ...command.options }, allowPositionals: true, strict: true });
    if (values.help) {
      process.stdout.write(`Usage: ${command.usage}\n${command.summary}\n\n${globalOptionsHelp}\n`);
      return 0;
    }
    const globals = parseGlobalOptions(values);
    format = globals.outputFormat;
    return await command.run(values, positionals, globals);
  } catch (error) {
    const typed = error instanceof ToolError ? error : new ToolError('invalid_request', error instanceof Error ? error.message : String(error));
    printFailure(format, name, typed);
    return exitCodeFor(typed);
  }
}

/** Runs the CLI on this process's arguments (dist/cli.js) and sets the exit code. */
export function runFromCommandLine(): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`sharpclaw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

if (require.main === module) runFromCommandLine();
