// What a person was asked about, as a digest a later use of their answer must match. For a write: the
// planned change itself (the files, their occurrence counts and, where the host sent them, the planned
// texts). For an evaluation or a build: the state of the workspace's files (path, size, times, inode of
// each, by stat — nothing is read) plus the changed files the host named, which may lie outside it. An
// agent that edits a project, props or targets file (or anything else) between the question and the
// answer's use makes the answer not apply: the person is asked again.
// Skipped: .git, node_modules, bin, and obj except its restore outputs (*.props, *.targets,
// project.assets.json: MSBuild imports those). The walk is bounded; past the bound it says how far it got.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PermissionRequest } from './permissionPolicy';

/** At most this many entries are looked at per fingerprint. */
const maxEntries = 100_000;
const skippedFolders = new Set(['.git', 'node_modules', 'bin']);
const restoreOutput = (name: string) => name.endsWith('.props') || name.endsWith('.targets') || name === 'project.assets.json';

async function statLine(file: string): Promise<string> {
  try {
    const stat = await fs.promises.lstat(file, { bigint: true });
    return `${file}\0${stat.size}\0${stat.mtimeNs}\0${stat.ctimeNs}\0${stat.ino}\0${stat.mode}`;
  } catch {
    return `${file}\0missing`;
  }
}

async function walk(root: string, hash: ReturnType<typeof createHash>): Promise<void> {
  let seen = 0;
  const pending: Array<{ dir: string; insideObj: boolean }> = [{ dir: root, insideObj: false }];
  while (pending.length > 0) {
    const { dir, insideObj } = pending.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      hash.update(`${dir}\0unreadable\n`);
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (++seen > maxEntries) {
        hash.update(`truncated after ${maxEntries}\n`);
        return;
      }
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (skippedFolders.has(entry.name)) continue;
        pending.push({ dir: full, insideObj: insideObj || entry.name === 'obj' });
        hash.update(`${full}\0dir\n`);
      } else if (!insideObj || restoreOutput(entry.name)) {
        hash.update(`${await statLine(full)}\n`);
      }
    }
  }
}

/** The digest of what `request` asks to run or change, now. */
export async function fingerprintOf(request: PermissionRequest): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`${request.kind}\n${request.action}\n`);
  if (request.kind === 'write') {
    for (const file of request.files ?? []) hash.update(`${file}\n`);
    hash.update(request.contentDigest ?? '');
    return hash.digest('hex');
  }
  await walk(path.resolve(request.workspaceFolder), hash);
  for (const file of request.files ?? []) hash.update(`${await statLine(path.resolve(request.workspaceFolder, file))}\n`);
  return hash.digest('hex');
}
