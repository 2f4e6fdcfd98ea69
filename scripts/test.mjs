// `npm test`: every test layer, from a fresh clone with no earlier install step.
//   unit         mocha on Node (test/unit), no VS Code and no dotnet
//   server       xunit tests of the Roslyn host (server/tests)
//   host-e2e     mocha on Node with real dotnet (test/host-e2e): the CLI, the Roslyn host and the
//                verifier end to end on restored fixtures, and the C#/zod protocol drift check
//   fixtures     plain `dotnet test` on each fixture that must be green, in a temp copy
//   integration  the suites in a real VS Code extension host (code-server + Chromium), on the
//                lowest and the newest tested VS Code version
//   e2e          a person's clicks through the workbench in Chromium (real modal dialogs)
//                on the lowest tested VS Code, and a typed @sharpclaw chat turn on the newest
//   package      `npm run package`, the .vsix installed into code-server with --install-extension,
//                and a smoke suite against the installed extension (test/package)
// Options: --only unit,server,host-e2e,fixtures,integration,e2e,package   --vscode min|latest|all
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The CLI's resident hosts (src/engine/host/residentHost.ts) stay on in tests, as for users, but end 20 s
// after their last call instead of 600, so the many short-lived state folders of a run do not leave hosts
// holding memory for ten minutes each (a test removing its state folder ends its host at once).
process.env.SHARPCLAW_RESIDENT_IDLE_SECONDS ??= '20';
const greenFixtures = ['fixtures/Calculator/Calculator.slnx', 'fixtures/EditTools/EditTools.slnx'];

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

/** Runs a command with inherited-looking output and returns its exit code and captured text. */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, env: process.env, ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk) => { text += chunk; process.stdout.write(chunk); });
    child.stderr.on('data', (chunk) => { text += chunk; process.stderr.write(chunk); });
    child.on('close', (code) => resolve({ code: code ?? 1, text }));
  });
}

function sumMatches(text, pattern) {
  let total = 0;
  for (const match of text.matchAll(pattern)) total += Number(match[1]);
  return total;
}

const layers = {
  async unit() {
    const { code, text } = await run(process.execPath, ['node_modules/mocha/bin/mocha.js', '--config', '.mocharc.json']);
    return { code, passed: sumMatches(text, /(\d+) passing/g), failed: sumMatches(text, /(\d+) failing/g) };
  },
  async server() {
    const { code, text } = await run('dotnet', ['test', 'server/SharpClaw.Server.slnx', '-nologo', '--tl:off']);
    return { code, passed: sumMatches(text, /Passed:\s+(\d+)/g), failed: sumMatches(text, /Failed:\s+(\d+)/g) };
  },
  async 'host-e2e'() {
    const { code, text } = await run(process.execPath, ['node_modules/mocha/bin/mocha.js', '--config', '.mocharc.host-e2e.json']);
    return { code, passed: sumMatches(text, /(\d+) passing/g), failed: sumMatches(text, /(\d+) failing/g) };
  },
  async fixtures() {
    let result = { code: 0, passed: 0, failed: 0 };
    for (const solution of greenFixtures) {
      const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-fixture-'));
      fs.cpSync(path.join(repoRoot, path.dirname(solution)), copy, { recursive: true, filter: (p) => !['bin', 'obj'].includes(path.basename(p)) });
      const { code, text } = await run('dotnet', ['test', path.join(copy, path.basename(solution)), '-nologo', '--tl:off']);
      fs.rmSync(copy, { recursive: true, force: true });
      result = {
        code: result.code || code,
        passed: result.passed + sumMatches(text, /Passed:\s+(\d+)/g),
        failed: result.failed + sumMatches(text, /Failed:\s+(\d+)/g),
      };
    }
    return result;
  },
  async e2e() {
    // Both e2e files (workbench.e2e.ts on VS Code 'min', chatTurn.e2e.ts on 'latest') write here.
    fs.rmSync(path.join(repoRoot, 'test-results', 'e2e'), { recursive: true, force: true });
    const { code, text } = await run(process.execPath, ['node_modules/mocha/bin/mocha.js', '--config', '.mocharc.e2e.json']);
    return { code, passed: sumMatches(text, /(\d+) passing/g), failed: sumMatches(text, /(\d+) failing/g) };
  },
  async integration() {
    fs.rmSync(path.join(repoRoot, 'test-results', 'integration'), { recursive: true, force: true });
    const { code, text } = await run(process.execPath, ['scripts/testbed/run-integration.mjs', '--vscode', option('vscode', 'all')]);
    let passed = 0;
    let failed = 0;
    const resultsDir = path.join(repoRoot, 'test-results', 'integration');
    const summaries = fs.existsSync(resultsDir) ? fs.readdirSync(resultsDir, { recursive: true, encoding: 'utf8' }).filter((file) => path.basename(file) === 'summary.json') : [];
    for (const file of summaries) {
      const counts = JSON.parse(fs.readFileSync(path.join(resultsDir, file), 'utf8'));
      passed += counts.passed;
      failed += counts.failed;
    }
    const step = /\[testbed\] FAILED STEP: (.+)/.exec(text)?.[1]?.trim();
    return { code, passed, failed, ...(step ? { note: `the test bed install step "${step}" failed (its output is above)` } : {}) };
  },
  async package() {
    const packaged = await run(process.execPath, ['scripts/package.mjs']);
    if (packaged.code !== 0) return { code: packaged.code, passed: 0, failed: 1 };
    const { code, text } = await run(process.execPath, ['node_modules/mocha/bin/mocha.js', '--config', '.mocharc.package.json']);
    return { code, passed: sumMatches(text, /(\d+) passing/g), failed: sumMatches(text, /(\d+) failing/g) };
  },
};

async function main() {
  const only = option('only', Object.keys(layers).join(',')).split(',');
  for (const name of only) if (!layers[name]) throw new Error(`Unknown test layer "${name}"; valid: ${Object.keys(layers).join(', ')}`);
  const started = Date.now();
  await build();
  const results = [];
  for (const name of only) {
    console.log(`\n[test] ===== ${name} =====`);
    const layerStarted = Date.now();
    const result = await layers[name]();
    results.push({ name, ...result, seconds: (Date.now() - layerStarted) / 1000 });
  }
  console.log('\n[test] summary');
  for (const r of results) {
    const verdict = r.code === 0 && r.failed === 0 && r.passed > 0 ? 'ok' : 'FAILED';
    console.log(`[test]   ${r.name.padEnd(12)} ${verdict.padEnd(7)} ${r.passed} passed, ${r.failed} failed, exit ${r.code}, ${r.seconds.toFixed(0)} s${r.note ? `: ${r.note}` : ''}`);
  }
  const passed = results.reduce((sum, r) => sum + r.passed, 0);
  const failed = results.reduce((sum, r) => sum + r.failed, 0);
  // A layer that failed without counting a failed test (a crash, a build error) counts as one.
  const uncountedFailures = results.filter((r) => (r.code !== 0 || r.passed === 0) && r.failed === 0).length;
  console.log(`[test] total time ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`tests: ${passed} passed, ${failed + uncountedFailures} failed`);
  process.exitCode = failed + uncountedFailures > 0 ? 1 : 0;
}

main().catch((error) => {
  console.error(`[test] ${error instanceof Error ? error.stack : error}`);
  process.exitCode = 1;
});
