// `npm run package`: a production build and a .vsix that contains the built Roslyn host.
// The package's README (the Marketplace page and VS Code's extension details) is the user README,
// docs/user-readme.md, not the developers' README.md. VS Code's details view renders a README in
// a webview that allows only https: and data: images, and the package has no public repository to
// link images to, so its images are inlined as data: URIs into dist/readme/README.md.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
export const vsixPath = path.join(repoRoot, `${manifest.name}-${manifest.version}.vsix`);
const userReadme = path.join(repoRoot, 'docs', 'user-readme.md');
const packagedReadme = path.join(repoRoot, 'dist', 'readme', 'README.md');
/**
 * Packages over this size fail: a guard against regressions. 17.1 MiB before issue 18; the
 * satellite resource assemblies, PDBs and source maps are gone. Issue 18's goal of 12 MiB is not
 * met: what remains is Roslyn itself (7.8 MiB compressed), StreamJsonRpc and its serializers
 * (the host hangs without MessagePack/Newtonsoft, which JsonRpc loads), and the .NET Framework
 * build host that Roslyn uses for non-SDK-style projects on Windows (and under Mono).
 */
export const maxVsixBytes = 13.5 * 1024 * 1024;

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

const vsceArgs = ['--no-dependencies', '--readme-path', path.relative(repoRoot, packagedReadme), '--no-rewrite-relative-links', '--allow-missing-repository'];

export async function packageExtension({ skipBuild = false } = {}) {
  if (!skipBuild) await build({ production: true });
  fs.mkdirSync(path.dirname(packagedReadme), { recursive: true });
  fs.writeFileSync(packagedReadme, inlineImages(fs.readFileSync(userReadme, 'utf8'), path.dirname(userReadme)));
  const vsce = (args, options = {}) => execFileSync(process.execPath, ['node_modules/@vscode/vsce/vsce', ...args], { cwd: repoRoot, ...options });
  vsce(['package', ...vsceArgs, '--out', vsixPath], { stdio: 'inherit' });
  const listing = vsce(['ls', ...vsceArgs.filter((arg) => arg !== '--no-rewrite-relative-links' && arg !== '--allow-missing-repository')], { encoding: 'utf8' }).split('\n');
  for (const required of ['dist/extension.js', 'dist/core.js', 'dist/cli.js', 'dist/webview/main.js', 'dist/server/SharpClaw.Server.dll', 'dist/server/BuildHost-netcore/Microsoft.CodeAnalysis.Workspaces.MSBuild.BuildHost.dll', 'media/icon.png']) {
    if (!listing.includes(required)) throw new Error(`${path.basename(vsixPath)} is missing ${required}`);
  }
  const unwanted = listing.filter((file) => /\.pdb$|^README\.md$|^docs\/|\/(cs|de|es|fr|it|ja|ko|pl|pt-BR|ru|tr|zh-Hans|zh-Hant)\/[^/]+\.resources\.dll$/.test(file));
  if (unwanted.length > 0) throw new Error(`${path.basename(vsixPath)} contains files users never load: ${unwanted.slice(0, 5).join(', ')}`);
  const bytes = fs.statSync(vsixPath).size;
  console.log(`[package] ${path.relative(repoRoot, vsixPath)} (${(bytes / 1024 / 1024).toFixed(2)} MiB, ${listing.filter(Boolean).length} files) contains the extension, the webview and the Roslyn host`);
  if (bytes > maxVsixBytes) throw new Error(`${path.basename(vsixPath)} is ${(bytes / 1024 / 1024).toFixed(2)} MiB, over the ${maxVsixBytes / 1024 / 1024} MiB budget`);
  return { vsix: vsixPath, bytes, files: listing.filter(Boolean) };
}

if (import.meta.url === `file://${process.argv[1]}`) await packageExtension({ skipBuild: process.argv.includes('--skip-build') });
