// The one bound on how much input SharpClaw reads in one piece, whatever the door: an MCP message
// (bounded on stdio before it is parsed, mcpStdioTransport.ts), a CLI `--input`, a tool call's input
// (toolInput.ts, for every surface). The largest real tool call is far below it (an `lsp` request's
// parameters are at most 100,000 characters); anything above is refused with a typed error naming
// the size and the limit, and the server keeps serving.
import { ToolError } from '../errors';

/** 4 MiB. */
export const maxMessageBytes = 4 * 1024 * 1024;

/** "4 MiB", "20.0 MiB", "812 bytes": sizes as a person reads them. */
export function describeBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  const mib = bytes / (1024 * 1024);
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}

/** The refusal of an input of `bytes` bytes (at least that many, when it was not read to the end). */
export function tooLargeError(what: string, bytes: number): ToolError {
  return new ToolError('invalid_request', `${what} is ${describeBytes(bytes)}; SharpClaw reads at most ${describeBytes(maxMessageBytes)} in one message. Nothing of it was used.`);
}

/** Throws tooLargeError when `text` (UTF-8) is above the bound. */
export function checkMessageSize(what: string, text: string): void {
  // A UTF-8 byte count is at most 3 per UTF-16 unit: skip the count for short texts.
  if (text.length * 3 <= maxMessageBytes) return;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxMessageBytes) throw tooLargeError(what, bytes);
}
