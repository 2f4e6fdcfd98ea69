#!/usr/bin/env node
// `sharpclaw`: the command-line surface for scripts and CI. Same tools, same permission rules
// as the extension; permissions come only from flags typed by the person running it.
import { parseArgs } from 'node:util';
import { ToolError } from '../../engine/errors';
import { globalOptionSpecs, globalOptionsHelp, parseGlobalOptions } from './cliOptions';
import type { CliCommand } from './commands';
import { exitCodeFor, printFailure } from './output';
import { cliVersion } from './version';

// Each command's module is required when that command runs, not imported: esbuild then initialises only its
// modules, so `sharpclaw tool` and `verify` do not load the MCP SDK (about 50 ms of every call).
const commandLoaders: Record<string, () => CliCommand> = {
  tool: () => (require('./commands/toolCommand') as typeof import('./commands/toolCommand')).toolCommand,
  tools: () => (require('./commands/toolsCommand') as typeof import('./commands/toolsCommand')).toolsCommand,
  verify: () => (require('./commands/verifyCommand') as typeof import('./commands/verifyCommand')).verifyCommand,
  mcp: () => (require('./commands/mcpCommand') as typeof import('./commands/mcpCommand')).mcpCommand,
  host: () => (require('./commands/hostCommand') as typeof import('./commands/hostCommand')).hostCommand,
};
const commandNames = Object.keys(commandLoaders);

function usage(): string {
  return [
    'Usage: sharpclaw COMMAND [arguments] [options]',
    '       sharpclaw --version',
    '',
    'Commands:',
    ...commandNames.map((name) => commandLoaders[name]!()).map((command) => `  ${command.usage}\n      ${command.summary}`),
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
  const command = Object.hasOwn(commandLoaders, name) ? commandLoaders[name]!() : undefined;
  if (!command) {
    process.stderr.write(`error invalid_request: unknown command "${name}". Commands: ${commandNames.join(', ')}.\n`);
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
