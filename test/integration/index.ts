// extensionTestsPath entry: runs the mocha suite inside the real extension host with the test layers'
// reporter (scripts/test-reporter.cjs: spec output, per-file times) and writes mocha.log (which the
// harness prints as it grows) and summary.json (passed, failed, skipped, per file) next to the screenshots.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { artifactsDir } from './support';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

interface Report { passed: number; failed: number; skipped: number; files: { file: string; seconds: number; passed: number; failed: number; skipped: number }[] }

export async function run(): Promise<void> {
  const outDir = artifactsDir();
  const logFile = path.join(outDir, 'mocha.log');
  const reportFile = path.join(outDir, 'report.json');
  fs.writeFileSync(logFile, '');
  fs.rmSync(reportFile, { force: true });
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  const originalLog = base.consoleLog;
  // The spec reporter prints through Base.consoleLog; keep a copy the harness can print.
  const tee = (...args: unknown[]) => {
    fs.appendFileSync(logFile, `${format(...args)}\n`);
    originalLog(...args);
  };
  base.consoleLog = tee;
  const originalConsoleLog = console.log;
  console.log = tee; // tests' own notes, such as the measured activation time
  process.env.SHARPCLAW_TEST_REPORT = reportFile;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const reporter = require(path.join(repoRoot, 'scripts', 'test-reporter.cjs')) as typeof Mocha.reporters.Base;
  const mocha = new Mocha({ ui: 'bdd', timeout: 120_000, color: false, reporter });
  // The harness names the suite's folder; each suite is a folder of *.test.js files.
  const suiteDir = process.env.SHARPCLAW_TEST_SUITE_DIR ?? __dirname;
  // SHARPCLAW_TEST_FILES=semantic,symbols runs only those files of the suite, in the suite's order (a
  // focused rerun while developing; npm test never sets it).
  const only = process.env.SHARPCLAW_TEST_FILES?.split(',').map((name) => `${name.trim()}.test.js`);
  const files = fs.readdirSync(suiteDir).filter((file) => file.endsWith('.test.js') && (!only || only.includes(file))).sort();
  if (files.length === 0) throw new Error(`no test files in ${suiteDir}${only ? ` named by SHARPCLAW_TEST_FILES (${only.join(', ')})` : ''}`);
  for (const file of files) mocha.addFile(path.join(suiteDir, file));
  try {
    const failures = await new Promise<{ failed: number; titles: string[] }>((resolve) => {
      const titles: string[] = [];
      const runner = mocha.run(() => resolve({ failed: runner.stats?.failures ?? 0, titles }));
      runner.on('fail', (test, error) => titles.push(`${test.fullTitle()}: ${error instanceof Error ? error.message : String(error)}`));
    });
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Report;
    fs.writeFileSync(path.join(outDir, 'summary.json'), JSON.stringify({ ...report, titles: failures.titles }, null, 1));
    if (report.failed > 0 || report.passed === 0) throw new Error(`${report.failed} integration tests failed, ${report.passed} passed`);
  } finally {
    base.consoleLog = originalLog;
    console.log = originalConsoleLog;
    delete process.env.SHARPCLAW_TEST_REPORT;
  }
}
