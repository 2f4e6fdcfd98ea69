// The bundles' MCP SDK (scripts/esbuild-mcp-validator.mjs): its default JSON Schema validator is the
// SDK's small Cloudflare Workers one, not Ajv, and it still validates as a JSON Schema validator must.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** Bundles a snippet that uses the SDK's default validator (as esbuild.mjs bundles ours) and runs it in a fresh Node. */
function bundleAndRun(plugins: boolean): { results: boolean[]; validator: string; ajv: boolean; bytes: number } {
  const snippet = [
    "import { DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/_shims';",
    'const check = new DefaultJsonSchemaValidator().getValidator({ type: "object", properties: { file: { type: "string" }, limit: { type: "integer", minimum: 1 } }, required: ["file"], additionalProperties: false });',
    'const results = [{ file: "A.cs", limit: 2 }, { file: 5 }, { limit: 2 }, { file: "A.cs", limit: 0 }, { file: "A.cs", extra: 1 }].map((value) => check(value).valid);',
    'console.log(JSON.stringify({ results, validator: DefaultJsonSchemaValidator.name }));',
  ].join('\n');
  const script = `
    const esbuild = await import(${JSON.stringify(path.join(repoRoot, 'node_modules', 'esbuild', 'lib', 'main.js'))});
    const { mcpSmallValidator } = await import(${JSON.stringify(path.join(repoRoot, 'scripts', 'esbuild-mcp-validator.mjs'))});
    const out = await esbuild.build({ stdin: { contents: ${JSON.stringify(snippet)}, resolveDir: ${JSON.stringify(repoRoot)} }, bundle: true, minify: true, keepNames: true, platform: 'node', format: 'cjs', mainFields: ['module', 'main'], write: false, logLevel: 'error', plugins: ${plugins ? '[mcpSmallValidator]' : '[]'} });
    const code = out.outputFiles[0].text;
    const run = (await import('node:child_process')).spawnSync(process.execPath, ['-'], { input: code, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
    console.log(JSON.stringify({ ...JSON.parse(run.stdout), ajv: /ajv/i.test(code), bytes: code.length }));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: repoRoot });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout) as { results: boolean[]; validator: string; ajv: boolean; bytes: number };
}

describe('the bundles\' MCP SDK', function () {
  this.timeout(120_000);

  it('validates with the SDK\'s Workers validator instead of Ajv, with the same verdicts, in a much smaller bundle', () => {
    const full = bundleAndRun(false);
    const small = bundleAndRun(true);
    assert.equal(full.validator, 'AjvJsonSchemaValidator');
    assert.equal(small.validator, 'CfWorkerJsonSchemaValidator');
    assert.ok(full.ajv && !small.ajv, 'Ajv is left out');
    assert.deepEqual(small.results, [true, false, false, false, false]);
    assert.deepEqual(small.results, full.results);
    assert.ok(small.bytes < full.bytes - 100_000, `${small.bytes} bytes with the plugin, ${full.bytes} without`);
  });
});
