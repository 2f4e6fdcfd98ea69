// The bundles' zod (scripts/esbuild-zod-english.mjs): only its English messages are bundled, and a
// schema's error still reads in English, as it does from node_modules.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** Bundles a snippet that uses zod (as esbuild.mjs bundles ours) and runs it in a fresh Node. */
function bundleAndRun(plugins: boolean): { locales: string[]; messages: string[]; bytes: number } {
  const snippet = [
    "import { z } from 'zod';",
    'const result = z.object({ file: z.string(), limit: z.number().int().min(1) }).strict().safeParse({ file: 5, limit: 0, extra: true });',
    'console.log(JSON.stringify({ locales: Object.keys(z.locales), messages: result.error.issues.map((issue) => issue.message) }));',
  ].join('\n');
  const script = `
    const esbuild = await import(${JSON.stringify(path.join(repoRoot, 'node_modules', 'esbuild', 'lib', 'main.js'))});
    const { zodEnglishOnly } = await import(${JSON.stringify(path.join(repoRoot, 'scripts', 'esbuild-zod-english.mjs'))});
    const out = await esbuild.build({ stdin: { contents: ${JSON.stringify(snippet)}, resolveDir: ${JSON.stringify(repoRoot)} }, bundle: true, minify: true, platform: 'node', format: 'cjs', mainFields: ['module', 'main'], write: false, plugins: ${plugins ? '[zodEnglishOnly]' : '[]'} });
    const code = out.outputFiles[0].text;
    const run = (await import('node:child_process')).spawnSync(process.execPath, ['-'], { input: code, encoding: 'utf8' });
    console.log(JSON.stringify({ ...JSON.parse(run.stdout), bytes: code.length }));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: repoRoot });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as { locales: string[]; messages: string[]; bytes: number };
}

describe('the bundles\' zod', function () {
  this.timeout(120_000);

  it('carries English only, and its messages are the same English ones as without the plugin', () => {
    const full = bundleAndRun(false);
    const english = bundleAndRun(true);
    assert.ok(full.locales.length > 30, `zod has ${full.locales.length} locales`);
    assert.deepEqual(english.locales, ['en']);
    assert.deepEqual(english.messages, ['Invalid input: expected string, received number', 'Too small: expected number to be >=1', 'Unrecognized key: "extra"']);
    assert.deepEqual(english.messages, full.messages);
    assert.ok(english.bytes < full.bytes - 150_000, `${english.bytes} bytes with the plugin, ${full.bytes} without`);
  });
});
