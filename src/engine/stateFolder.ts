// The private per-user state folder: the one place SharpClaw keeps the files it generates (locks,
// verification runs, caches, the host's evaluation projects and journals) — never a shared temp
// folder and never the user's sources. One rule, used by every process of the user (the extension,
// the CLI, the MCP server, the Roslyn host: the client passes the root to the host with
// `--state-directory`; the host's StateFolder.cs applies the same rule when it runs alone):
//
//   root = $SHARPCLAW_STATE_DIR                    (tests, or a person who wants it elsewhere)
//        | %LOCALAPPDATA%\SharpClaw                (Windows)
//        | $XDG_CACHE_HOME/sharpclaw               (when XDG_CACHE_HOME is an absolute path)
//        | ~/.cache/sharpclaw
//   workspace folder = <root>/workspaces/<first 16 hex of sha256(canonical workspace path)>/
//
// The canonical workspace path has its links resolved (and is lower-cased on Windows and macOS,
// whose file systems ignore case). Every folder SharpClaw owns (the root and below) is created
// 0700, must be a real folder (not a link) owned by this user, and is narrowed to 0700 if it is
// wider; the root's ancestors are resolved once, so the path handed out has no link anywhere on
// it, and each of them must be owned by this user or root and not writable by others (unless
// sticky, like /tmp). Anything else is a StateFolderError: SharpClaw then writes nothing.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export class StateFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateFolderError';
  }
}

/** Where the root is, by the rule above (not created, not checked). */
export function stateRootPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  const override = env.SHARPCLAW_STATE_DIR;
  if (override) return path.resolve(override);
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA;
    return path.join(local && path.isAbsolute(local) ? local : path.join(home, 'AppData', 'Local'), 'SharpClaw');
  }
  const xdg = env.XDG_CACHE_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'sharpclaw');
}

/** The root, created private and checked; the returned path has no link on it. */
export function stateRoot(root: string = stateRootPath()): string {
  const absolute = path.resolve(root);
  const parent = path.dirname(absolute);
  fs.mkdirSync(parent, { recursive: true, mode: 0o700 });
  const realParent = fs.realpathSync.native(parent);
  checkAncestors(realParent);
  return ensurePrivateFolder(path.join(realParent, path.basename(absolute)));
}

/** The links-resolved path that names a workspace (the input to its key). */
export function canonicalWorkspace(workspaceFolder: string): string {
  let resolved: string;
  try {
    resolved = fs.realpathSync.native(path.resolve(workspaceFolder));
  } catch {
    resolved = path.resolve(workspaceFolder);
  }
  return process.platform === 'win32' || process.platform === 'darwin' ? resolved.toLowerCase() : resolved;
}

/** The folder name of a workspace inside `<root>/workspaces/`. */
export function workspaceKey(workspaceFolder: string): string {
  return createHash('sha256').update(canonicalWorkspace(workspaceFolder), 'utf8').digest('hex').slice(0, 16);
}

/** `<root>/workspaces/<key>/`, created private, with a `workspace.txt` naming the workspace. */
export function workspaceStateFolder(workspaceFolder: string, root: string = stateRoot()): string {
  const workspaces = privateSubfolder(root, 'workspaces');
  const dir = privateSubfolder(workspaces, workspaceKey(workspaceFolder));
  const marker = path.join(dir, 'workspace.txt');
  if (!fs.existsSync(marker)) {
    try {
      fs.writeFileSync(marker, `${canonicalWorkspace(workspaceFolder)}\n`, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return dir;
}

/**
 * Writes `data` to `file` (in a folder this module handed out) readable by this user only, whole or not at all: a
 * temporary file beside it, then a rename, so a reader never sees half of it. Throws what the write threw, leaving
 * no temporary file.
 */
export function writePrivateFile(file: string, data: string | Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, data, { mode: 0o600 });
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/** A private folder `name` inside a folder this module handed out. */
export function privateSubfolder(parent: string, name: string): string {
  if (!name || name.includes('/') || name.includes('\\') || name === '.' || name === '..') throw new StateFolderError(`'${name}' is not a folder name.`);
  return ensurePrivateFolder(path.join(parent, name));
}

function ensurePrivateFolder(dir: string): string {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = fs.lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory()) throw new StateFolderError(`${dir} is ${stat.isSymbolicLink() ? 'a link' : 'not a folder'}; SharpClaw keeps its state only in a private folder of this user.`);
  if (process.platform === 'win32') return dir;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw new StateFolderError(`${dir} belongs to user ${stat.uid}, not to this user (${uid}); SharpClaw keeps its state only in a private folder of this user.`);
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  return dir;
}

function checkAncestors(realDir: string): void {
  if (process.platform === 'win32') return;
  const uid = process.getuid?.();
  for (let dir = realDir; ; dir = path.dirname(dir)) {
    const stat = fs.lstatSync(dir);
    const ownerOk = uid === undefined || stat.uid === uid || stat.uid === 0;
    const othersMayWrite = (stat.mode & 0o022) !== 0 && (stat.mode & 0o1000) === 0;
    if (!ownerOk || othersMayWrite) {
      throw new StateFolderError(`${dir} ${ownerOk ? 'is writable by other users' : `belongs to user ${stat.uid}`}, so SharpClaw's state folder below it would not be private; set SHARPCLAW_STATE_DIR to a folder of your own.`);
    }
    if (path.dirname(dir) === dir) return;
  }
}
