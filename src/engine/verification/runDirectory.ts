// Verification's files inside the workspace's private state folder (src/engine/stateFolder.ts):
// the folder of one verification (its state folder) and one fresh folder per run for TRX files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { privateSubfolder, stateRoot, stateRootPath, workspaceStateFolder } from '../stateFolder';

/** The workspace's state folder; `root` overrides the per-user root (tests). */
export function verificationStateFolder(workspaceFolder: string, root?: string): string {
  return workspaceStateFolder(workspaceFolder, stateRoot(root ?? stateRootPath()));
}

/** A fresh, unique folder for one run's TRX files; older runs beyond `keep` are removed. */
export function createRunDirectory(stateDir: string, keep = 5): string {
  const runs = privateSubfolder(stateDir, 'runs');
  const existing = fs.readdirSync(runs).sort();
  for (const old of existing.slice(0, Math.max(0, existing.length - keep + 1))) fs.rmSync(path.join(runs, old), { recursive: true, force: true });
  const stamp = new Date().toISOString().replace(/[-:.]/g, '').replace('T', '-').replace('Z', '');
  return fs.mkdtempSync(path.join(runs, `${stamp}-${process.pid}-`));
}
