// Helpers for tests that run inside the real extension host.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import type { SharpClawApi } from '../../src/surfaces/vscode/extension';
import { restoreFromCacheEntry } from '../support/fixtures';

export type { SharpClawApi };

export const extensionId = 'sharpclaw.sharpclaw';

export function artifactsDir(): string {
  const dir = process.env.SHARPCLAW_TEST_ARTIFACTS;
  if (!dir) throw new Error('SHARPCLAW_TEST_ARTIFACTS is not set: run this suite through scripts/testbed/run-integration.mjs');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function extension(): vscode.Extension<SharpClawApi> {
  const ext = vscode.extensions.getExtension<SharpClawApi>(extensionId);
  if (!ext) throw new Error(`Extension ${extensionId} is not installed in this host`);
  return ext;
}

export async function api(): Promise<SharpClawApi> {
  return extension().activate();
}

/**
 * The SharpClaw log's lines since `since` (an ISO time) that its channel shows at the default level
 * (info, warnings, errors): what a person reads without changing the log level.
 */
export async function shownLogSince(since: string): Promise<string[]> {
  return (await api()).recentLog().filter((line) => line.time >= since && !['trace', 'debug'].includes(line.level)).map((line) => `${line.level} ${line.message}`);
}

/**
 * What the SharpClaw channel in the Output view holds: VS Code writes a log output channel's lines,
 * at the channel's level, to SharpClaw.log in the extension's log folder (the folder the host is
 * started with as --log-directory).
 */
export async function outputChannelText(): Promise<string> {
  // From the API, not the host's "Starting SharpClaw host: … --log-directory" line: the in-memory
  // tail keeps 200 lines, and a session's debug lines had pushed that one out (a flaky failure).
  return fs.readFileSync(path.join((await api()).logDirectory(), 'SharpClaw.log'), 'utf8');
}

/** Asks the harness for a screenshot of the whole workbench (webview iframes included); fails on a blank capture. */
export async function screenshot(name: string): Promise<string> {
  const control = process.env.SHARPCLAW_TEST_CONTROL;
  if (!control) throw new Error('SHARPCLAW_TEST_CONTROL is not set');
  const done = path.join(control, `screenshot-${name}.done`);
  fs.rmSync(done, { force: true });
  fs.writeFileSync(path.join(control, `screenshot-${name}.request`), name);
  await waitFor(`screenshot ${name}`, () => fs.existsSync(done), 30_000);
  const outcome = fs.readFileSync(done, 'utf8');
  if (outcome !== 'ok') throw new Error(`Screenshot ${name} failed: ${outcome}`);
  const file = path.join(artifactsDir(), `${name}.png`);
  // A blank or failed capture is a few hundred bytes; the workbench with the sidebar is far more.
  if (fs.statSync(file).size <= 10_000) throw new Error(`${file} is too small to be a workbench screenshot`);
  return file;
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  command: string;
}

/** Processes on this Linux machine, read from /proc (no external tool). */
export function listProcesses(): ProcessInfo[] {
  const result: ProcessInfo[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid) follows the command name in parentheses, which may contain spaces.
      const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      result.push({ pid: Number(entry), ppid: Number(afterName[1]), command });
    } catch {
      // The process ended while we looked.
    }
  }
  return result;
}

export function descendantsOf(pid: number): ProcessInfo[] {
  const all = listProcesses();
  const found: ProcessInfo[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const child of all.filter((p) => p.ppid === parent)) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Has the harness click an element of the workbench (CSS selector, optionally with text), as a person would. */
export async function click(target: { selector: string; text?: string }): Promise<void> {
  const control = process.env.SHARPCLAW_TEST_CONTROL;
  if (!control) throw new Error('SHARPCLAW_TEST_CONTROL is not set');
  const id = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const done = path.join(control, `click-${id}.done`);
  fs.writeFileSync(path.join(control, `click-${id}.request`), JSON.stringify(target));
  await waitFor(`a click on ${target.selector} ${target.text ?? ''}`, () => fs.existsSync(done), 45_000);
  const result = JSON.parse(fs.readFileSync(done, 'utf8')) as { ok: boolean; error?: string };
  if (!result.ok) throw new Error(`Could not click ${target.selector} "${target.text ?? ''}": ${result.error}`);
}

/**
 * `dotnet restore` of a target in the workspace: provisioning, not product behaviour (the fixture needs its
 * restore assets, and SharpClaw never restores by itself). The harness restored the suite's fixture for its
 * target into the fixture cache before the session (SHARPCLAW_TEST_FIXTURE_ENTRY, test/support/fixtures.ts):
 * while the workspace's files are still the fixture's, the restore's output is copied from there, which is
 * what the restore would leave; otherwise `dotnet restore` runs. Asynchronous, so the extension host this
 * runs in keeps answering VS Code meanwhile (a blocked one misses its save participants' 1.75 s deadline).
 */
export async function restore(target: string): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error('the harness opens the fixture as the workspace');
  const entry = process.env.SHARPCLAW_TEST_FIXTURE_ENTRY;
  if (entry && restoreFromCacheEntry(entry, target, folder)) {
    console.log(`      (restore ${target}: its output copied from the fixture cache)`);
    return;
  }
  console.log(`      (restore ${target}: dotnet restore${entry ? ', the workspace is no longer the fixture as cached' : ''})`);
  await promisify(execFile)('dotnet', ['restore', target, '-nologo'], { cwd: folder, maxBuffer: 16 * 1024 * 1024 });
}

/** A tool call through vscode.lm.invokeTool, as an agent makes it: the text the agent receives. */
export async function invokeTool(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** Opens the sidebar and waits (30 s at most) for it to render the host: 'hostStatus', or 'hostError'. */
export async function openSidebarForHostStatus(sharpclaw: SharpClawApi): Promise<string> {
  const rendered = new Promise<string>((resolve) => {
    const subscription = sharpclaw.onDidRenderSidebar((message) => {
      if (message.what !== 'hostStatus' && message.what !== 'hostError') return;
      subscription.dispose();
      resolve(message.what);
    });
  });
  await vscode.commands.executeCommand('sharpclaw.openSidebar');
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([rendered, new Promise<string>((_, reject) => { timer = setTimeout(() => reject(new Error('the sidebar did not render within 30 s')), 30_000); })]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The first load of fixtures/Calculator, as a person allows it: restored, dotnet_solution_inspect through
 * vscode.lm.invokeTool, the permission dialog (checked) answered Allow once. Returns the tool's answer.
 */
export async function approvedCalculatorLoad(sharpclaw: SharpClawApi): Promise<string> {
  await restore('Calculator.slnx');
  const pending = invokeTool('dotnet_solution_inspect', {});
  const dialog = await sharpclaw.nextPermissionDialog!();
  if (!/Allow SharpClaw to load Calculator\.slnx with MSBuild\?/.test(dialog.message)) throw new Error(`an unexpected dialog: ${dialog.message}`);
  dialog.answer('Allow once');
  return pending;
}
