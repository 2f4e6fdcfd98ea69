// What the verifier's kept answers (sdkCheckCache.ts, mtpOptionsCache.ts) share: the stamp of a file an
// answer depends on, and the write of an answer into the workspace's private state folder.
import * as fs from 'node:fs';
import { writePrivateFile } from '../stateFolder';

/** Size, modification time and inode of `file`, or null when it cannot be read: a rewrite changes it. */
export function fileStamp(file: string): string | null {
  try {
    const stat = fs.statSync(file);
    return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  } catch {
    return null;
  }
}

/** Writes `value` as JSON, readable by this user only, whole or not at all; a failure only costs the next run the question. */
export function writeKeptAnswer(file: string, value: unknown): void {
  try {
    writePrivateFile(file, JSON.stringify(value));
  } catch {
    // Not kept: the next run asks again.
  }
}
