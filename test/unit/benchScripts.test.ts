// The benchmarks, which no other layer runs: every bench script parses (a quote in a new row label once broke
// bench/verify.mjs, and only `npm run bench` showed it), and docs/benchmarks.md's tables are the ones
// bench/results gives (`node scripts/bench-readme.mjs --check`: the tables are generated, never edited).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

describe('the benchmarks', () => {
  it('every bench script parses', () => {
    const scripts = fs.readdirSync(path.join(repoRoot, 'bench')).filter((name) => /\.(mjs|cjs)$/.test(name));
    assert.ok(scripts.includes('verify.mjs') && scripts.includes('run-all.mjs'), scripts.join(', '));
    const broken = scripts
      .map((name) => ({ name, check: spawnSync(process.execPath, ['--check', path.join('bench', name)], { cwd: repoRoot, encoding: 'utf8' }) }))
      .filter(({ check }) => check.status !== 0)
      .map(({ name, check }) => `${name}: ${check.stderr.split('\n').find((line) => /Error/.test(line)) ?? check.stderr}`);
    assert.deepEqual(broken, []);
  });

  it("docs/benchmarks.md's tables are what bench/results gives", () => {
    const check = spawnSync(process.execPath, ['scripts/bench-readme.mjs', '--check'], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(check.status, 0, `${check.stdout}${check.stderr}`);
  });
});
