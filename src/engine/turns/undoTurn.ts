// Undo Last Turn: reverts a turn's checkpoint with content checks. Writes are undone newest
// first; a write is undone only while the file still holds exactly what that write left. A file
// changed since (by the person, another tool, a later turn) is named and left alone from that
// point on, so nobody's later change is ever overwritten.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Checkpoint } from './turnRecorder';
import { readBoundedText, workspaceTextMaxBytes } from '../files/boundedRead';

export interface UndoFiles {
  /** Current content; null when the file does not exist. */
  read(file: string): Promise<string | null>;
  /** Writes the content; null deletes the file. */
  write(file: string, content: string | null): Promise<void>;
}

export interface UndoResult {
  /** Files now back to their content before the turn. */
  reverted: string[];
  /** Files changed since the turn wrote them: left as they are. */
  changedSince: string[];
}

export const diskFiles: UndoFiles = {
  async read(file) {
    // Bounded: a FIFO or device where a file was is a typed error, never a blocked read.
    return readBoundedText(file, { maxBytes: workspaceTextMaxBytes, what: 'workspace files' }) ?? null;
  },
  async write(file, content) {
    if (content === null) {
      await fs.promises.rm(file, { force: true });
      return;
    }
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.writeFile(file, content);
  },
};

export async function undoCheckpoint(checkpoint: Checkpoint, files: UndoFiles = diskFiles): Promise<UndoResult> {
  const current = new Map<string, string | null>();
  const stopped = new Set<string>();
  const touched = new Set<string>();
  for (const mutation of [...checkpoint.mutations].reverse()) {
    if (stopped.has(mutation.file)) continue;
    if (!current.has(mutation.file)) current.set(mutation.file, await files.read(mutation.file));
    if (current.get(mutation.file) !== mutation.after) {
      stopped.add(mutation.file);
      continue;
    }
    current.set(mutation.file, mutation.before);
    touched.add(mutation.file);
  }
  const reverted: string[] = [];
  for (const file of touched) {
    await files.write(file, current.get(file) ?? null);
    if (!stopped.has(file)) reverted.push(file);
  }
  const order = checkpoint.mutations.map((mutation) => mutation.file);
  const byOrder = (a: string, b: string) => order.indexOf(a) - order.indexOf(b);
  return { reverted: reverted.sort(byOrder), changedSince: [...stopped].sort(byOrder) };
}
