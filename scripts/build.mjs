// The whole build: npm dependencies when missing, the TypeScript type check, the esbuild
// bundles, the compiled tests and the Roslyn host.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit', cwd: repoRoot });

/** `npm ci` when node_modules is missing or older than the lock file. */
export function ensureNodeModules() {
  const marker = path.join(repoRoot, 'node_modules', '.package-lock.json');
  const lock = path.join(repoRoot, 'package-lock.json');
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  console.log('[build] installing npm packages (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

export async function build({ production = false } = {}) {
  ensureNodeModules();
  const { buildServer } = await import('./build-server.mjs');
  console.log('[build] type check and compile tests (tsc)');
  run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.test.json']);
  run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'webview-ui/tsconfig.json']);
  console.log('[build] bundles (esbuild)');
  run(process.execPath, ['esbuild.mjs', ...(production ? ['--production'] : [])]);
  buildServer();
}

if (import.meta.url === `file://${process.argv[1]}`) await build({ production: process.argv.includes('--production') });
