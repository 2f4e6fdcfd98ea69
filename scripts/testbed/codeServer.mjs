// Starts code-server (a real VS Code server with a Node extension host) on a free localhost
// port, with a fresh user-data folder, and stops it again. Shared by the integration harness,
// the benchmarks and `npm start`.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot, codeServerEntry, codeServerVersions, node24Binary } from './paths.mjs';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function httpStatus(url) {
  return new Promise((resolve) => {
    http.get(url, (response) => { response.resume(); resolve(response.statusCode ?? 0); }).on('error', () => resolve(0));
  });
}

export const defaultUserSettings = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'workbench.tips.enabled': false,
  'update.mode': 'none',
  'chat.commandCenter.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.colorTheme': 'Default Dark Modern',
  // Desktop VS Code's default. In the browser VS Code auto-saves 1 s after an edit, which under load
  // saved a test's deliberately unsaved buffer, or left a test's own save() nothing to save (false).
  'files.autoSave': 'off',
};

/**
 * Installs a .vsix the way a person does (`code-server --install-extension`), into the
 * extensions folder that startCodeServer({ workDir }) uses. Returns code-server's output.
 */
export function installExtension({ version, workDir, vsix }) {
  const spec = codeServerVersions[version];
  if (!spec) throw new Error(`Unknown VS Code version key "${version}"; valid: ${Object.keys(codeServerVersions).join(', ')}`);
  const node = spec.node === 'system' ? process.execPath : node24Binary();
  const args = [codeServerEntry(spec.codeServer), '--user-data-dir', path.join(workDir, 'udd'), '--extensions-dir', path.join(workDir, 'exts'), '--install-extension', vsix];
  return execFileSync(node, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Packs a test-only extension folder (never part of SharpClaw's package, e.g.
 * test/integration/chat/scripted-model) with vsce (once per version: packedTestExtension) and installs it like a person's extension into
 * the extensions folder that startCodeServer({ workDir }) uses: code-server loads only one
 * extensionDevelopmentPath, SharpClaw's.
 */
export function installTestExtension({ version, workDir, folder }) {
  return installExtension({ version, workDir, vsix: packedTestExtension(folder, workDir) });
}

/**
 * The test-only extension folder packed with vsce, once per version of its files and of vsce: kept in
 * the test bed's cache (<cacheRoot>/test-extensions/<name>-<hash>.vsix; the entry of an older version is
 * removed), so a session installs it without packing it again (vsce took about 3 CPU-s a pack, and the
 * chat suite and e2e each pack it every run).
 */
function packedTestExtension(folder, workDir) {
  const name = path.basename(folder);
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce');
  const hash = createHash('sha256').update(`vsce ${JSON.parse(fs.readFileSync(path.join(vsce, 'package.json'), 'utf8')).version}\n`);
  const files = fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => fs.statSync(path.join(folder, file)).isFile()).sort();
  for (const file of files) hash.update(`${file.split(path.sep).join('/')}\n`).update(fs.readFileSync(path.join(folder, file))).update('\n');
  const cache = path.join(cacheRoot, 'test-extensions');
  const vsix = path.join(cache, `${name}-${hash.digest('hex').slice(0, 16)}.vsix`);
  if (fs.existsSync(vsix)) return vsix;
  fs.mkdirSync(cache, { recursive: true });
  const staging = fs.mkdtempSync(path.join(workDir, 'test-extension-'));
  fs.cpSync(folder, staging, { recursive: true });
  const packed = path.join(workDir, `${name}.vsix`);
  execFileSync(process.execPath, [path.join(vsce, 'vsce'), 'package', '--allow-missing-repository', '--skip-license', '-o', packed], { cwd: staging, stdio: 'pipe' });
  // Copied in under a name of its own, then renamed: a session packing it at the same time loses the race harmlessly.
  const pending = `${vsix}.${process.pid}.tmp`;
  fs.copyFileSync(packed, pending);
  fs.renameSync(pending, vsix);
  for (const entry of fs.readdirSync(cache)) {
    if (entry.startsWith(`${name}-`) && entry.endsWith('.vsix') && entry !== path.basename(vsix)) fs.rmSync(path.join(cache, entry), { force: true });
  }
  return vsix;
}

/**
 * @param {{ version: 'min' | 'latest', workDir: string, folder: string, env?: Record<string,string>,
 *   settings?: Record<string, unknown>, port?: number, logFile: string, disableWorkspaceTrust?: boolean }} options
 */
export async function startCodeServer(options) {
  const spec = codeServerVersions[options.version];
  if (!spec) throw new Error(`Unknown VS Code version key "${options.version}"; valid: ${Object.keys(codeServerVersions).join(', ')}`);
  const entry = codeServerEntry(spec.codeServer);
  if (!fs.existsSync(entry)) throw new Error(`code-server ${spec.codeServer} is not installed (${entry}); run node scripts/testbed/install.mjs`);
  const node = spec.node === 'system' ? process.execPath : node24Binary();
  const port = options.port ?? (await freePort());
  const userDataDir = path.join(options.workDir, 'udd');
  const extensionsDir = path.join(options.workDir, 'exts');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...defaultUserSettings, ...(options.settings ?? {}) }, null, 1),
  );
  const args = [
    entry, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
    '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override', '--ignore-last-opened',
    ...(options.disableWorkspaceTrust === false ? [] : ['--disable-workspace-trust']),
    ...(spec.node === 'system' ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
    options.folder,
  ];
  const log = fs.createWriteStream(options.logFile);
  const child = spawn(node, args, {
    env: { ...process.env, ...(options.env ?? {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so stop() ends the extension host and the Roslyn host too
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while ((await httpStatus(`${baseUrl}/healthz`)) !== 200) {
    if (child.exitCode !== null) throw new Error(`code-server exited with code ${child.exitCode}; see ${options.logFile}`);
    if (Date.now() > deadline) throw new Error(`code-server did not answer /healthz within 60 s; see ${options.logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    port,
    baseUrl,
    vscodeVersion: spec.vscode,
    /** The workbench URL, optionally loading an extension under development and a test entry. */
    workbenchUrl({ extensionDevelopmentPath, extensionTestsPath } = {}) {
      const remote = `vscode-remote://127.0.0.1:${port}`;
      const payload = [];
      if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', `${remote}${extensionDevelopmentPath}`]);
      if (extensionTestsPath) payload.push(['extensionTestsPath', `${remote}${extensionTestsPath}`]);
      const query = `folder=${encodeURIComponent(options.folder)}` + (payload.length ? `&payload=${encodeURIComponent(JSON.stringify(payload))}` : '');
      return `${baseUrl}/?${query}`;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
        const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, 5000);
        await exited;
        clearTimeout(timer);
      }
      log.end();
    },
  };
}
