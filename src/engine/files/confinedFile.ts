// Writing one file that must stay inside one folder (a project's .mcp.json, ~/.codex/config.toml):
// every component below the folder must be a real folder or the file itself, never a link (a
// repository's `.vscode -> ~/.config/Code/User` or `.mcp.json -> ../elsewhere.json` would carry
// the write out of the project); the text goes to a new temporary file in the same folder (created
// exclusively, never through a link) that is renamed over the target, so a reader sees the old
// file or the new one and a hard link to the old file keeps its bytes. Refusals are
// ConfinedFileError (invalid_request) naming the component and where it points.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ToolError } from '../errors';
import { describeFileType } from './boundedRead';

export class ConfinedFileError extends ToolError {
  constructor(message: string) {
    super('invalid_request', message);
    this.name = 'ConfinedFileError';
  }
}

export interface ConfinedPath {
  /** The folder, links resolved (it is the person's choice: their project, their home). */
  base: string;
  /** The file below `base`. */
  file: string;
  /** The components from base to the file: each folder, then the file. */
  components: string[];
}

/** Resolves `file` below `base` and checks what exists of it: no link, no component outside base, folders are folders. */
export function confinedPath(base: string, file: string, what: string): ConfinedPath {
  let realBase: string;
  try {
    realBase = fs.realpathSync.native(path.resolve(base));
  } catch (error) {
    throw new ConfinedFileError(`${base} cannot be used for ${what}: ${(error as Error).message}. Nothing was written.`);
  }
  if (!fs.statSync(realBase).isDirectory()) throw new ConfinedFileError(`${base} is not a folder; nothing was written.`);
  const relative = path.relative(path.resolve(base), path.resolve(file));
  // `..name` is a file of the folder; only a `..` component climbs out of it.
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) throw new ConfinedFileError(`${file} is not inside ${base}; SharpClaw writes ${what} only there. Nothing was written.`);
  const components: string[] = [];
  let current = realBase;
  for (const part of relative.split(path.sep)) components.push((current = path.join(current, part)));
  const confined = { base: realBase, file: components[components.length - 1]!, components };
  checkComponents(confined, what);
  return confined;
}

/** Every existing component is a real folder (or, last, a regular file with one link); a missing one ends the walk. */
function checkComponents(confined: ConfinedPath, what: string): void {
  for (const [index, component] of confined.components.entries()) {
    const stat = fs.lstatSync(component, { throwIfNoEntry: false });
    if (stat === undefined) return;
    const last = index === confined.components.length - 1;
    if (stat.isSymbolicLink()) {
      let target = '';
      try {
        target = ` (to ${fs.readlinkSync(component)})`;
      } catch {
        // Gone meanwhile: still a refusal.
      }
      throw new ConfinedFileError(`${component} is a link${target}; SharpClaw writes ${what} only into a regular file inside ${confined.base}, never through a link, so nothing was written.`);
    }
    if (!last && !stat.isDirectory()) throw new ConfinedFileError(`${component} is ${describeFileType(stat)}, not a folder; nothing was written.`);
    if (last && !stat.isFile()) throw new ConfinedFileError(`${component} is ${describeFileType(stat)}, not a regular file; SharpClaw writes ${what} only into a regular file, so nothing was written.`);
    if (last && stat.nlink > 1) throw new ConfinedFileError(`${component} has ${stat.nlink} hard links (another path shares its bytes); SharpClaw writes ${what} only into a file of its own, so nothing was written.`);
  }
}

/**
 * Writes `text` as the confined file: creates missing folders one at a time (each checked again),
 * writes a temporary file beside the target (exclusive create, no link followed, the old file's
 * mode kept), syncs it, checks the path once more and renames it over the target.
 */
export function writeConfinedFile(confined: ConfinedPath, text: string, what: string): void {
  for (const folder of confined.components.slice(0, -1)) {
    try {
      fs.mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new ConfinedFileError(`cannot create ${folder}: ${(error as Error).message}. Nothing was written.`);
    }
  }
  checkComponents(confined, what);
  const existing = fs.lstatSync(confined.file, { throwIfNoEntry: false });
  const folder = path.dirname(confined.file);
  const temp = path.join(folder, `.${path.basename(confined.file)}.sharpclaw-${process.pid}-${Date.now()}.tmp`);
  const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, flags, existing ? existing.mode & 0o777 : 0o644);
    if (existing) fs.fchmodSync(fd, existing.mode & 0o777);
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    // Nothing on the path may have become a link while the temporary file was written.
    checkComponents(confined, what);
    fs.renameSync(temp, confined.file);
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    if (error instanceof ConfinedFileError) throw error;
    throw new ConfinedFileError(`cannot write ${confined.file}: ${(error as Error).message}. Nothing was written.`);
  }
}
