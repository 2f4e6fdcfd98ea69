// The SDK check's answer, kept in the workspace's private state folder: `dotnet --version` in the
// target's folder costs most of a second of a warm verification, and its answer can only change with
// what it reads: which dotnet runs, the SDKs installed beside it, the global.json files it looks for
// from the target's folder up, and the DOTNET_/MSBuild environment. The fingerprint of exactly those
// inputs is computed again on every run (stats and one small file read, no process); a stored answer
// is used only when that fingerprint is the same, and only a passing check is ever stored.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listSdkVersions } from '../host/dotnetLocator';
import { fileStamp, writeKeptAnswer } from './keptAnswers';
import type { Step } from './report';

const fileName = 'sdk-check.json';

interface StoredCheck {
  fingerprint: string;
  commandLine: string;
  log: string;
}

/** The executable `dotnet` names: itself when it is a path, else the first match on PATH. */
function resolveExecutable(dotnet: string, env: NodeJS.ProcessEnv): string | null {
  const names = process.platform === 'win32' && !/\.exe$/i.test(dotnet) ? [`${dotnet}.exe`, dotnet] : [dotnet];
  const candidates = dotnet.includes('/') || dotnet.includes('\\') ? names : (env.PATH ?? '').split(path.delimiter).filter(Boolean).flatMap((dir) => names.map((name) => path.join(dir, name)));
  for (const candidate of candidates) {
    try {
      if (fs.statSync(candidate).isFile()) return fs.realpathSync(candidate);
    } catch {
      // not here
    }
  }
  return null;
}

/** The installation `dotnet` runs from (the resolved executable's folder), or null when no dotnet is found. */
export function dotnetRootOf(dotnet: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const executable = resolveExecutable(dotnet, env);
  return executable ? path.dirname(executable) : null;
}

/**
 * The fingerprint of everything `dotnet --version` in `targetDir` reads, or null when it cannot be
 * known (no dotnet found: the check runs, and says so).
 */
export function sdkCheckFingerprint(dotnet: string, targetDir: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const executable = resolveExecutable(dotnet, env);
  if (!executable) return null;
  const root = path.dirname(executable);
  const sdkFolder = path.join(root, 'sdk');
  // The installed SDKs as the host's locator lists them, each with its dotnet.dll's stamp (a reinstall in place).
  const sdks = listSdkVersions(root).map((version) => `${version}=${fileStamp(path.join(sdkFolder, version, 'dotnet.dll')) ?? '-'}`);
  // global.json from the target's folder up: the first one found is the one dotnet uses; every folder
  // below it is recorded as having none (a global.json added there changes the fingerprint).
  const globalJson: string[] = [];
  for (let dir = path.resolve(targetDir); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'global.json');
    let text: string | null = null;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      // none in this folder
    }
    globalJson.push(`${file}=${text === null ? '-' : createHash('sha256').update(text).digest('hex')}`);
    if (text !== null || path.dirname(dir) === dir) break;
  }
  const environment = Object.keys(env)
    .filter((name) => /^(DOTNET_|MSBUILD|NUGET_|PATH$)/i.test(name))
    .sort()
    .map((name) => `${name}=${env[name] ?? ''}`);
  const inputs = { executable, executableStamp: fileStamp(executable), sdkFolder: fileStamp(sdkFolder), sdks, globalJson, environment };
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
}

/** The stored passing check for this fingerprint, as the step the report lists, or null. */
export function storedSdkCheck(stateDir: string, fingerprint: string, target: string, cwd: string): Step | null {
  let stored: StoredCheck;
  try {
    stored = JSON.parse(fs.readFileSync(path.join(stateDir, fileName), 'utf8')) as StoredCheck;
  } catch {
    return null;
  }
  if (stored.fingerprint !== fingerprint || typeof stored.log !== 'string' || typeof stored.commandLine !== 'string') return null;
  const text = `${stored.log.trim()}\n(reused: dotnet, its installed SDKs, global.json and the dotnet environment are unchanged since this check passed)\n`;
  return {
    kind: 'sdk',
    target,
    commandLine: stored.commandLine,
    cwd,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    outcome: 'exited',
    exitCode: 0,
    log: { text, truncated: false, totalBytes: Buffer.byteLength(text) },
  };
}

/** Keeps a passing check's answer for the next run with the same fingerprint (a failure to write only costs the next run the check). */
export function storeSdkCheck(stateDir: string, fingerprint: string, step: Step): void {
  if (step.outcome !== 'exited' || step.exitCode !== 0) return;
  const stored: StoredCheck = { fingerprint, commandLine: step.commandLine, log: step.log.text };
  writeKeptAnswer(path.join(stateDir, fileName), stored);
}
