// The mocha reporter of every mocha test layer (scripts/test.mjs passes it with --reporter; the
// extension-host suites load it in test/integration/index.ts): mocha's spec output (each test's name as
// it passes, the failures at the end) plus what the run summary needs and spec does not give:
//   - SHARPCLAW_TEST_REPORT=<file>: at the end, JSON with the passed, failed and skipped counts and, per
//     test file, its wall-clock seconds (its hooks included) and counts;
//   - SHARPCLAW_TEST_STATUS=<file>: the test or hook running now, rewritten as each starts, so the
//     parent's heartbeat can name what a silent minute is spent on (a blocked event loop here could not
//     print it itself).
const fs = require('node:fs');
const path = require('node:path');
const Spec = require('mocha/lib/reporters/spec');
const { constants } = require('mocha/lib/runner');

const repoRoot = path.resolve(__dirname, '..');

/** out/test/unit/x.test.js → test/unit/x.test.ts: the file a person edits. */
function sourceFile(file) {
  if (!file) return '(no file)';
  const relative = path.relative(repoRoot, file).split(path.sep).join('/');
  return relative.startsWith('out/') ? relative.slice(4).replace(/\.js$/, '.ts') : relative;
}

function writeAtomically(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, text);
  fs.renameSync(`${file}.tmp`, file);
}

class TestReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    const reportFile = process.env.SHARPCLAW_TEST_REPORT;
    const statusFile = process.env.SHARPCLAW_TEST_STATUS;
    const files = new Map();
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const entry = (file) => {
      const name = sourceFile(file);
      if (!files.has(name)) files.set(name, { file: name, seconds: 0, passed: 0, failed: 0, skipped: 0 });
      return files.get(name);
    };
    const started = new Map();
    const status = (what, runnable) => {
      if (!statusFile) return;
      try {
        writeAtomically(statusFile, JSON.stringify({ what, title: runnable.fullTitle(), file: sourceFile(runnable.file), since: Date.now() }));
      } catch {
        // a status line is a courtesy: never fail a run for it
      }
    };
    // A top-level suite is one file's describe block: its wall time is the file's (hooks included).
    runner.on(constants.EVENT_SUITE_BEGIN, (suite) => {
      if (suite.parent?.root && suite.file) started.set(suite, Date.now());
    });
    runner.on(constants.EVENT_SUITE_END, (suite) => {
      const at = started.get(suite);
      if (at !== undefined) entry(suite.file).seconds += (Date.now() - at) / 1000;
    });
    runner.on(constants.EVENT_TEST_BEGIN, (test) => status('test', test));
    runner.on(constants.EVENT_HOOK_BEGIN, (hook) => status('hook', hook));
    runner.on(constants.EVENT_TEST_PASS, (test) => {
      counts.passed++;
      entry(test.file).passed++;
    });
    // A failing hook is a failure too (mocha counts it; the tests it guards never run).
    runner.on(constants.EVENT_TEST_FAIL, (test) => {
      counts.failed++;
      entry(test.file).failed++;
    });
    runner.on(constants.EVENT_TEST_PENDING, (test) => {
      counts.skipped++;
      entry(test.file).skipped++;
    });
    runner.once(constants.EVENT_RUN_END, () => {
      if (!reportFile) return;
      const list = [...files.values()].map((f) => ({ ...f, seconds: Math.round(f.seconds * 10) / 10 })).sort((a, b) => b.seconds - a.seconds);
      writeAtomically(reportFile, JSON.stringify({ ...counts, files: list }, null, 1));
    });
  }
}

module.exports = TestReporter;
