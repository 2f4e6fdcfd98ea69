// The one way the TypeScript side reads a file it does not own: a settings file, an agent's MCP
// configuration, global.json, a source file of the workspace. A FIFO, device or socket is refused
// without a blocking open (its type is looked up first, and the open is O_NONBLOCK, so a file
// swapped for a FIFO in between cannot block either); what is read stops at a bound, so a link to
// /dev/zero or a huge file cannot grow the process; every refusal is a typed FileReadError naming
// the file, what it is and what is read.
import * as fs from 'node:fs';
import { ToolError } from '../errors';

export const mebibyte = 1024 * 1024;

/** Settings and agents' configuration files: far more than any real one holds. */
export const configFileMaxBytes = mebibyte;
/** Text files of the workspace: the host's bound on a source file it edits (SolutionDiff.MaxFileBytes). */
export const workspaceTextMaxBytes = 8 * mebibyte;

export type FileReadProblem = 'special_file' | 'too_large' | 'link' | 'unreadable';

/** A file that was not read, and why; an invalid_request for whoever asked for it. */
export class FileReadError extends ToolError {
  constructor(
    readonly file: string,
    readonly problem: FileReadProblem,
    message: string,
  ) {
    super('invalid_request', message);
    this.name = 'FileReadError';
  }
}

export interface BoundedReadOptions {
  /** The most bytes read; a larger file is refused. */
  maxBytes: number;
  /** What the file is to the reader, in its refusals: "settings", "MCP configuration". */
  what: string;
  /** refuse: the file itself must not be a link (a writer's rule). Default follow: a link to a regular file is read. */
  links?: 'follow' | 'refuse';
}

/** "a FIFO", "a character device", … for a stat that is not a regular file. */
export function describeFileType(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  if (stat.isSymbolicLink()) return 'a link';
  return 'a special file';
}

function sizeText(bytes: number): string {
  return bytes % mebibyte === 0 ? `${bytes / mebibyte} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

/** The file's bytes; undefined when it does not exist. Throws FileReadError for anything but a regular file within the bound. */
export function readBoundedBytes(file: string, options: BoundedReadOptions): Buffer | undefined {
  const refuseLinks = options.links === 'refuse';
  const notRegular = (kind: string) =>
    new FileReadError(file, 'special_file', `${file} is ${kind}, not a regular file; SharpClaw reads ${options.what} only from a regular file of at most ${sizeText(options.maxBytes)}.`);
  let before: fs.Stats;
  try {
    before = refuseLinks ? fs.lstatSync(file) : fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new FileReadError(file, 'link', `${file} is a loop of links; SharpClaw reads ${options.what} only from a regular file.`);
    throw new FileReadError(file, 'unreadable', `cannot read ${file}: ${(error as Error).message}`);
  }
  if (refuseLinks && before.isSymbolicLink()) throw new FileReadError(file, 'link', `${file} is a link; SharpClaw reads ${options.what} only from a regular file, not through a link.`);
  if (!before.isFile()) throw notRegular(describeFileType(before));
  if (before.size > options.maxBytes) throw tooLarge(file, before.size, options);

  const flags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (refuseLinks ? (fs.constants.O_NOFOLLOW ?? 0) : 0);
  let fd: number;
  try {
    fd = fs.openSync(file, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new FileReadError(file, 'link', `${file} is a link; SharpClaw reads ${options.what} only from a regular file, not through a link.`);
    throw new FileReadError(file, 'unreadable', `cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    // What was opened is what was looked at: a file swapped in between is refused like any other.
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) throw notRegular(describeFileType(opened));
    if (opened.size > options.maxBytes) throw tooLarge(file, opened.size, options);
    // One byte past the bound tells a file that grew (or lies about its size, like /proc) from one that fits.
    const buffer = Buffer.alloc(Math.min(options.maxBytes + 1, Math.max(opened.size + 1, 64 * 1024)));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > options.maxBytes) throw tooLarge(file, undefined, options);
        return readPastSize(fd, buffer, file, options);
      }
      const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) return buffer.subarray(0, length);
      length += read;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** A file longer than its size said (it grew while read): go on reading up to the bound. */
function readPastSize(fd: number, start: Buffer, file: string, options: BoundedReadOptions): Buffer {
  const buffer = Buffer.alloc(options.maxBytes + 1);
  start.copy(buffer);
  let length = start.length;
  while (length < buffer.length) {
    const read = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) return buffer.subarray(0, length);
    length += read;
  }
  throw tooLarge(file, undefined, options);
}

/** `size` as its stat says, or undefined for a file found larger only by reading it. */
function tooLarge(file: string, size: number | undefined, options: BoundedReadOptions): FileReadError {
  const bytes = size === undefined ? `more than ${options.maxBytes} bytes` : `${size} bytes`;
  return new FileReadError(file, 'too_large', `${file} is larger than ${sizeText(options.maxBytes)} (${bytes}); SharpClaw reads ${options.what} files up to ${sizeText(options.maxBytes)}.`);
}

/** A workspace file's text for a content check; null when it is missing or cannot be read (a FIFO, a device, over 8 MiB). */
export function readWorkspaceText(file: string): string | null {
  try {
    return readBoundedText(file, { maxBytes: workspaceTextMaxBytes, what: 'workspace files' }) ?? null;
  } catch {
    return null;
  }
}

/** The file's text (UTF-8, as readFileSync(file, 'utf8') gives it); undefined when it does not exist. */
export function readBoundedText(file: string, options: BoundedReadOptions): string | undefined {
  return readBoundedBytes(file, options)?.toString('utf8');
}
