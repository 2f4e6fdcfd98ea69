// The one way the mocha layers get a fixture workspace: a private temporary copy of fixtures/<name>
// (never built inside the repository), restored when the test names restore targets. Restoring runs
// once per fixture version, not once per test: the first request restores a copy into the fixture
// cache, keyed by the hash of the fixture's files, the SDK and the targets; every request copies from
// there and rewrites the absolute paths `dotnet restore` wrote into obj/ to the new copy's, so the copy
// is what a restore in place would have left. server/tests' FixtureWorkspace.cs keeps the same cache
// with the same keys, so the server layer and host-e2e share one restore per fixture.
//
// The cache lives in the private per-user state folder (src/engine/stateFolder.ts's rule:
// <root>/test-fixtures, 0700, no links), never in a shared temp folder;
// SHARPCLAW_TEST_FIXTURE_CACHE names another folder (a run's own). It is resolved when this module
// loads, before any test points SHARPCLAW_STATE_DIR at a folder of its own. A new version of a fixture
// replaces the entry of its older version, so the cache holds one entry per fixture and target list.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { privateSubfolder, stateRoot, stateRootPath } from '../../src/engine/stateFolder';

export const repoRoot = path.resolve(__dirname, '..', '..', '..');
export const fixturesRoot = path.join(repoRoot, 'fixtures');

/** Folders a fixture never carries into a copy: a developer's local build output. */
const buildOutput = new Set(['bin', 'obj', 'TestResults', 'artifacts']);

/** Bumped when the cache layout or the key changes (FixtureWorkspace.cs uses the same). */
const keyVersion = 'sharpclaw test fixture v1';

const cacheRootPath = process.env.SHARPCLAW_TEST_FIXTURE_CACHE ? path.resolve(process.env.SHARPCLAW_TEST_FIXTURE_CACHE) : path.join(stateRootPath(), 'test-fixtures');

const created: string[] = [];

/** A private temporary folder (0700, from mkdtemp), removed by removeTemporaryFolders(). */
export function temporaryFolder(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sc-${prefix}-`));
  created.push(dir);
  return dir;
}

/**
 * A private temporary copy of fixtures/<name> without build output, restored for `restore` (one
 * target or several, in order) from the fixture cache. Removed by removeTemporaryFolders().
 */
export function fixtureCopy(name: string, restore: string | readonly string[] = []): string {
  return fixtureCopyAt(name, restore, path.join(temporaryFolder(name), name));
}

/**
 * The same copy at `copy` (a folder that does not exist yet), which the caller removes: for the VS Code
 * layers, whose sessions keep the workspace, user data and state folder together in one folder.
 */
export function fixtureCopyAt(name: string, restore: string | readonly string[], copy: string): string {
  const targets = typeof restore === 'string' ? [restore] : [...restore];
  if (targets.length === 0) {
    copyTree(path.join(fixturesRoot, name), copy, skipBuildOutput);
    return copy;
  }
  const entry = restoredEntry(name, targets);
  copyTree(path.join(entry.folder, 'workspace'), copy, () => true);
  for (const relative of entry.restoreOutput) rewritePaths(path.join(copy, relative), entry.restoredAt, copy);
  return copy;
}

/**
 * The fixture cache's entry of fixtures/<name> restored for `target`, restoring it into the cache first if
 * it has none: its folder, for restoreFromCacheEntry. The VS Code layers' harness calls it before a session,
 * so the session's own `restore(target)` (test/integration/support.ts) copies instead of running dotnet.
 */
export function restoredFixtureEntry(name: string, target: string): string {
  return restoredEntry(name, [target]).folder;
}

/** What a VS Code session adds to its workspace that is no input of a restore: Git, VS Code's workspace settings. */
const sessionOnly = new Set(['.git', '.vscode']);

/**
 * What `dotnet restore <target>` in `workspace` would leave, taken from the fixture cache entry
 * `entryFolder` (restoredFixtureEntry): the files that restore wrote there, copied in with the paths in
 * them rewritten to the workspace's, as fixtureCopy does. Only when the entry was restored for `target`
 * alone and the workspace's files are still the fixture's, byte for byte (build output, Git, .gitignore
 * and .vscode aside); otherwise it changes nothing and says false, and the caller runs the restore.
 */
export function restoreFromCacheEntry(entryFolder: string, target: string, workspace: string): boolean {
  const manifest = readManifest(entryFolder);
  if (!manifest || manifest.targets.length !== 1 || manifest.targets[0] !== target) return false;
  const cached = path.join(entryFolder, 'workspace');
  const outputs = new Set(manifest.restoreOutput);
  const fixtureFiles = listFiles(cached).filter((file) => !outputs.has(file));
  const workspaceFiles = listFiles(workspace, (folder) => skipBuildOutput(folder) && !sessionOnly.has(folder)).filter((file) => file !== '.gitignore');
  if (fixtureFiles.join('\n') !== workspaceFiles.join('\n')) return false;
  for (const file of fixtureFiles) {
    if (!fs.readFileSync(path.join(cached, file)).equals(fs.readFileSync(path.join(workspace, file)))) return false;
  }
  for (const relative of manifest.restoreOutput) {
    const destination = path.join(workspace, relative);
    const content = withPaths(fs.readFileSync(path.join(cached, relative), 'utf8'), manifest.restoredAt, workspace);
    // A file the restore would leave as it is keeps its time, as a restore that finds nothing to do does.
    if (fs.existsSync(destination) && fs.readFileSync(destination, 'utf8') === content) continue;
    fs.mkdirSync(path.dirname(destination), { recursive: true });
    fs.writeFileSync(destination, content);
  }
  return true;
}

/** The folders handed out so far, no longer this module's to remove (a caller that must stop processes first takes them at once). */
export function takeTemporaryFolders(): string[] {
  return created.splice(0);
}

/** Removes `folders` (default: every folder handed out so far). */
export function removeTemporaryFolders(folders: string[] = takeTemporaryFolders()): void {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
}

/** `dotnet restore` as every test layer runs it: quiet, no telemetry, no MSBuild nodes left running. */
export function dotnetRestore(dir: string, target: string): void {
  // MSBuild's own variables (set when a dotnet process runs this) would steer the restore's MSBuild.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^msbuild/i.test(name)));
  const env = { ...inherited, DOTNET_NOLOGO: '1', DOTNET_CLI_TELEMETRY_OPTOUT: '1', MSBUILDDISABLENODEREUSE: '1' };
  try {
    execFileSync('dotnet', ['restore', target, '-nologo', '--tl:off', '-v:q'], { cwd: dir, stdio: 'pipe', env });
  } catch (error) {
    const output = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`dotnet restore ${target} failed in ${dir}:\n${output.stdout?.toString() ?? ''}${output.stderr?.toString() ?? ''}`);
  }
}

interface CacheEntry {
  folder: string;
  /** Where the restore ran: the path its output names. */
  restoredAt: string;
  /** Files the restore wrote (relative to the workspace), whose paths a copy rewrites. */
  restoreOutput: string[];
}

interface Manifest {
  fixture: string;
  targets: string[];
  key: string;
  restoredAt: string;
  restoreOutput: string[];
}

const entries = new Map<string, CacheEntry>();

function restoredEntry(name: string, targets: string[]): CacheEntry {
  const source = path.join(fixturesRoot, name);
  const files = listFiles(source);
  const key = cacheKey(source, files, targets);
  const known = entries.get(key);
  if (known) return known;
  const cache = cacheRoot();
  const folder = path.join(cache, `${name}.${key}`);
  let manifest = readManifest(folder);
  if (!manifest) {
    // Restored in a folder of its own, then renamed into place: a process restoring the same fixture at the same time loses the race harmlessly.
    const pending = path.join(cache, `${name}.${key}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
    const workspace = path.join(pending, 'workspace');
    copyTree(source, workspace, skipBuildOutput);
    for (const target of targets) dotnetRestore(workspace, target);
    const before = new Set(files);
    const restoreOutput = listFiles(workspace, () => true).filter((file) => !before.has(file));
    manifest = { fixture: name, targets, key, restoredAt: workspace, restoreOutput };
    fs.writeFileSync(path.join(pending, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    try {
      fs.renameSync(pending, folder);
    } catch {
      fs.rmSync(pending, { recursive: true, force: true });
      manifest = readManifest(folder);
      if (!manifest) throw new Error(`The fixture cache entry ${folder} could not be created.`);
    }
    pruneOtherVersions(cache, name, targets, key);
  }
  const entry = { folder, restoredAt: manifest.restoredAt, restoreOutput: manifest.restoreOutput };
  entries.set(key, entry);
  return entry;
}

function readManifest(folder: string): Manifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** The cache folder, created private by the state folder's rules (as its parent is). */
function cacheRoot(): string {
  return privateSubfolder(stateRoot(path.dirname(cacheRootPath)), path.basename(cacheRootPath));
}

/** Entries of older versions of the same fixture and targets, and restores abandoned an hour ago. */
function pruneOtherVersions(cache: string, name: string, targets: string[], key: string): void {
  for (const entry of fs.readdirSync(cache)) {
    if (!entry.startsWith(`${name}.`)) continue;
    const folder = path.join(cache, entry);
    if (entry.endsWith('.tmp')) {
      if (Date.now() - fs.statSync(folder).mtimeMs > 3_600_000) fs.rmSync(folder, { recursive: true, force: true });
      continue;
    }
    const manifest = readManifest(folder);
    if (manifest && manifest.key !== key && manifest.fixture === name && manifest.targets.join('\n') === targets.join('\n')) fs.rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * sha256 over the key version, the SDK that restores the fixture, the targets and every file (its
 * '/'-separated relative path and the sha256 of its bytes, in ordinal order); the first 16 hex.
 */
function cacheKey(source: string, files: string[], targets: string[]): string {
  const lines = [keyVersion, `sdk ${sdkVersion(source)}`, ...targets.map((target) => `restore ${target}`)];
  for (const file of files) lines.push(`file ${file} ${createHash('sha256').update(fs.readFileSync(path.join(source, file))).digest('hex')}`);
  return createHash('sha256').update(`${lines.join('\n')}\n`, 'utf8').digest('hex').slice(0, 16);
}

const sdkVersions = new Map<string, string>();

/** The SDK `dotnet` picks in `dir` (its global.json included). */
function sdkVersion(dir: string): string {
  let version = sdkVersions.get(dir);
  if (version === undefined) {
    version = execFileSync('dotnet', ['--version'], { cwd: dir, encoding: 'utf8', env: { ...process.env, DOTNET_NOLOGO: '1', DOTNET_CLI_TELEMETRY_OPTOUT: '1' } }).trim();
    sdkVersions.set(dir, version);
  }
  return version;
}

function skipBuildOutput(name: string): boolean {
  return !buildOutput.has(name);
}

/** Files below `dir` as '/'-separated relative paths in ordinal order, leaving out folders `keep` refuses. */
function listFiles(dir: string, keep: (folderName: string) => boolean = skipBuildOutput): string[] {
  const found: string[] = [];
  const walk = (folder: string, prefix: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (keep(entry.name)) walk(path.join(folder, entry.name), relative);
      } else if (entry.isFile()) {
        found.push(relative);
      }
    }
  };
  walk(dir, '');
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function copyTree(from: string, to: string, keep: (folderName: string) => boolean): void {
  fs.cpSync(from, to, { recursive: true, filter: (entry) => entry === from || !fs.statSync(entry).isDirectory() || keep(path.basename(entry)) });
}

/** Replaces the folder a restore ran in by `to` in one of its output files, as written and as JSON escapes it. */
function rewritePaths(file: string, from: string, to: string): void {
  const text = fs.readFileSync(file, 'utf8');
  const rewritten = withPaths(text, from, to);
  if (rewritten !== text) fs.writeFileSync(file, rewritten);
}

/** `text` with the folder `from` replaced by `to`, as written and as JSON escapes it. */
function withPaths(text: string, from: string, to: string): string {
  const escaped = (value: string) => JSON.stringify(value).slice(1, -1);
  let rewritten = text.split(from).join(to);
  if (escaped(from) !== from) rewritten = rewritten.split(escaped(from)).join(escaped(to));
  return rewritten;
}
