// Publishes the Roslyn host (framework-dependent) into dist/server, where the extension and
// the .vsix expect it. Skips the publish when no server source changed since the last one.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(repoRoot, 'dist', 'server');
const stamp = path.join(outDir, '.build-stamp');
const project = path.join(repoRoot, 'server', 'src', 'SharpClaw.Server', 'SharpClaw.Server.csproj');

function newestSourceTime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (['bin', 'obj', 'tests'].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceTime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

export function buildServer({ force = false } = {}) {
  const sourcesChanged = !fs.existsSync(stamp) || newestSourceTime(path.join(repoRoot, 'server')) > fs.statSync(stamp).mtimeMs;
  if (!force && !sourcesChanged && fs.existsSync(path.join(outDir, 'SharpClaw.Server.dll'))) {
    console.log('[build] server: up to date');
    return;
  }
  console.log('[build] server: dotnet publish → dist/server');
  fs.rmSync(outDir, { recursive: true, force: true });
  execFileSync('dotnet', ['publish', project, '-c', 'Release', '-o', outDir, '-nologo', '--tl:off', '-v:q', '-p:UseAppHost=false'], {
    stdio: 'inherit',
    cwd: repoRoot,
  });
  fs.writeFileSync(stamp, new Date().toISOString());
}

if (import.meta.url === `file://${process.argv[1]}`) buildServer({ force: process.argv.includes('--force') });
