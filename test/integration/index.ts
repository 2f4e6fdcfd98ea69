// extensionTestsPath entry: runs the mocha suite inside the real extension host and writes
// mocha.log and summary.json next to the screenshots, for the harness to report.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { artifactsDir } from './support';

export async function run(): Promise<void> {
  const outDir = artifactsDir();
  const logFile = path.join(outDir, 'mocha.log');
  fs.writeFileSync(logFile, '');
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
  const mocha = new Mocha({ ui: 'bdd', timeout: 120_000, color: false, reporter: 'spec' });
  // The harness names the suite's folder; each suite is a folder of *.test.js files.
  const suiteDir = process.env.SHARPCLAW_TEST_SUITE_DIR ?? __dirname;
  const files = fs.readdirSync(suiteDir).filter((file) => file.endsWith('.test.js')).sort();
  for (const file of files) mocha.addFile(path.join(suiteDir, file));
  try {
    const failures = await new Promise<{ passed: number; failed: number; titles: string[] }>((resolve) => {
      const runner = mocha.run(() => resolve({ passed: runner.stats?.passes ?? 0, failed: runner.stats?.failures ?? 0, titles }));
      const titles: string[] = [];
      runner.on('fail', (test, error) => titles.push(`${test.fullTitle()}: ${error instanceof Error ? error.message : String(error)}`));
    });
    fs.writeFileSync(path.join(outDir, 'summary.json'), JSON.stringify(failures, null, 1));
    if (failures.failed > 0 || failures.passed === 0) throw new Error(`${failures.failed} integration tests failed`);
  } finally {
    base.consoleLog = originalLog;
    console.log = originalConsoleLog;
  }
}
