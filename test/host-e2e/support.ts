// host-e2e's helpers: fixture copies (from the shared fixture cache, test/support/fixtures.ts), private
// state folders, the real CLI as a process, real Roslyn hosts for the verifier, Git, polling.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StdioHostTransport } from '../../src/engine/host/hostProcess';
import type { HostRequester } from '../../src/engine/host/hostRequester';
import type { PermissionDecision, PermissionPolicy, PermissionRequest } from '../../src/engine/permissions/permissionPolicy';
import { Session } from '../../src/engine/session';
import { dotnetRestore, fixtureCopy, removeTemporaryFolders, repoRoot, takeTemporaryFolders, temporaryFolder } from '../support/fixtures';

export { repoRoot };
export const cliPath = path.join(repoRoot, 'dist', 'cli.js');
/**
 * `sharpclaw mcp`'s wait for tests that ask for answers, not for the deadline: a loaded CI machine can take more
 * than the default 45 s for a cold load and the first compile, and the call would then answer `error loading`
 * (src/surfaces/mcp/mcpLoadWait.ts). The tests of the wait itself pass their own.
 */
export const answerWait = ['--load-wait', '600'];

/** A private temporary copy of fixtures/<name> without build output, restored for `restore` (from the fixture cache). */
export function copyFixture(name: string, restore: string | readonly string[] = []): string {
  return fixtureCopy(name, restore);
}

/** The resident hosts of a state folder: pid by socket (from the .sock.json each writes). */
export function residentHosts(stateDir: string): number[] {
  const hosts = path.join(stateDir, 'hosts');
  if (!fs.existsSync(hosts)) return [];
  return fs
    .readdirSync(hosts)
    .filter((name) => name.endsWith('.sock.json'))
    .map((name) => (JSON.parse(fs.readFileSync(path.join(hosts, name), 'utf8')) as { pid: number }).pid);
}

/** A state root (locks, runs, stores, resident hosts) private to one test. */
export function tempStateRoot(): string {
  return temporaryFolder('state');
}

export const serverDll = path.join(repoRoot, 'dist', 'server', 'SharpClaw.Server.dll');

const hosts = new Map<string, Session>();
/** Every evaluation request the test hosts asked their client (none: a verification's approval covers it). */
export const hostEvaluationRequests: PermissionRequest[] = [];

/**
 * A real Roslyn host for `workspace`, started once per workspace. Its own permission policy denies
 * everything and records what it was asked: the verifier's one approval must cover evaluation.
 */
export function hostFor(workspace: string): HostRequester {
  const start = (): Session => {
    if (!fs.existsSync(serverDll)) throw new Error(`${serverDll} is missing: run "npm run build" first (npm test does).`);
    const denying: PermissionPolicy = {
      request: async (request) => {
        hostEvaluationRequests.push(request);
        return { granted: false, source: 'policy', message: 'The test host grants nothing itself.' };
      },
    };
    const session = new Session({ surface: 'cli', workspaceFolder: () => workspace, permissions: denying, transport: new StdioHostTransport({ serverDll }) });
    hosts.set(workspace, session);
    return session;
  };
  return { request: (...args) => (hosts.get(workspace) ?? start()).requester.request(...args) };
}

/** Stops the test hosts and removes the copies and state folders made so far (taken at once: a later describe may copy while this awaits). */
export async function cleanUpCopies(): Promise<void> {
  const folders = takeTemporaryFolders();
  const started = [...hosts.values()];
  hosts.clear();
  for (const session of started) {
    await session.close().catch(() => undefined);
    session.dispose();
  }
  await stopResidentHostsIn(folders);
  removeTemporaryFolders(folders);
}

/**
 * Stops the resident hosts a test's CLI calls left in these state folders and waits until they are gone: as
 * `sharpclaw host stop` does (the host's shutdown request; a signal would leave .NET's diagnostic pipes in the
 * temp folder), SIGKILL after 10 s. A resident host outlives the call that started it and writes its store
 * after a load, so removing its folder under it failed (ENOTEMPTY) or left files behind; it notices its
 * socket file gone only at its next poll.
 */
export async function stopResidentHostsIn(folders: readonly string[]): Promise<void> {
  // Only a process that listens in that folder: a host that already ended left its pid to be reused.
  const listensIn = (pid: number, folder: string) => commandLine(pid)?.includes(`--listen ${path.join(folder, 'hosts')}`) === true;
  const running = folders.map((folder) => ({ folder, pids: residentHosts(folder).filter((pid) => listensIn(pid, folder)) })).filter((entry) => entry.pids.length > 0);
  const pids = running.flatMap((entry) => entry.pids);
  const gone = () => pids.every((pid) => !alive(pid));
  for (const { folder } of running) {
    spawnSync(process.execPath, [cliPath, 'host', 'stop'], { stdio: 'ignore', timeout: 15_000, env: { ...process.env, SHARPCLAW_STATE_DIR: folder } });
  }
  try {
    await waitFor('the resident hosts to exit after host stop', gone, 10_000);
  } catch {
    for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
    await waitFor('the resident hosts to exit after SIGKILL', gone, 10_000);
  }
}

/** Restores a copy in place, for a test that changed its projects first (else copyFixture(name, target)); verification itself never restores unless asked. */
export function restore(dir: string, target: string): void {
  dotnetRestore(dir, target);
}

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=test@example.invalid', '-c', 'user.name=SharpClaw tests', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
}

/** `git init` with bin/obj ignored and everything committed. */
export function initRepository(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(dir, '.gitignore'), 'bin/\nobj/\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'fixture');
}

/** A policy that records requests and answers them all the same way. */
export class RecordingPolicy implements PermissionPolicy {
  readonly requests: PermissionRequest[] = [];
  constructor(private readonly granted: boolean) {}
  async request(request: PermissionRequest): Promise<PermissionDecision> {
    this.requests.push(request);
    return this.granted ? { granted: true, source: 'policy' } : { granted: false, source: 'policy', message: 'Denied by the test policy.' };
  }
}

/** Whether a process of that id is still running. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A running process's command line, its arguments joined by spaces (Linux /proc); undefined once it is gone. */
export function commandLine(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return undefined;
  }
}

/** Command lines of the processes now running on this machine (Linux /proc). */
export function runningCommands(): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue; // zombies are already dead
    } catch {
      continue; // gone
    }
    const command = commandLine(Number(entry));
    if (command !== undefined) found.push(command);
  }
  return found;
}

/**
 * Removes a test's folder once no SharpClaw host runs with it (its command line names the folder): a CLI call that
 * ends before it asks for its host leaves the host it started ahead (src/engine/host/hostPrestart.ts) to end a moment
 * later, and a host still starting then would write its log folder into the removed folder.
 */
export async function removeOnceHostsAreGone(folder: string): Promise<void> {
  if (process.platform === 'linux') {
    const hostRuns = () => runningCommands().some((command) => command.includes('SharpClaw.Server.dll') && command.includes(folder));
    await waitFor(`the SharpClaw hosts of ${folder} to end`, () => !hostRuns(), 15_000);
  }
  fs.rmSync(folder, { recursive: true, force: true });
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  startedAt: number;
  finishedAt: number;
}

/** Runs the real bundled CLI (dist/cli.js). */
export function runCli(args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<CliResult> {
  if (!fs.existsSync(cliPath)) throw new Error(`${cliPath} is missing: run "npm run build" first (npm test does).`);
  return new Promise((resolve) => {
    const startedAt = Date.now();
    const child = spawn(process.execPath, [cliPath, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr, startedAt, finishedAt: Date.now() }));
  });
}
