// `npm run screenshots`: regenerates the README's screenshots (docs/*.jpg) from the installed
// extension — the .vsix of this machine's platform, installed into code-server and driven in
// Chromium by the package smoke suite (test/package) — then packages again, so the package's
// README carries the new images.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageExtension } from './package.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await packageExtension();
execFileSync(process.execPath, ['node_modules/mocha/bin/mocha.js', '--config', '.mocharc.package.json'], { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, SHARPCLAW_UPDATE_SCREENSHOTS: '1' } });
await packageExtension({ skipBuild: true });
console.log('[screenshots] docs/*.jpg regenerated from the installed extension; the package carries them');
