// Where verification keeps its own files for a workspace: the lock, run directories (TRX) and
// the evaluation cache. It lives in the OS temp folder, per user and per workspace — never in
// the user's sources, so nothing shows up in `git status`, read-only checkouts work, and the
// extension host, the CLI and the MCP server of the same user find the same lock.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

function userTag(): string {
  try {
    return String(os.userInfo().uid >= 0 ? os.userInfo().uid : os.userInfo().username);
  } catch {
    return 'user';
  }
}

export function canonicalWorkspace(workspaceFolder: string): string {
  try {
    return fs.realpathSync.native(path.resolve(workspaceFolder));
  } catch {
    return path.resolve(workspaceFolder);
  }
}

/** `<tmp>/sharpclaw-<uid>/<hash of the workspace path>/`, created private to the user. */
export function stateDirectory(workspaceFolder: string, root = process.env.SHARPCLAW_STATE_DIR): string {
  const base = root ?? path.join(os.tmpdir(), `sharpclaw-${userTag()}`);
  fs.mkdirSync(base, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32' && root === undefined) {
    const stat = fs.lstatSync(base);
    if (!stat.isDirectory() || stat.isSymbolicLink() || stat.uid !== process.getuid?.()) {
      throw new Error(`${base} is not a private folder of this user; SharpClaw will not keep its verification lock there.`);
    }
  }
  const workspace = canonicalWorkspace(workspaceFolder);
  const dir = path.join(base, createHash('sha256').update(workspace).digest('hex').slice(0, 16));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const marker = path.join(dir, 'workspace.txt');
  if (!fs.existsSync(marker)) fs.writeFileSync(marker, `${workspace}\n`);
  return dir;
}

/** A fresh, unique folder for one run's TRX files; older runs beyond `keep` are removed. */
export function createRunDirectory(stateDir: string, keep = 5): string {
  const runs = path.join(stateDir, 'runs');
  fs.mkdirSync(runs, { recursive: true });
  const existing = fs.readdirSync(runs).sort();
  for (const old of existing.slice(0, Math.max(0, existing.length - keep + 1))) fs.rmSync(path.join(runs, old), { recursive: true, force: true });
  const stamp = new Date().toISOString().replace(/[-:.]/g, '').replace('T', '-').replace('Z', '');
  return fs.mkdtempSync(path.join(runs, `${stamp}-${process.pid}-`));
}
