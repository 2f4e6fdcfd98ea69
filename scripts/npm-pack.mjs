// `npm run pack:cli`: the `sharpclaw` CLI and MCP server as an npm package, for machines that
// have Node and a .NET SDK but no VS Code (`npm install -g sharpclaw-0.1.0.tgz`, then `sharpclaw mcp`).
// The package is staged from the production build: the bundled CLI (with the engine it runs), the
// built Roslyn host for every OS (the .vsix carries one OS's parts; an npm package cannot know
// where it lands), the agent skill (skills/sharpclaw/SKILL.md), a short README and the license. Everything is bundled, so it has no
// dependencies to install. The extension's own package.json is not used: it lists the bundled
// libraries as dependencies and contributes VS Code things an npm user never loads.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.mjs';
import { hostFilesFor } from './package.mjs';
import { npmCli } from './npm-cli.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

/** What the CLI loads at run time, relative to dist/: the entry and the bundles it requires. */
function cliBundles() {
  return ['cli.js', 'core.js'].filter((file) => fs.existsSync(path.join(repoRoot, 'dist', file)));
}

const readme = `# sharpclaw

Exact, compiler-backed answers about C# code for AI coding agents: the \`sharpclaw\` CLI and MCP
server of the SharpClaw VS Code extension, with its Roslyn host inside. Needs Node 20+, the .NET 10
runtime for the Roslyn host (it comes with the .NET 10 SDK) and a .NET SDK that builds your projects
(8 or newer) on the PATH.

    sharpclaw mcp --cwd /path/to/solution          # MCP server on stdio (Claude Code, Codex, Cursor, …)
    sharpclaw mcp setup --client claude-code       # writes the client's MCP configuration
    sharpclaw tool csharp_navigate --input '{"action":"references","symbol":"Calculator.Add"}'
    sharpclaw verify --scope affected              # build and test what an edit affects

Nothing that runs project code (MSBuild evaluation, builds, tests) or writes files happens without
your permission: an interactive prompt, the MCP client asking you, or the flags you type (\`--allow-evaluation\`, \`--allow-write\`,
\`--allow-shell\`). \`sharpclaw --help\` lists every command and option. \`skills/sharpclaw/SKILL.md\` in this package tells an
agent which tool to use when.
`;

/** Stages the package in `outDir/package` and packs it into `outDir`; returns the tarball's path. */
export async function packCli({ outDir = path.join(repoRoot, 'out', 'npm'), skipBuild = false } = {}) {
  if (!skipBuild) await build({ production: true });
  const staging = path.join(outDir, 'package');
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(path.join(staging, 'dist', 'server'), { recursive: true });
  for (const file of cliBundles()) fs.copyFileSync(path.join(repoRoot, 'dist', file), path.join(staging, 'dist', file));
  for (const file of hostFilesFor('win32-x64')) {
    const to = path.join(staging, 'dist', 'server', file);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, 'dist', 'server', file), to);
  }
  fs.copyFileSync(path.join(repoRoot, 'LICENSE'), path.join(staging, 'LICENSE'));
  // The agent skill (Agent Skills format) for agents that load skills from the installed package.
  fs.cpSync(path.join(repoRoot, 'skills'), path.join(staging, 'skills'), { recursive: true });
  fs.writeFileSync(path.join(staging, 'README.md'), readme);
  const packageJson = {
    name: manifest.name,
    version: manifest.version,
    description: 'Compiler-backed C# answers, checked edits and a build/test verifier for AI coding agents: CLI and MCP server with a Roslyn host.',
    license: manifest.license,
    ...(manifest.repository ? { repository: manifest.repository } : {}),
    keywords: ['csharp', 'roslyn', 'mcp', 'dotnet', 'ai-agents'],
    bin: { sharpclaw: 'dist/cli.js' },
    files: ['dist/', 'skills/', 'README.md', 'LICENSE'],
    engines: { node: manifest.engines.node },
  };
  fs.writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  const output = execFileSync(process.execPath, [npmCli(), 'pack', '--json', '--pack-destination', outDir], { cwd: staging, encoding: 'utf8' });
  const [packed] = JSON.parse(output);
  const tarball = path.join(outDir, packed.filename);
  console.log(`[pack:cli] ${path.relative(repoRoot, tarball)} (${(packed.size / 1024 / 1024).toFixed(2)} MiB, ${packed.entryCount} files)`);
  return tarball;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const skipBuild = process.argv.includes('--skip-build');
  const outIndex = process.argv.indexOf('--out');
  await packCli({ skipBuild, ...(outIndex > 0 ? { outDir: path.resolve(process.argv[outIndex + 1]) } : {}) });
}
