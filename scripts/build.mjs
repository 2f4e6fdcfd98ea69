// The whole build: npm dependencies when missing, the TypeScript type check, the esbuild
// bundles, the compiled tests and the Roslyn host.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit', cwd: repoRoot });

/** `npm ci` when node_modules is missing or older than the lock file. */
/** npm's hidden lock mirrors package-lock.json's "packages"; equal package maps mean the install is current. */
function sameLockContent(lock, marker) {
  try {
    const wanted = JSON.parse(fs.readFileSync(lock, 'utf8')).packages ?? {};
    const installed = JSON.parse(fs.readFileSync(marker, 'utf8')).packages ?? {};
    // Optional packages for other platforms are listed in the lock but never installed.
    const required = Object.entries(wanted).filter(([name, info]) => name !== '' && !info.optional);
    return required.every(([name, info]) => installed[name]?.version === info.version)
      && Object.entries(installed).every(([name, info]) => wanted[name]?.version === info.version);
  } catch {
    return false;
  }
}

export function ensureNodeModules() {
  const marker = path.join(repoRoot, 'node_modules', '.package-lock.json');
  const lock = path.join(repoRoot, 'package-lock.json');
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  // A linked node_modules (a second checkout sharing packages) is someone else's install: never wipe it.
  const modules = path.join(repoRoot, 'node_modules');
  if (fs.existsSync(modules) && fs.lstatSync(modules).isSymbolicLink()) {
    console.log('[build] node_modules is a link to another checkout; not reinstalling (run npm ci there if packages changed)');
    return;
  }
  // Same packages, newer lock timestamp only (a fresh checkout): nothing to install.
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').length > 0 && sameLockContent(lock, marker)) return;
  console.log('[build] installing npm packages (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/** typeCheck: false only where this same tree was just type-checked (`node scripts/package.mjs --no-type-check`). */
export async function build({ production = false, typeCheck = true } = {}) {
  ensureNodeModules();
  const { buildServer } = await import('./build-server.mjs');
  if (typeCheck) {
    console.log('[build] type check and compile tests (tsc)');
    run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.test.json']);
    run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'webview-ui/tsconfig.json']);
  }
  console.log('[build] bundles (esbuild)');
  run(process.execPath, ['esbuild.mjs', ...(production ? ['--production'] : [])]);
  buildServer();
}

if (import.meta.url === `file://${process.argv[1]}`) await build({ production: process.argv.includes('--production') });
