// The MCP server's stdio transport: newline-delimited JSON-RPC on stdin/stdout, like the SDK's
// StdioServerTransport, with every message bounded before it is parsed (engine/input/inputLimits.ts).
// The SDK's reader buffers a line whole and, past its 10 MB buffer, closes the connection: the server
// then answered nothing more (a loaded one kept running, mute) or exited with code 0. Here a line over
// the bound is discarded as it streams in — only its first and last bytes are kept, to find its id —
// and answered with a JSON-RPC error naming its size and the limit; the next message is served as usual.
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { describeBytes, maxMessageBytes } from '../../engine/input/inputLimits';

/** JSON-RPC's Invalid Request. */
const invalidRequest = -32600;
const kept = 512;

/** The id of a JSON-RPC request from the ends of its text: first (`{"jsonrpc":"2.0","id":…`) or last (`…,"id":7}`), as clients write it. */
export function idOfTruncated(head: string, tail: string): string | number | undefined {
  const value = (raw: string): string | number => (raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw));
  const idValue = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
  const first = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${idValue}`).exec(head);
  if (first) return value(first[1]!);
  const last = new RegExp(String.raw`"id"\s*:\s*${idValue}\s*\}\s*$`).exec(tail);
  return last ? value(last[1]!) : undefined;
}

interface Oversized {
  head: Buffer;
  tail: Buffer;
  bytes: number;
}

export class BoundedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private pieces: Buffer[] = [];
  private size = 0;
  private oversized: Oversized | undefined;
  private closed = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly limit: number = maxMessageBytes,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
    this.stdout.on('error', this.onStreamError);
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);
  private readonly onEnd = () => void this.close();

  private readonly onData = (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (start < data.length) {
      const newline = data.indexOf(10, start);
      this.take(data.subarray(start, newline < 0 ? data.length : newline));
      if (newline < 0) return;
      this.endOfLine();
      start = newline + 1;
    }
  };

  /** Part of the current line: kept while within the bound, else only its ends and its size. */
  private take(piece: Buffer): void {
    if (this.oversized) {
      const both = Buffer.concat([this.oversized.tail, piece]);
      this.oversized.tail = both.subarray(Math.max(0, both.length - kept));
      this.oversized.bytes += piece.length;
      return;
    }
    if (this.size + piece.length <= this.limit) {
      this.pieces.push(piece);
      this.size += piece.length;
      return;
    }
    const sofar = Buffer.concat([...this.pieces, piece]);
    this.oversized = { head: sofar.subarray(0, kept), tail: sofar.subarray(Math.max(0, sofar.length - kept)), bytes: sofar.length };
    this.pieces = [];
    this.size = 0;
  }

  private endOfLine(): void {
    const oversized = this.oversized;
    this.oversized = undefined;
    if (oversized) {
      this.refuse(oversized);
      return;
    }
    const line = Buffer.concat(this.pieces).toString('utf8').replace(/\r$/, '');
    this.pieces = [];
    this.size = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      // As the SDK's reader: a line that is not a JSON-RPC message is skipped (and logged).
      this.onerror?.(new Error(`skipped a line that is not a JSON-RPC message (${describeBytes(Buffer.byteLength(line))}): ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`));
      return;
    }
    this.onmessage?.(message);
  }

  private refuse(oversized: Oversized): void {
    const id = idOfTruncated(oversized.head.toString('utf8'), oversized.tail.toString('utf8'));
    const text = `error invalid_request: the message is ${describeBytes(oversized.bytes)}; this server reads at most ${describeBytes(this.limit)} in one message. Nothing of it was used.`;
    this.onerror?.(new Error(`refused a message of ${describeBytes(oversized.bytes)} (${id === undefined ? 'no id found' : `id ${JSON.stringify(id)}`})`));
    if (id !== undefined) void this.send({ jsonrpc: '2.0', id, error: { code: invalidRequest, message: text, data: { code: 'invalid_request', bytes: oversized.bytes, limit: this.limit } } }).catch((error: Error) => this.onerror?.(error));
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The stdio transport is closed.'));
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => {
        this.stdout.off('drain', onDrain);
        reject(error);
      };
      const onDrain = () => {
        this.stdout.off('error', onError);
        resolve();
      };
      this.stdout.once('error', onError);
      if (this.stdout.write(serializeMessage(message))) {
        this.stdout.off('error', onError);
        resolve();
      } else {
        this.stdout.once('drain', onDrain);
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdout.off('error', this.onStreamError);
    this.pieces = [];
    this.oversized = undefined;
    this.onclose?.();
  }
}
