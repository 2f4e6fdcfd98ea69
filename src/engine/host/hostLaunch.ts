// How a Roslyn host process starts, in one place for the two CLI transports (hostProcess.ts: a host of the call's own
// on stdio; residentHost.ts: the resident host on a socket) and for the CLI's head start (hostPrestart.ts), which
// starts the same process before the CLI's bundle has loaded. Node's built-ins and the state folder only: dist/cli.js
// carries this file too, and must stay small.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { watchProcessGroup } from '../processes/processTree';
import { privateSubfolder, stateRoot } from '../stateFolder';
import { locateDotnet } from './dotnetLocator';
import { hostArguments } from './hostCommandLine';

const keptLogs = 20;
/** How long a resident host waits for its next call before it exits (SHARPCLAW_RESIDENT_IDLE_SECONDS). */
const defaultIdleSeconds = 600;
/** Unix socket paths are limited to about 104–108 bytes; a longer state folder gets no resident host. */
const maxSocketPath = 100;

/** The built host next to the bundled CLI (dist/cli.js and dist/core.js → dist/server/SharpClaw.Server.dll). */
export function bundledServerDll(): string {
  return path.join(__dirname, 'server', 'SharpClaw.Server.dll');
}

/** The environment every host runs in: the caller's, without the SDK's first-run banner and telemetry. */
export function hostEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, DOTNET_NOLOGO: '1', DOTNET_CLI_TELEMETRY_OPTOUT: '1' };
}

/** The state folder's logs/ with the oldest host logs beyond the last `keptLogs` removed. */
function defaultLogDirectory(): string {
  const dir = privateSubfolder(stateRoot(), 'logs');
  const logs = fs.readdirSync(dir).filter((name) => name.startsWith('sharpclaw-host-')).map((name) => ({ name, time: fs.statSync(path.join(dir, name)).mtimeMs }));
  for (const old of logs.sort((a, b) => b.time - a.time).slice(keptLogs - 1)) fs.rmSync(path.join(dir, old.name), { force: true });
  return dir;
}

export interface StdioLaunchOptions {
  serverDll: string;
  logDirectory?: string;
  /** The person's configured dotnet (empty or absent: dotnet on PATH). */
  dotnetPath?: () => string | undefined;
}

/** A host of a call's own: what runs, with which arguments. */
export interface StdioLaunch {
  executable: string;
  args: string[];
  logDirectory: string;
}

/** The stdio host's command line; throws DotnetNotFoundError when there is no dotnet. */
export function stdioLaunch(options: StdioLaunchOptions): StdioLaunch {
  const executable = hostDotnet(options);
  const logDirectory = options.logDirectory ?? defaultLogDirectory();
  return { executable, args: hostArguments({ serverDll: options.serverDll, logDirectory }), logDirectory };
}

/** Starts a stdio host: the leader of its own process group (POSIX), so what it starts ends with it (bindProcessGroup). */
export function spawnStdioHost(launch: StdioLaunch): ChildProcessWithoutNullStreams {
  return spawn(launch.executable, launch.args, { stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32', env: hostEnvironment() });
}

export interface ResidentLaunchOptions {
  serverDll: string;
  /** The person's configured dotnet (empty or absent: dotnet on PATH). */
  dotnetPath?: () => string | undefined;
  env?: NodeJS.ProcessEnv;
  idleSeconds?: number;
  logDirectory?: string;
}

/** The variables a host's MSBuild evaluation and SDK choice depend on: a call with other values gets another host. */
function shapingEnvironment(env: NodeJS.ProcessEnv): string {
  return Object.keys(env)
    .filter((name) => name === 'PATH' || name === 'HOME' || /^(DOTNET_|MSBUILD|NUGET_|SHARPCLAW_)/i.test(name))
    .sort()
    .map((name) => `${name}=${env[name]}`)
    .join('\n');
}

/** The resident host's socket for this host build, dotnet and environment; undefined where there is none. */
export function residentSocketPath(options: ResidentLaunchOptions): string | undefined {
  const env = options.env ?? process.env;
  if (process.platform === 'win32' || env.SHARPCLAW_RESIDENT_HOST === '0') return undefined;
  let build: string;
  try {
    const stat = fs.statSync(options.serverDll);
    build = `${fs.realpathSync.native(options.serverDll)}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return undefined; // Not built: the stdio transport says so.
  }
  let dotnet: string;
  try {
    dotnet = hostDotnet(options);
  } catch {
    return undefined;
  }
  const key = createHash('sha256').update(`${build}\n${dotnet}\n${shapingEnvironment(env)}`).digest('hex').slice(0, 16);
  const socket = path.join(privateSubfolder(stateRoot(), 'hosts'), `host-${key}.sock`);
  return Buffer.byteLength(socket) <= maxSocketPath ? socket : undefined;
}

/** The dotnet that runs a host (and keys the resident one's socket): the configured one, else PATH's; throws DotnetNotFoundError when there is none. */
function hostDotnet(options: { dotnetPath?: () => string | undefined }): string {
  const configuredPath = options.dotnetPath?.();
  return locateDotnet(configuredPath ? { configuredPath } : {}).executable;
}

function idleSeconds(options: ResidentLaunchOptions): number {
  const configured = Number((options.env ?? process.env).SHARPCLAW_RESIDENT_IDLE_SECONDS);
  return Number.isInteger(configured) && configured >= 1 && configured <= 86_400 ? configured : (options.idleSeconds ?? defaultIdleSeconds);
}

/** A resident host this process started: how it ended, once it has, and its exit code meanwhile (undefined while it runs). */
export interface StartedResident {
  logDirectory: string;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exitCode(): number | null | undefined;
}

/**
 * Starts a resident host on `socket`, detached (it outlives this call, in a process group of its own) and unreferenced
 * (this process may exit before it). Throws when there is no dotnet.
 */
export function spawnResidentHost(socket: string, options: ResidentLaunchOptions): StartedResident {
  const executable = hostDotnet(options);
  const root = stateRoot();
  const logDirectory = options.logDirectory ?? privateSubfolder(root, 'logs');
  const args = [options.serverDll, '--listen', socket, '--idle-exit', String(idleSeconds(options)), '--state-directory', root, '--log-directory', logDirectory];
  // Its cwd is the state folder, not this call's: the host outlives the call, and the call's folder may go.
  const child = spawn(executable, args, { cwd: root, detached: true, stdio: 'ignore', env: hostEnvironment(options.env) });
  let exited: number | null | undefined;
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = code;
      resolve({ code, signal });
    }),
  );
  child.once('error', () => (exited = -1));
  // It leads its own process group, where its evaluations and design-time builds run: a watchdog ends them once the
  // host is gone, however it ends and whoever started it (this call may be long over).
  if (child.pid !== undefined) watchProcessGroup(child.pid, child.pid);
  child.unref();
  return { logDirectory, ended, exitCode: () => exited };
}
