// How dist/cli.js loads dist/core.js: with V8's code cache for it, kept in the private state folder, so a CLI call
// does not parse and compile the 1.4 MB bundle again (a warm `sharpclaw tool` call spent about 0.09 s of its 0.31 s
// on that; docs/state-folder.md). The data is V8's own: V8 rejects data made by another V8 version, other flags or
// another source, and the file's name carries the bundle's path, size and time and the Node and V8 versions, so two
// installations or Node versions keep their own files. A call that found no usable data leaves it as it exits (a
// long-lived one, `sharpclaw mcp`, a few seconds after its start), with every function it compiled by then.
// Nothing here is needed: whatever fails only costs the compile, and the bundle loads as before. Nothing is read
// or written unless the state folder already exists, so help and --version create none.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { Module, createRequire } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { privateSubfolder, stateRoot, stateRootPath, writePrivateFile } from '../../engine/stateFolder';

/** What became of the code cache: read and accepted, read and rejected by V8, absent, or not kept (no state folder). */
export type CodeCacheUse = 'used' | 'rejected' | 'none' | 'off';

export interface LoadedBundle<T> {
  readonly exports: T;
  readonly cache: CodeCacheUse;
  /** Writes the cache now if this load found none it could use (once; also done at exit); true when written. */
  keep(): boolean;
}

/** Cache files of other bundles or Node versions kept beside the current one: a few installations, not every build ever run. */
const keptFiles = 4;

/** For `sharpclaw mcp` and other calls that outlive a short command: by then the start-up code has been compiled. */
const keepAfterMs = 5000;

export function loadBundle<T>(file: string): LoadedBundle<T> {
  const source = fs.readFileSync(file, 'utf8');
  const cacheFile = cacheFileFor(file);
  const cachedData = cacheFile === undefined ? undefined : readCache(cacheFile);
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData,
    // Node ≥ 20.13 lets a vm script's import() use the main loader, as require()d code does; the bundle has none today.
    ...(vm.constants ? { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER } : {}),
  });
  const cache: CodeCacheUse = cacheFile === undefined ? 'off' : cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';

  // What require() would do for it: a module of its own, in require's cache, run with its own require and paths.
  const bundle = new Module(file, require.main);
  bundle.filename = file;
  require.cache[file] = bundle;
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  try {
    wrapper.call(bundle.exports, bundle.exports, createRequire(file), bundle, file, path.dirname(file));
  } catch (error) {
    delete require.cache[file];
    throw error;
  }
  bundle.loaded = true;

  let kept = cache === 'used' || cacheFile === undefined;
  const keep = (): boolean => {
    if (kept) return false;
    kept = true;
    let data: Buffer;
    try {
      data = script.createCachedData();
    } catch {
      return false; // at exit too: a cache never changes how a command ends
    }
    return writeCache(cacheFile!, data);
  };
  if (!kept) {
    process.once('exit', keep);
    setTimeout(keep, keepAfterMs).unref();
  }
  return { exports: bundle.exports as T, cache, keep };
}

/** code-cache/core-<key>.bin in the state folder, or undefined when there is none yet or it is not private. */
function cacheFileFor(file: string): string | undefined {
  try {
    if (!fs.existsSync(stateRootPath())) return undefined;
    const stat = fs.statSync(file);
    const key = createHash('sha256')
      .update([fs.realpathSync.native(file), stat.size, stat.mtimeMs, process.version, process.versions.v8, process.arch].join('\0'))
      .digest('hex')
      .slice(0, 16);
    return path.join(privateSubfolder(stateRoot(), 'code-cache'), `${path.basename(file, '.js')}-${key}.bin`);
  } catch {
    return undefined;
  }
}

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Whole or not at all, readable by this user only (stateFolder.ts); then only the newest few files of the folder are kept. */
function writeCache(file: string, data: Buffer): boolean {
  try {
    writePrivateFile(file, data);
  } catch {
    return false;
  }
  try {
    const folder = path.dirname(file);
    const others = fs
      .readdirSync(folder)
      .filter((name) => name.endsWith('.bin') && name !== path.basename(file))
      .map((name) => ({ name, time: fs.statSync(path.join(folder, name)).mtimeMs }))
      .sort((a, b) => b.time - a.time);
    for (const old of others.slice(keptFiles - 1)) fs.rmSync(path.join(folder, old.name), { force: true });
  } catch {
    // Pruning is tidiness: the next write tries again.
  }
  return true;
}
