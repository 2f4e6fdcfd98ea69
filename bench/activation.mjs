// Extension activation time in a real VS Code extension host (code-server), median of N runs.
// Usage: node bench/activation.mjs [--runs 5] [--vscode min|latest]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSuiteInVsCode } from '../scripts/testbed/run-integration.mjs';
import { installTestBed } from '../scripts/testbed/install.mjs';
import { median, option, p50, report, row } from './stats.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function benchActivation({ runs = Number(option('runs', '5')), version = option('vscode', 'min') } = {}) {
  installTestBed({ versions: [version] });
  const totals = [];
  const activates = [];
  let vscodeVersion = '';
  for (let i = 0; i < runs; i++) {
    const result = await runSuiteInVsCode({ version, suiteEntry: path.join(repoRoot, 'bench', 'activation-entry.cjs'), fixture: path.join(repoRoot, 'fixtures', 'Calculator'), timeoutMs: 120_000, artifactsName: 'bench-activation' });
    const file = path.join(result.artifactsDir, 'activation.json');
    if (result.exitCode !== 0 || !fs.existsSync(file)) throw new Error(`activation run ${i + 1} failed (exit ${result.exitCode}); see ${result.artifactsDir}`);
    const measured = JSON.parse(fs.readFileSync(file, 'utf8'));
    totals.push(measured.totalMs);
    activates.push(measured.activateMs);
    vscodeVersion = measured.vscode;
  }
  return report('activation', {
    vscode: vscodeVersion,
    runs,
    'load + activate() median ms': median(totals),
    'activate() body median ms': median(activates),
    'samples ms': totals.map((t) => Number(t.toFixed(1))),
    rows: [
      row(`extension activation in VS Code ${vscodeVersion} (load dist/extension.js + activate())`, totals, [], { goal: '< 50 ms', meets_goal: p50(totals) < 50 }),
      row('activate() body', activates, []),
    ],
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchActivation();
