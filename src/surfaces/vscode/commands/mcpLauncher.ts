// What Set Up MCP for Another Agent… names as the server's command, so that the entry survives a
// SharpClaw update: `sharpclaw` when the npm package is on PATH (portable: the same on every
// machine that has it), else a launcher in the extension's global storage, whose path does not
// change when the extension does. The launcher (a shell script, a .cmd on Windows, and a small
// JavaScript file beside it) runs the CLI of the newest SharpClaw extension installed beside this
// one — an update installs a new versioned folder and removes the old one — with VS Code's own
// runtime when it is still there (no Node needed on PATH), else `node` from PATH. It is rewritten
// when the setup runs and when the extension starts, if it exists. No vscode import: the host-e2e
// test that installs two versions drives it directly.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface LauncherPlaces {
  /** The extension's global storage folder (context.globalStorageUri.fsPath). */
  storageFolder: string;
  /** This installation's folder (context.extensionPath). */
  extensionPath: string;
  /** publisher.name (context.extension.id); installed folders are `<id>-<version>[-<platform>]`. */
  extensionId: string;
  /** The runtime running the extension host (process.execPath: VS Code's, run as Node). */
  runtime: string;
  platform?: NodeJS.Platform;
}

/** The command a configuration names: the launcher script. */
export function launcherCommandPath(storageFolder: string, platform: NodeJS.Platform = process.platform): string {
  return path.join(storageFolder, 'bin', platform === 'win32' ? 'sharpclaw.cmd' : 'sharpclaw');
}

/** `sharpclaw` on PATH (the npm package), if there is one: its full path. */
export function sharpclawOnPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  const names = platform === 'win32' ? ['sharpclaw.cmd', 'sharpclaw.exe'] : ['sharpclaw'];
  for (const folder of (env.PATH ?? env.Path ?? '').split(path.delimiter)) {
    if (!folder || !path.isAbsolute(folder)) continue;
    for (const name of names) {
      const candidate = path.join(folder, name);
      try {
        if (!fs.statSync(candidate).isFile()) continue;
        if (platform !== 'win32') fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      } catch {
        // Not there, or not executable.
      }
    }
  }
  return undefined;
}

/** The JavaScript the launcher runs: picks the newest installed extension's dist/cli.js and requires it. */
function launcherScript(places: LauncherPlaces): string {
  const extensions = path.dirname(places.extensionPath);
  return `// SharpClaw's MCP launcher, written by the SharpClaw VS Code extension (and rewritten when it starts).
// It runs the CLI of the newest SharpClaw extension installed in the folder below, so an agent's MCP
// configuration that names this launcher keeps working after SharpClaw updates.
'use strict';
const fs = require('fs');
const path = require('path');
const extensions = ${JSON.stringify(extensions)};
const prefix = ${JSON.stringify(`${places.extensionId.toLowerCase()}-`)};
const recorded = ${JSON.stringify(places.extensionPath)};
let obsolete = {};
try { obsolete = JSON.parse(fs.readFileSync(path.join(extensions, '.obsolete'), 'utf8')) || {}; } catch {}
let names = [];
try { names = fs.readdirSync(extensions); } catch {}
function newer(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}
let best;
let bestVersion;
for (const name of names) {
  if (!name.toLowerCase().startsWith(prefix) || obsolete[name]) continue;
  const match = /^(\\d+)\\.(\\d+)\\.(\\d+)/.exec(name.slice(prefix.length));
  const cli = path.join(extensions, name, 'dist', 'cli.js');
  if (!match || !fs.existsSync(cli)) continue;
  const version = match.slice(1).map(Number);
  if (!bestVersion || newer(version, bestVersion)) { best = cli; bestVersion = version; }
}
if (!best && fs.existsSync(path.join(recorded, 'dist', 'cli.js'))) best = path.join(recorded, 'dist', 'cli.js');
if (!best) {
  process.stderr.write('SharpClaw\\'s MCP launcher found no SharpClaw extension in ' + extensions + '; reinstall the extension and run Set Up MCP for Another Agent again, or install the CLI (npm install -g sharpclaw) and name "sharpclaw" as the command.\\n');
  process.exit(1);
}
require(best);
`;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function unixWrapper(script: string, runtime: string): string {
  return `#!/bin/sh
# SharpClaw's MCP launcher (it runs ${path.basename(script)} beside it), written by the SharpClaw VS Code extension.
# VS Code's own runtime runs it when it is still there, else node from PATH.
runtime=${shellQuote(runtime)}
if [ -x "$runtime" ]; then
  ELECTRON_RUN_AS_NODE=1 exec "$runtime" ${shellQuote(script)} "$@"
fi
if command -v node >/dev/null 2>&1; then
  exec node ${shellQuote(script)} "$@"
fi
echo "SharpClaw's MCP launcher: VS Code's runtime ($runtime) is gone and node is not on PATH; start VS Code once (SharpClaw then rewrites this launcher) or install Node.js 20 or newer." >&2
exit 1
`;
}

function windowsWrapper(script: string, runtime: string): string {
  return [
    '@echo off',
    `rem SharpClaw's MCP launcher (it runs ${path.basename(script)} beside it), written by the SharpClaw VS Code extension.`,
    'setlocal',
    `set "SHARPCLAW_RUNTIME=${runtime}"`,
    'if exist "%SHARPCLAW_RUNTIME%" (',
    '  set ELECTRON_RUN_AS_NODE=1',
    `  "%SHARPCLAW_RUNTIME%" "${script}" %*`,
    '  exit /b %errorlevel%',
    ')',
    `node "${script}" %*`,
    '',
  ].join('\r\n');
}

function writeIfChanged(file: string, text: string, mode: number): void {
  let current: string | undefined;
  try {
    current = fs.readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text && (fs.statSync(file).mode & 0o777) === mode) return;
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text, { mode });
  fs.chmodSync(temp, mode);
  fs.renameSync(temp, file);
}

/** Writes (or refreshes) the launcher; returns the command to name. */
export function writeMcpLauncher(places: LauncherPlaces): string {
  const platform = places.platform ?? process.platform;
  const bin = path.join(places.storageFolder, 'bin');
  fs.mkdirSync(bin, { recursive: true, mode: 0o700 });
  const script = path.join(bin, 'sharpclaw-launcher.js');
  const command = launcherCommandPath(places.storageFolder, platform);
  writeIfChanged(script, launcherScript(places), 0o644);
  writeIfChanged(command, platform === 'win32' ? windowsWrapper(script, places.runtime) : unixWrapper(script, places.runtime), 0o755);
  return command;
}

/** At the extension's start: refreshes a launcher an earlier setup wrote (new runtime, new folder); writes none otherwise. */
export function refreshMcpLauncher(places: LauncherPlaces): void {
  if (fs.existsSync(launcherCommandPath(places.storageFolder, places.platform ?? process.platform))) writeMcpLauncher(places);
}
