// `node scripts/seam-faults.mjs [--only id,…]`: the suite's strength at its seams. Each fault below is
// planted alone in a temporary Git worktree of HEAD (the repository itself is never touched), then the
// part of `npm test` that guards that seam runs there, and the fault counts as caught only when that run
// fails. Results: test-results/seam-faults.json (a later run replaces the faults it ran) and a table. A fault whose text is no longer in its file
// stops the script (the fault must be rewritten, not silently skipped).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;
const unit = [[node, ['scripts/test.mjs', '--only', 'unit']]];

/** One fault per seam the issue-34 suite must guard: where it is planted, and the run that must fail. */
export const seamFaults = [
  {
    id: 'protocol-field',
    seam: 'host ↔ client protocol: the host renames a result field (navigate\'s nextOffset goes out as nextStart)',
    file: 'server/src/SharpClaw.Protocol/Semantic/Navigation.cs',
    from: '    int? NextOffset,\n    int OmittedGenerated,',
    to: '    [property: System.Text.Json.Serialization.JsonPropertyName("nextStart")] int? NextOffset,\n    int OmittedGenerated,',
    guard: 'server: RecordedAnswerTests (the recorded host answers the unit tests render)',
    runs: [['dotnet', ['test', 'server/tests/SharpClaw.Server.Tests', '-nologo', '--filter', 'FullyQualifiedName~SharpClaw.Server.Tests.RecordedAnswerTests']]],
  },
  {
    id: 'mcp-schema',
    seam: 'MCP tool schema: navigate\'s line accepts 0',
    file: 'src/engine/tools/navigation/navigationTools.ts',
    from: 'line: z.number().int().min(1)',
    to: 'line: z.number().int().min(0)',
    guard: 'unit: mcpTools.test.ts (the recorded tools/list)',
    runs: unit,
  },
  {
    id: 'trx-failure-ignored',
    seam: 'verifier ↔ dotnet test: a TRX result with outcome Failed is not counted as a failure',
    file: 'src/engine/verification/trx.ts',
    from: "new Set(['Failed', 'Error',",
    to: "new Set(['Error',",
    guard: 'unit: verification tests over recorded TRX outputs',
    runs: unit,
  },
  {
    id: 'broken-activation',
    seam: 'VS Code activation: activate() throws',
    file: 'src/surfaces/vscode/extension.ts',
    from: '  const started = performance.now();',
    // A condition the type checker cannot see through, so the fault compiles and only a running VS Code can catch it.
    to: "  if (performance.now() >= 0) throw new Error('planted: activation fails');\n  const started = performance.now();",
    guard: 'integration: the smoke suite (VS Code 1.100.3, as npm test runs it)',
    runs: [[node, ['scripts/build.mjs', '--production']], [node, ['scripts/testbed/run-integration.mjs', '--vscode', 'min', '--suite', 'smoke']]],
  },
  {
    id: 'package-missing-host',
    seam: 'the .vsix: one of the host\'s assemblies (Microsoft.CodeAnalysis.CSharp.Workspaces.dll) left out',
    file: 'scripts/package.mjs',
    from: 'const hostLines = hostFilesFor(target).map(',
    to: "const hostLines = hostFilesFor(target).filter((name) => name !== 'Microsoft.CodeAnalysis.CSharp.Workspaces.dll').map(",
    guard: 'package: the installed package\'s smoke suite',
    runs: [[node, ['scripts/test.mjs', '--only', 'package']]],
  },
];

function option(name) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : undefined;
}

/** Runs one command in `cwd`, echoing its output; resolves to its exit code and its last lines. */
function runIn(cwd, [command, args]) {
  return new Promise((resolve) => {
    let tail = '';
    const child = spawn(command, args, { cwd, env: { ...process.env, SHARPCLAW_TEST_SERIAL: '1' } });
    const keep = (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-6000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), tail }));
  });
}

/** The lines of a failed run that say what failed (mocha's and xunit's failure lines). */
function failureLines(tail) {
  return tail.split('\n').map((line) => line.trim()).filter((line) => /failing|\bFailed\b|✗|AssertionError|Error:|error /.test(line)).slice(0, 6);
}

async function plant(fault) {
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), `sc-seam-${fault.id}-`));
  execFileSync('git', ['worktree', 'add', '--detach', '--quiet', tree, 'HEAD'], { cwd: repoRoot });
  const started = Date.now();
  try {
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(tree, 'node_modules'), 'dir');
    const file = path.join(tree, fault.file);
    const text = fs.readFileSync(file, 'utf8');
    if (text.split(fault.from).length !== 2) throw new Error(`${fault.id}: the text to replace is not in ${fault.file} exactly once; rewrite the fault`);
    fs.writeFileSync(file, text.replace(fault.from, fault.to));
    let result = { code: 0, tail: '' };
    for (const command of fault.runs) {
      result = await runIn(tree, command);
      if (result.code !== 0) break;
    }
    return { id: fault.id, seam: fault.seam, guard: fault.guard, caught: result.code !== 0, exitCode: result.code, failures: failureLines(result.tail), seconds: Math.round((Date.now() - started) / 1000) };
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: repoRoot });
    fs.rmSync(tree, { recursive: true, force: true });
  }
}

async function main() {
  const only = option('only')?.split(',');
  const chosen = seamFaults.filter((fault) => !only || only.includes(fault.id));
  if (only && chosen.length !== only.length) throw new Error(`--only: unknown fault; one of ${seamFaults.map((f) => f.id).join(', ')}`);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const resultsFile = path.join(repoRoot, 'test-results', 'seam-faults.json');
  const earlier = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')).results ?? [] : [];
  const results = [];
  for (const fault of chosen) {
    console.log(`[seam-faults] ${fault.id}: ${fault.seam}; guarded by ${fault.guard}`);
    results.push({ ...(await plant(fault)), commit, date: new Date().toISOString(), loadAverage: os.loadavg().map((l) => l.toFixed(1)).join(' ') });
    const kept = earlier.filter((old) => !results.some((r) => r.id === old.id) && seamFaults.some((f) => f.id === old.id));
    fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
    fs.writeFileSync(resultsFile, `${JSON.stringify({ results: [...kept, ...results] }, null, 1)}\n`);
  }
  console.log('\n| Fault | Seam | Guard | Caught | Seconds |\n|---|---|---|---|---:|');
  for (const r of results) console.log(`| ${r.id} | ${r.seam} | ${r.guard} | ${r.caught ? 'yes' : 'NO'} | ${r.seconds} |`);
  if (results.some((r) => !r.caught)) process.exitCode = 1;
}

await main();
