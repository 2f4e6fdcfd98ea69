// Runs the integration suites (out/test/integration) inside a real VS Code extension host:
// code-server + headless Chromium, every suite on the newest tested VS Code and the smoke suite on
// the lowest (see `suites`). A suite asks for screenshots and for clicks on modal dialogs through
// files in a control folder (see serveControlRequests); its test names are printed as they pass
// (followLog); artifacts land in test-results/integration/<version>/<suite>/.
//
// Usage: node scripts/testbed/run-integration.mjs [--vscode min|latest|all] [--suite NAME[,NAME]]
// SHARPCLAW_TEST_FILES=semantic,symbols (in the environment) runs only those files of the suites.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './browser.mjs';
import { installTestExtension, startCodeServer } from './codeServer.mjs';
import { installTestBed, reportStepFailure, TestBedStepError } from './install.mjs';
import { removeLayerFolder } from '../layer-folder.mjs';
import { codeServerVersions } from './paths.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

/**
 * The integration suites. Each runs the *.test.js files of its folder (compiled from
 * test/integration/<folder>) in a fresh extension host with its fixture as the workspace.
 * `restore`: the target its tests restore (their `restore(target)`, test/integration/support.ts): the harness
 * restores the fixture for it into the fixture cache once (test/support/fixtures.ts, shared with host-e2e and
 * the server layer), and the session's restore copies the restore's output from there instead of running
 * dotnet, while the workspace's files are still the fixture's.
 * `restricted`: Workspace Trust is on and the folder is not trusted (Restricted Mode); a phase may say it for
 * its own session.
 * `versions`: the tested VS Code versions it runs on. Every suite runs on the newest; the lowest the
 * manifest allows (engines.vscode) gets the one smoke suite, which walks each API SharpClaw uses there
 * (activation, a tool through vscode.lm.invokeTool, a command, the sidebar's webview, Workspace Trust):
 * what differs between VS Code versions is the API, not SharpClaw's behaviour behind it. A suite named
 * with --suite runs on every version --vscode names, except where `needs` rules a version out.
 */
export const suites = [
  { name: 'smoke', dir: 'out/test/integration/smoke', fixture: 'fixtures/Calculator', restore: 'Calculator.slnx', restricted: true, versions: ['min'] },
  { name: 'main', dir: 'out/test/integration', fixture: 'fixtures/Calculator', restore: 'Calculator.slnx', restricted: false, versions: ['latest'] },
  { name: 'verification', dir: 'out/test/integration/verification', fixture: 'fixtures/VerificationFailingTest', restore: 'FailingTest.slnx', restricted: false, versions: ['latest'] },
  // A person's compiler-checked fix-all (issue 40): Problems panel quick fix → Refactor Preview → Apply.
  { name: 'fixall', dir: 'out/test/integration/fixAll', fixture: 'fixtures/FixAllUnusedLocals', restore: 'FixAll.slnx', restricted: false, versions: ['latest'] },
  // A VS Code restart: two sessions, one after the other, on the same user data, workspace and state folders.
  // The first is a person's first session in a folder: it opens in Restricted Mode (Workspace Trust on, the
  // folder untrusted: what SharpClaw refuses and what it still answers), the person trusts the folder without
  // a reload and approves a load. The second opens with Workspace Trust off, as every other suite's session.
  {
    name: 'restart', fixture: 'fixtures/Calculator', restore: 'Calculator.slnx', restricted: false, versions: ['latest'],
    phases: [{ dir: 'out/test/integration/restart/before', restricted: true }, { dir: 'out/test/integration/restart/after' }],
  },
  // @sharpclaw turns driven through the chat view with a scripted chat model: the provider API it
  // needs (vscode.lm.registerLanguageModelChatProvider) is stable only from VS Code 1.104.
  // testExtensions are packed and installed like a person's extensions (code-server loads only one
  // extensionDevelopmentPath: SharpClaw's).
  {
    name: 'chat', dir: 'out/test/integration/chat', fixture: 'fixtures/AgentTurn', restore: 'AgentTurn.slnx', restricted: false, versions: ['latest'], needs: ['latest'], timeoutMs: 25 * 60_000,
    testExtensions: ['test/integration/chat/scripted-model'],
    settings: { 'chat.disableAIFeatures': false },
  },
];

/** What a stopped run (Ctrl+C, SIGTERM from npm test) must end: the sessions' code-server process groups. */
const openServers = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    await Promise.all([...openServers].map((server) => server.stop().catch(() => undefined)));
    process.exit(130);
  });
}

/** Copies a fixture without build output, so each run starts from sources only. */
export function copyFixture(source, destination) {
  fs.cpSync(source, destination, {
    recursive: true,
    filter: (entry) => !['bin', 'obj', 'TestResults'].includes(path.basename(entry)),
  });
}

/**
 * Serves the suite's requests to the browser side, through files in the control folder:
 *   screenshot-<name>.request          → test-results/.../<name>.png, then screenshot-<name>.done
 *   dialog-<id>.request (a button label) → waits for the workbench's modal dialog, records its
 *                                        text, clicks that button, then dialog-<id>.done (JSON)
 *   click-<id>.request ({selector, text}) → clicks that element, then click-<id>.done (JSON)
 */
/** Writes a .done file atomically, so the suite never reads it half-written. */
function writeDone(file, content) {
  fs.writeFileSync(`${file}.tmp`, content);
  fs.renameSync(`${file}.tmp`, file);
}

async function serveControlRequests(page, controlDir, artifactsDir, stopSignal) {
  while (!stopSignal.stopped) {
    for (const file of fs.readdirSync(controlDir)) {
      const screenshot = /^screenshot-(.+)\.request$/.exec(file);
      const dialog = /^dialog-(.+)\.request$/.exec(file);
      const clickRequest = /^click-(.+)\.request$/.exec(file);
      if (!screenshot && !dialog && !clickRequest) continue;
      const request = path.join(controlDir, file);
      const body = fs.readFileSync(request, 'utf8');
      fs.rmSync(request);
      if (clickRequest) {
        let result;
        try {
          const { selector, text } = JSON.parse(body);
          const locator = text ? page.locator(selector, { hasText: new RegExp(`^\\s*${text}\\s*$`) }) : page.locator(selector);
          await locator.first().waitFor({ state: 'visible', timeout: 30_000 });
          await locator.first().click();
          result = { ok: true };
        } catch (error) {
          await page.screenshot({ path: path.join(artifactsDir, `click-${clickRequest[1]}-failed.png`) }).catch(() => undefined);
          result = { ok: false, error: String(error) };
        }
        writeDone(path.join(controlDir, `click-${clickRequest[1]}.done`), JSON.stringify(result));
      } else if (screenshot) {
        const name = screenshot[1];
        try {
          // The suite asks once the webview said it rendered; two animation frames later it is on screen.
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
          await page.screenshot({ path: path.join(artifactsDir, `${name}.png`) });
          writeDone(path.join(controlDir, `screenshot-${name}.done`), 'ok');
        } catch (error) {
          writeDone(path.join(controlDir, `screenshot-${name}.done`), `error: ${error}`);
        }
      } else {
        const id = dialog[1];
        let result;
        try {
          const box = page.locator('.monaco-dialog-box').first();
          await box.waitFor({ state: 'visible', timeout: 30_000 });
          const message = (await box.locator('.dialog-message-text').first().textContent()) ?? '';
          const detail = (await box.locator('.dialog-message-detail').first().textContent().catch(() => '')) ?? '';
          const buttons = await box.locator('.dialog-buttons .monaco-button').allTextContents();
          await page.screenshot({ path: path.join(artifactsDir, `dialog-${id}.png`) });
          await box.locator('.dialog-buttons .monaco-button', { hasText: body }).first().click();
          result = { ok: true, message, detail, buttons };
        } catch (error) {
          result = { ok: false, error: String(error) };
        }
        writeDone(path.join(controlDir, `dialog-${id}.done`), JSON.stringify(result));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The fixture cache's entry of the suite's fixture restored for its `restore` target (restored into the
 * cache first if it has none), for the session's restore(target): SHARPCLAW_TEST_FIXTURE_ENTRY.
 */
function fixtureEntryEnv({ fixture, restore }) {
  if (!restore) return {};
  const { restoredFixtureEntry } = createRequire(import.meta.url)(path.join(repoRoot, 'out', 'test', 'support', 'fixtures.js'));
  return { SHARPCLAW_TEST_FIXTURE_ENTRY: restoredFixtureEntry(path.basename(fixture), restore) };
}

/** The SharpClaw state folder of a workDir's sessions (SHARPCLAW_STATE_DIR), inside it so it goes with it. */
const stateFolderOf = (workDir) => path.join(workDir, 'state');

/**
 * A fresh workDir with the fixture (sources only) and the suite's test-only extensions, removed after `run` once no
 * process of its sessions is left: code-server, its extension hosts and the SharpClaw hosts they start all carry the
 * workDir's state folder in their environment. Removing it while one still ran let it write there afterwards: a host
 * runs in its own process group and ends a moment after code-server (ENOTEMPTY on a loaded machine), and one the
 * extension host started as a session closed created its log folder again after the removal (a `.ci/run` left
 * /tmp/sc-it-ND1Wqs with that host's log, 2026-12-08).
 */
async function inWorkDir({ version, fixture, testExtensions = [] }, run) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-it-'));
  try {
    copyFixture(fixture, path.join(workDir, 'ws'));
    for (const folder of testExtensions) installTestExtension({ version, workDir, folder: path.resolve(repoRoot, folder) });
    return await run(workDir);
  } finally {
    const ended = await removeLayerFolder(workDir, { mark: `SHARPCLAW_STATE_DIR=${stateFolderOf(workDir)}`, waitMs: 60_000 });
    if (ended.length > 0) console.log(`[integration] ended ${ended.length} process(es) a session left running (a test to fix): ${ended.join('; ')}`);
  }
}

/**
 * One session on a fresh workDir. SharpClaw's state folder (verification runs, locks, host logs) lives in
 * the workDir too, so it goes with it: never an entry per deleted test workspace in the person's own
 * ~/.cache/sharpclaw/workspaces.
 */
export async function runSuiteInVsCode(options) {
  return inWorkDir(options, (workDir) => runSessionInVsCode({ ...options, workDir, env: { SHARPCLAW_STATE_DIR: stateFolderOf(workDir), ...fixtureEntryEnv(options), ...options.env } }));
}

/**
 * Runs each phase's suite folder ({ dir, restricted? }) in a VS Code session of its own, one after the
 * other, on the same workDir (user data, extensions, workspace, and the state folder inside it): what a
 * person sees after quitting VS Code and opening it again. Stops at the first phase that fails.
 */
export async function runPhasesInVsCode({ phases, artifactsName, ...options }) {
  return inWorkDir(options, async (workDir) => {
    const results = [];
    for (const [index, { dir, restricted = options.restricted }] of phases.entries()) {
      const result = await runSessionInVsCode({ ...options, workDir, restricted, artifactsName: `${artifactsName}-${index + 1}`, env: { ...options.env, ...fixtureEntryEnv(options), SHARPCLAW_TEST_SUITE_DIR: path.resolve(repoRoot, dir), SHARPCLAW_STATE_DIR: stateFolderOf(workDir) } });
      results.push(result);
      if (result.exitCode !== 0 || !result.summary || result.summary.failed > 0) break;
    }
    return results;
  });
}

/**
 * Prints what the suite's mocha writes to mocha.log while the session runs (each test's name as it
 * passes), so a session of several minutes shows its progress. Returns the function that stops it
 * after printing the rest.
 */
function followLog(file) {
  let offset = 0;
  let partial = '';
  const printNew = () => {
    let size;
    try {
      size = fs.statSync(file).size;
    } catch {
      return; // not written yet
    }
    if (size <= offset) return;
    const fd = fs.openSync(file, 'r');
    const chunk = Buffer.alloc(size - offset);
    fs.readSync(fd, chunk, 0, chunk.length, offset);
    fs.closeSync(fd);
    offset = size;
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) console.log(line);
  };
  const timer = setInterval(printNew, 500);
  return () => {
    clearInterval(timer);
    printNew();
    if (partial) console.log(partial);
  };
}

async function runSessionInVsCode({ version, suiteEntry, workDir, timeoutMs = 10 * 60_000, settings = {}, env = {}, artifactsName = '', restricted = false }) {
  const spec = codeServerVersions[version];
  const artifactsDir = path.join(repoRoot, 'test-results', 'integration', spec.vscode, artifactsName);
  fs.rmSync(artifactsDir, { recursive: true, force: true });
  fs.mkdirSync(artifactsDir, { recursive: true });
  const controlDir = path.join(workDir, 'control');
  fs.rmSync(controlDir, { recursive: true, force: true });
  fs.mkdirSync(controlDir);
  const workspace = path.join(workDir, 'ws');

  const started = Date.now();
  const label = `[integration] VS Code ${spec.vscode} ${artifactsName}`;
  console.log(`${label}: starting code-server`);
  const server = await startCodeServer({
    version, workDir, folder: workspace, logFile: path.join(artifactsDir, 'code-server.log'),
    settings: restricted ? { ...settings, 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' } : settings,
    disableWorkspaceTrust: !restricted,
    env: { ...env, SHARPCLAW_TEST_ARTIFACTS: artifactsDir, SHARPCLAW_TEST_CONTROL: controlDir },
  });
  openServers.add(server);
  const browser = await launchBrowser();
  const stopSignal = { stopped: false };
  let exitCode = 'no exit';
  const stopFollowing = followLog(path.join(artifactsDir, 'mocha.log'));
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const consoleLog = fs.createWriteStream(path.join(artifactsDir, 'browser-console.log'));
    page.on('console', (message) => consoleLog.write(`[${message.type()}] ${message.text()}\n`));
    page.on('pageerror', (error) => consoleLog.write(`[pageerror] ${error}\n`));
    let resolveExit;
    const exited = new Promise((resolve) => { resolveExit = resolve; });
    await page.exposeFunction('codeAutomationLog', (type, args) => consoleLog.write(`[ext-host ${type}] ${JSON.stringify(args)}\n`));
    await page.exposeFunction('codeAutomationExit', (code) => resolveExit(code));
    console.log(`${label}: code-server is up after ${((Date.now() - started) / 1000).toFixed(0)} s; opening the workbench`);
    // The workbench's page load took over 30 s (Playwright's default) at load average 48 on two cores.
    await page.goto(server.workbenchUrl({ extensionDevelopmentPath: repoRoot, extensionTestsPath: suiteEntry }), { timeout: 180_000 });
    const controlRequests = serveControlRequests(page, controlDir, artifactsDir, stopSignal);
    let timer;
    exitCode = await Promise.race([exited, new Promise((resolve) => { timer = setTimeout(() => resolve('timeout'), timeoutMs); })]);
    clearTimeout(timer);
    if (exitCode === 'timeout') await page.screenshot({ path: path.join(artifactsDir, 'timeout.png') }).catch(() => undefined);
    stopSignal.stopped = true;
    await controlRequests;
  } finally {
    stopSignal.stopped = true;
    stopFollowing();
    await browser.close().catch(() => undefined);
    await server.stop();
    openServers.delete(server);
  }
  const summaryFile = path.join(artifactsDir, 'summary.json');
  const summary = fs.existsSync(summaryFile) ? JSON.parse(fs.readFileSync(summaryFile, 'utf8')) : undefined;
  return { version: spec.vscode, exitCode, summary, artifactsDir, seconds: (Date.now() - started) / 1000 };
}

async function main() {
  const which = option('vscode', 'all');
  const versions = which === 'all' ? Object.keys(codeServerVersions) : [which];
  for (const version of versions) {
    if (!codeServerVersions[version]) throw new Error(`--vscode must be min, latest or all, not "${version}"`);
  }
  const named = option('suite', undefined);
  const wanted = (named ?? suites.map((suite) => suite.name).join(',')).split(',');
  const selected = suites.filter((suite) => wanted.includes(suite.name));
  if (selected.length !== wanted.length) throw new Error(`--suite takes ${suites.map((suite) => suite.name).join(', ')}`);
  const suiteEntry = path.join(repoRoot, 'out', 'test', 'integration', 'index.js');
  if (!fs.existsSync(suiteEntry)) throw new Error(`${suiteEntry} is missing: run "npm run compile-tests" first`);
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run "npm run build" first');
  installTestBed({ versions });

  let failed = false;
  for (const version of versions) {
    fs.rmSync(path.join(repoRoot, 'test-results', 'integration', codeServerVersions[version].vscode), { recursive: true, force: true });
    const here = selected.filter((suite) => (named ? !suite.needs || suite.needs.includes(version) : suite.versions.includes(version)));
    const left = selected.filter((suite) => !here.includes(suite)).map((suite) => suite.name);
    console.log(`[integration] VS Code ${codeServerVersions[version].vscode}: ${here.map((suite) => suite.name).join(', ') || 'no suite'}${left.length ? ` (not here: ${left.join(', ')})` : ''}`);
    for (const suite of here) {
      const common = {
        version,
        suiteEntry,
        fixture: path.resolve(repoRoot, suite.fixture),
        restore: suite.restore,
        artifactsName: suite.name,
        restricted: suite.restricted,
        testExtensions: suite.testExtensions ?? [],
        settings: suite.settings ?? {},
        ...(suite.timeoutMs ? { timeoutMs: suite.timeoutMs } : {}),
      };
      let results;
      try {
        results = suite.phases
          ? await runPhasesInVsCode({ ...common, phases: suite.phases })
          : [await runSuiteInVsCode({ ...common, env: { SHARPCLAW_TEST_SUITE_DIR: path.resolve(repoRoot, suite.dir) } })];
      } catch (error) {
        // The session itself broke (code-server, the browser, the page): this suite failed, the next ones still run.
        console.error(`[integration] VS Code ${codeServerVersions[version].vscode} ${suite.name}: the session failed: ${error instanceof Error ? error.stack : error}`);
        failed = true;
        continue;
      }
      if (suite.phases && results.length < suite.phases.length) failed = true;
      for (const [index, result] of results.entries()) {
        const name = suite.phases ? `${suite.name} (session ${index + 1} of ${suite.phases.length})` : suite.name;
        const counts = result.summary ? `${result.summary.passed} passed, ${result.summary.failed} failed, ${result.summary.skipped ?? 0} skipped` : 'no summary written';
        console.log(`[integration] VS Code ${result.version} ${name}: exit ${result.exitCode}, ${counts}, ${result.seconds.toFixed(0)} s; artifacts in ${path.relative(repoRoot, result.artifactsDir)}`);
        if (result.exitCode !== 0 || !result.summary || result.summary.failed > 0 || result.summary.passed === 0) failed = true;
      }
    }
  }
  process.exitCode = failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    if (error instanceof TestBedStepError) return reportStepFailure(error);
    console.error(`[integration] ${error instanceof Error ? error.stack : error}`);
    process.exitCode = 1;
  });
}
