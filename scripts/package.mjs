// `npm run package`: a production build and a .vsix that contains the built Roslyn host, for one
// VS Code platform target (vsce --target; VS Code installs the package built for its platform).
// By default the target of this machine; `npm run package -- --target win32-x64` (or `all`) builds others.
// What differs per target is only what only one OS loads (see hostFilesFor). The package's README
// (the Marketplace page and VS Code's extension details) is the user README,
// docs/user-readme.md, not the developers' README.md. VS Code's details view renders a README in
// a webview that allows only https: and data: images, and the package has no public repository to
// link images to, so its images are inlined as data: URIs into dist/readme/README.md.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.mjs';
import { recompressZipFile } from './zip-recompress.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const serverDir = path.join(repoRoot, 'dist', 'server');

/** VS Code's desktop platform targets (`vsce package --target`). */
export const targets = ['win32-x64', 'win32-arm64', 'linux-x64', 'linux-arm64', 'linux-armhf', 'alpine-x64', 'alpine-arm64', 'darwin-x64', 'darwin-arm64'];

/** The target VS Code on this machine installs: its OS (Alpine for musl Linux) and CPU. */
export function currentTarget() {
  const arch = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[process.arch];
  const musl = process.platform === 'linux' && !process.report?.getReport().header.glibcVersionRuntime;
  const os = { win32: 'win32', darwin: 'darwin', linux: musl ? 'alpine' : 'linux' }[process.platform];
  const target = `${os}-${arch}`;
  if (!targets.includes(target)) throw new Error(`VS Code has no platform target for ${process.platform}-${process.arch}`);
  return target;
}

export function vsixPathFor(target) {
  return path.join(repoRoot, `${manifest.name}-${target}-${manifest.version}.vsix`);
}

/**
 * The host's files a target ships (relative to dist/server): its runtime files (no debug symbols,
 * which only add build-machine paths to stack traces), minus what only Windows loads when the
 * target is not Windows: the .NET Framework build host, which MSBuildWorkspace starts for
 * non-SDK-style (legacy .NET Framework) projects on Windows only (elsewhere BuildHost-netcore loads
 * them, or Mono when installed), and the `runtimes/win*` assets .NET picks only on Windows.
 */
export function hostFilesFor(target) {
  const windows = target.startsWith('win32-');
  const runtimeFile = /\.(dll|exe|json|config|so|dylib)$/;
  const native = /^runtimes\/([^/]+)\/native\//;
  return fs.readdirSync(serverDir, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => runtimeFile.test(file) && fs.statSync(path.join(serverDir, file)).isFile())
    .filter((file) => windows || !(/^BuildHost-net472\//.test(file) || /^runtimes\/win[^/]*\//.test(file)))
    .filter((file) => !native.test(file) || native.exec(file)[1] === nativeRuntimeOf(target))
    .sort();
}

/**
 * The .NET runtime identifier whose `runtimes/<rid>/native/` library (the store's SQLite, e_sqlite3)
 * a target loads: each package ships only its own (the publish output has all twenty).
 */
export function nativeRuntimeOf(target) {
  const rids = { 'win32-x64': 'win-x64', 'win32-arm64': 'win-arm64', 'linux-x64': 'linux-x64', 'linux-arm64': 'linux-arm64', 'linux-armhf': 'linux-arm', 'alpine-x64': 'linux-musl-x64', 'alpine-arm64': 'linux-musl-arm64', 'darwin-x64': 'osx-x64', 'darwin-arm64': 'osx-arm64' };
  return rids[target];
}

const userReadme = path.join(repoRoot, 'docs', 'user-readme.md');
const packagedReadme = path.join(repoRoot, 'dist', 'readme', 'README.md');
/**
 * Packages over this size fail: issue 18's goal of 12 MiB (17.1 MiB before it), which the benchmark
 * table reports per target. What remains is mostly Roslyn itself and StreamJsonRpc with the serializers
 * JsonRpc loads, and the store's native SQLite (e_sqlite3, the target's own only). Windows packages
 * also carry the .NET Framework build host and the Windows runtime assets (0.7 MiB), which Windows
 * users need for legacy project files; with the store's e_sqlite3.dll (1.07 MiB deflated) they no
 * longer fit 12 MiB, so Windows targets get 13 MiB. Every package fits only with Zopfli's deflate
 * (scripts/zip-recompress.mjs, the @gfx/zopfli dev dependency).
 */
export function maxVsixBytesFor(target) {
  return (String(target).startsWith('win32-') ? 13 : 12) * 1024 * 1024;
}

/** The user README with each relative PNG/JPEG image inlined as a data: URI. */
export function inlineImages(markdown, baseDir) {
  return markdown.replace(/(!\[[^\]]*\]\()([^)\s]+)(\))/g, (all, open, link, close) => {
    if (/^(https?|data):/i.test(link)) return all;
    const file = path.resolve(baseDir, link);
    const type = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg' }[path.extname(file).toLowerCase()];
    if (!type) throw new Error(`${path.relative(repoRoot, userReadme)}: image ${link} must be a PNG or JPEG (the details view allows no SVG)`);
    if (!fs.existsSync(file)) throw new Error(`${path.relative(repoRoot, userReadme)}: image ${link} does not exist`);
    return `${open}data:${type};base64,${fs.readFileSync(file).toString('base64')}${close}`;
  });
}

/** .vscodeignore plus this target's host files: vsce keeps whatever a "!" line matches, so each is named. */
function writeIgnoreFile(target) {
  const file = path.join(repoRoot, 'dist', 'package', `${target}.vscodeignore`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const hostLines = hostFilesFor(target).map((name) => `!dist/server/${name}`);
  fs.writeFileSync(file, `${fs.readFileSync(path.join(repoRoot, '.vscodeignore'), 'utf8').trimEnd()}\n# The Roslyn host's files for ${target} (scripts/package.mjs)\n${hostLines.join('\n')}\n`);
  return path.relative(repoRoot, file);
}

/** enforceBudget: false only for the size bench, which reports an over-budget package as a failed goal instead of stopping. */
export async function packageExtension({ skipBuild = false, target = currentTarget(), enforceBudget = true } = {}) {
  if (!targets.includes(target)) throw new Error(`unknown target ${target}; one of: ${targets.join(', ')}`);
  if (!skipBuild) await build({ production: true });
  fs.mkdirSync(path.dirname(packagedReadme), { recursive: true });
  fs.writeFileSync(packagedReadme, inlineImages(fs.readFileSync(userReadme, 'utf8'), path.dirname(userReadme)));
  const vsix = vsixPathFor(target);
  const common = ['--no-dependencies', '--readme-path', path.relative(repoRoot, packagedReadme), '--ignoreFile', writeIgnoreFile(target)];
  const vsce = (args, options = {}) => execFileSync(process.execPath, ['node_modules/@vscode/vsce/vsce', ...args], { cwd: repoRoot, ...options });
  vsce(['package', ...common, '--no-rewrite-relative-links', '--allow-missing-repository', '--target', target, '--out', vsix], { stdio: 'inherit' });
  const recompressed = await recompressZipFile(vsix);
  console.log(`[package] recompressed with ${recompressed.deflater}: ${(recompressed.before / 1024 / 1024).toFixed(2)} → ${(recompressed.after / 1024 / 1024).toFixed(2)} MiB`);
  const listing = vsce(['ls', ...common], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const required = ['dist/extension.js', 'dist/core.js', 'dist/cli.js', 'dist/webview/main.js', 'dist/server/SharpClaw.Server.dll', 'dist/server/BuildHost-netcore/Microsoft.CodeAnalysis.Workspaces.MSBuild.BuildHost.dll', 'media/icon.png'];
  if (target.startsWith('win32-')) required.push('dist/server/BuildHost-net472/Microsoft.CodeAnalysis.Workspaces.MSBuild.BuildHost.exe');
  const sqlite = target.startsWith('win32-') ? 'e_sqlite3.dll' : target.startsWith('darwin-') ? 'libe_sqlite3.dylib' : 'libe_sqlite3.so';
  required.push(`dist/server/runtimes/${nativeRuntimeOf(target)}/native/${sqlite}`);
  for (const file of required) {
    if (!listing.includes(file)) throw new Error(`${path.basename(vsix)} is missing ${file}`);
  }
  const unwanted = listing.filter((file) => /\.pdb$|^README\.md$|^docs\/|\/(cs|de|es|fr|it|ja|ko|pl|pt-BR|ru|tr|zh-Hans|zh-Hant)\/[^/]+\.resources\.dll$/.test(file)
    || (!target.startsWith('win32-') && /^dist\/server\/(BuildHost-net472|runtimes\/win)/.test(file))
    || (/^dist\/server\/runtimes\/[^/]+\/native\//.test(file) && !file.startsWith(`dist/server/runtimes/${nativeRuntimeOf(target)}/native/`)));
  if (unwanted.length > 0) throw new Error(`${path.basename(vsix)} contains files users never load: ${unwanted.slice(0, 5).join(', ')}`);
  const bytes = fs.statSync(vsix).size;
  console.log(`[package] ${path.relative(repoRoot, vsix)} (${target}, ${(bytes / 1024 / 1024).toFixed(2)} MiB, ${listing.length} files) contains the extension, the webview and the Roslyn host`);
  if (bytes > maxVsixBytesFor(target) && enforceBudget) {
    const hint = recompressed.deflater.startsWith('zopfli') ? '' : ' (deflated with zlib: install the @gfx/zopfli dev dependency, which deflates 6 % smaller)';
    throw new Error(`${path.basename(vsix)} is ${(bytes / 1024 / 1024).toFixed(2)} MiB, over the ${maxVsixBytesFor(target) / 1024 / 1024} MiB budget for ${target}${hint}`);
  }
  return { vsix, target, bytes, files: listing, deflater: recompressed.deflater };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const option = process.argv.indexOf('--target');
  const wanted = option > 0 ? process.argv[option + 1] : currentTarget();
  const skipBuild = process.argv.includes('--skip-build');
  for (const [index, target] of (wanted === 'all' ? targets : [wanted]).entries()) await packageExtension({ skipBuild: skipBuild || index > 0, target });
}
