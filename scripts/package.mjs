// `npm run package`: a production build and a .vsix that contains the built Roslyn host.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const vsix = path.join(repoRoot, `${manifest.name}-${manifest.version}.vsix`);

await build({ production: true });
execFileSync(process.execPath, ['node_modules/@vscode/vsce/vsce', 'package', '--no-dependencies', '--out', vsix], { stdio: 'inherit', cwd: repoRoot });
const listing = execFileSync(process.execPath, ['node_modules/@vscode/vsce/vsce', 'ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' });
for (const required of ['dist/extension.js', 'dist/core.js', 'dist/cli.js', 'dist/webview/main.js', 'dist/server/SharpClaw.Server.dll', 'media/icon.png']) {
  if (!listing.split('\n').includes(required)) throw new Error(`${path.basename(vsix)} is missing ${required}`);
}
console.log(`[package] ${path.relative(repoRoot, vsix)} (${(fs.statSync(vsix).size / 1024 / 1024).toFixed(1)} MiB) contains the extension, the webview and the Roslyn host`);
