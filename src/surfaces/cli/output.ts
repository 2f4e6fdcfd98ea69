// How CLI results are printed: compact text, or the JSON envelope
// { ok, command, data?, error?, text } that scripts parse.
import { ToolError } from '../../engine/errors';
import type { OutputFormat } from './cliOptions';

export interface Envelope {
  ok: boolean;
  command: string;
  data?: unknown;
  error?: ReturnType<ToolError['toJSON']>;
  text: string;
}

export function printSuccess(format: OutputFormat, command: string, data: unknown, text: string): void {
  if (format === 'json') process.stdout.write(`${JSON.stringify({ ok: true, command, data, text } satisfies Envelope, null, 2)}\n`);
  else process.stdout.write(`${text}\n`);
}

export function printFailure(format: OutputFormat, command: string, error: ToolError, data?: unknown): void {
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify({ ok: false, command, ...(data === undefined ? {} : { data }), error: error.toJSON(), text: error.render() } satisfies Envelope, null, 2)}\n`);
  } else {
    process.stderr.write(`${error.render()}\n`);
  }
}

/** Exit codes: 0 success, 1 a failed or denied check, 2 a usage error. */
export function exitCodeFor(error: ToolError): number {
  return error.code === 'invalid_request' ? 2 : 1;
}
