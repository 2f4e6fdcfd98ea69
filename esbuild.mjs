// Bundles the extension (Node, CommonJS, `vscode` external), the CLI and the report webview (browser IIFE).
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
import { mcpSmallValidator } from './scripts/esbuild-mcp-validator.mjs';
import { zodEnglishOnly } from './scripts/esbuild-zod-english.mjs';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  // ESM entry points first: UMD builds (jsonc-parser) hide their requires from the bundler.
  mainFields: ['module', 'main'],
  minify: production,
  sourcemap: !production,
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [zodEnglishOnly, mcpSmallValidator],
};

const builds = [
  {
    ...common,
    entryPoints: ['src/surfaces/vscode/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // core.js is loaded on first use, not at activation (see src/surfaces/vscode/extension.ts).
    external: ['vscode', './core.js'],
  },
  {
    ...common,
    // Every surface's code in one bundle (src/surfaces/bundle.ts): the extension's core and the CLI
    // share the engine and their packages, which two bundles carried twice.
    entryPoints: ['src/surfaces/bundle.ts'],
    outfile: 'dist/core.js',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    // Named in the MCP server's serverInfo.
    define: { SHARPCLAW_VERSION: JSON.stringify(version) },
  },
  {
    ...common,
    // The `sharpclaw` command: starts the host a command needs ahead (Node built-ins only), then runs the CLI from dist/core.js.
    entryPoints: ['src/surfaces/cli.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['./core.js'],
  },
  {
    ...common,
    entryPoints: ['webview-ui/main.ts'],
    outfile: 'dist/webview/main.js',
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
  },
  {
    ...common,
    entryPoints: ['webview-ui/styles.css'],
    outfile: 'dist/webview/styles.css',
  },
];

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
