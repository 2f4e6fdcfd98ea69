// `npm start`: installs what is missing, builds, and opens VS Code with SharpClaw loaded on the
// sample workspace fixtures/Calculator. Uses your own VS Code when `code` is on PATH; otherwise
// starts code-server and prints the localhost address to open.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sample = path.join(repoRoot, 'fixtures', 'Calculator');

function onPath(command) {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function main() {
  await build();
  if (onPath('code') && !process.env.SHARPCLAW_USE_CODE_SERVER) {
    console.log('[start] opening VS Code with SharpClaw on fixtures/Calculator');
    spawn('code', ['--new-window', `--extensionDevelopmentPath=${repoRoot}`, sample], { stdio: 'inherit', detached: true }).unref();
    return;
  }
  const { installTestBed } = await import('./testbed/install.mjs');
  const { startCodeServer } = await import('./testbed/codeServer.mjs');
  installTestBed({ versions: ['latest'], browser: false });
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sharpclaw-start-'));
  const port = Number(process.env.PORT ?? 8080);
  const server = await startCodeServer({
    version: 'latest',
    workDir,
    folder: sample,
    port,
    disableWorkspaceTrust: false, // keep VS Code's Workspace Trust prompt: you decide whether the sample is trusted
    settings: { 'security.workspace.trust.enabled': true },
    logFile: path.join(workDir, 'code-server.log'),
  });
  const url = server.workbenchUrl({ extensionDevelopmentPath: repoRoot });
  console.log(`\n[start] VS Code ${server.vscodeVersion} (code-server) with SharpClaw on fixtures/Calculator:\n\n    ${url}\n`);
  console.log('[start] open the SharpClaw icon in the activity bar to see the live host status. Ctrl+C stops.');
  const stop = async () => {
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(`[start] ${error instanceof Error ? error.message : error}`);
  if (error?.code === 'EADDRINUSE' || /EADDRINUSE/.test(String(error))) console.error('[start] set PORT to a free port, e.g. PORT=8081 npm start');
  process.exitCode = 1;
});
