// Finds a `dotnet` executable and the SDKs beside it without starting any process: activation
// and status must never run `dotnet` just to look around.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const minimumSdkMajor = 8;
/** The host targets net10.0 because Roslyn's MSBuild workspace (5.9+) ships only for net10.0. */
export const hostRuntimeMajor = 10;
export const dotnetDownloadUrl = 'https://dotnet.microsoft.com/download';

export interface DotnetInstallation {
  /** The `dotnet` executable that will run the host. */
  executable: string;
  /** The folder holding `sdk/`, `shared/` and `host/`. */
  root: string;
  /** Installed SDK versions, ascending. */
  sdkVersions: string[];
  /** Installed Microsoft.NETCore.App runtime versions, ascending. */
  runtimeVersions: string[];
}

export class DotnetNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DotnetNotFoundError';
  }
}

export interface LocateOptions {
  /** The machine-scoped `sharpclaw.dotnetPath` setting; empty means search. */
  configuredPath?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Install folders to try last; defaults to the platform's standard ones. */
  standardRoots?: string[];
}

const executableName = (platform: NodeJS.Platform) => (platform === 'win32' ? 'dotnet.exe' : 'dotnet');

function standardRoots(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'win32') {
    return [path.join(env.ProgramFiles ?? 'C:\\Program Files', 'dotnet')];
  }
  const home = env.HOME ?? '';
  return ['/usr/share/dotnet', '/usr/lib/dotnet', '/usr/local/share/dotnet', '/opt/dotnet', path.join(home, '.dotnet')];
}

function isFile(candidate: string): boolean {
  try {
    return fs.statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/** Candidate executables in the order we trust them. */
function candidateExecutables(options: LocateOptions): string[] {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const name = executableName(platform);
  const candidates: string[] = [];
  if (options.configuredPath) candidates.push(options.configuredPath);
  if (env.DOTNET_ROOT) candidates.push(path.join(env.DOTNET_ROOT, name));
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir) candidates.push(path.join(dir, name));
  }
  for (const root of options.standardRoots ?? standardRoots(platform, env)) candidates.push(path.join(root, name));
  return candidates;
}

export function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = splitPrerelease(a);
  const [coreB = '', preB] = splitPrerelease(b);
  const left = coreA.split('.').map(Number);
  const right = coreB.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  // A pre-release sorts before its release ("10.0.100-rc.2" < "10.0.100").
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA.localeCompare(preB, 'en', { numeric: true });
}

function splitPrerelease(version: string): [string, string | undefined] {
  const dash = version.indexOf('-');
  return dash < 0 ? [version, undefined] : [version.slice(0, dash), version.slice(dash + 1)];
}

/** SDK versions installed under a dotnet root: folders of `sdk/` that contain `dotnet.dll`. */
export function listSdkVersions(root: string): string[] {
  let entries: string[];
  try {
    entries = fs.readdirSync(path.join(root, 'sdk'));
  } catch {
    return [];
  }
  return entries
    .filter((entry) => /^\d+\.\d+\.\d+/.test(entry) && isFile(path.join(root, 'sdk', entry, 'dotnet.dll')))
    .sort(compareVersions);
}

/** Microsoft.NETCore.App runtime versions installed under a dotnet root. */
export function listRuntimeVersions(root: string): string[] {
  try {
    return fs
      .readdirSync(path.join(root, 'shared', 'Microsoft.NETCore.App'))
      .filter((entry) => /^\d+\.\d+\.\d+/.test(entry))
      .sort(compareVersions);
  } catch {
    return [];
  }
}

const major = (version: string) => Number(version.split('.')[0]);

/**
 * Returns the first `dotnet` whose root holds an SDK of at least {@link minimumSdkMajor} and a
 * runtime of at least {@link hostRuntimeMajor} for the host. Throws {@link DotnetNotFoundError} with an actionable message otherwise.
 */
export function locateDotnet(options: LocateOptions = {}): DotnetInstallation {
  const seen = new Set<string>();
  const tooOld: string[] = [];
  for (const candidate of candidateExecutables(options)) {
    if (!isFile(candidate)) continue;
    let executable: string;
    try {
      executable = fs.realpathSync(candidate);
    } catch {
      continue;
    }
    if (seen.has(executable)) continue;
    seen.add(executable);
    const root = path.dirname(executable);
    const sdkVersions = listSdkVersions(root);
    const runtimeVersions = listRuntimeVersions(root);
    const sdkOk = sdkVersions.some((version) => major(version) >= minimumSdkMajor);
    const runtimeOk = runtimeVersions.some((version) => major(version) >= hostRuntimeMajor);
    if (sdkOk && runtimeOk) return { executable, root, sdkVersions, runtimeVersions };
    if (sdkVersions.length > 0 || runtimeVersions.length > 0) {
      tooOld.push(`${executable} (SDKs ${sdkVersions.join(', ') || 'none'}; runtimes ${runtimeVersions.join(', ') || 'none'})`);
    }
  }
  if (options.configuredPath && !isFile(options.configuredPath)) {
    throw new DotnetNotFoundError(
      `The setting sharpclaw.dotnetPath points to "${options.configuredPath}", which is not a file. ` +
        `Set it to the full path of the dotnet executable, or clear it to search PATH. Download .NET: ${dotnetDownloadUrl}`,
    );
  }
  if (tooOld.length > 0) {
    throw new DotnetNotFoundError(
      `SharpClaw needs a .NET SDK ${minimumSdkMajor} or newer and the .NET ${hostRuntimeMajor} runtime (part of the .NET ${hostRuntimeMajor} SDK) for its Roslyn host; found only ${tooOld.join('; ')}. Install the .NET ${hostRuntimeMajor} SDK: ${dotnetDownloadUrl}`,
    );
  }
  throw new DotnetNotFoundError(
    `SharpClaw needs the .NET SDK ${minimumSdkMajor} or newer, and no dotnet was found on PATH, in DOTNET_ROOT or in the standard install folders. Install it from ${dotnetDownloadUrl} and restart VS Code.`,
  );
}
