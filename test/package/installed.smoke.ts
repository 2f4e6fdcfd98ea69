// The installed extension, as a person gets it: the .vsix that `npm run package` built, installed
// into code-server with --install-extension (not development mode), and a person's clicks through the
// workbench in Chromium — nothing here reaches into the extension; the test sees only what a person sees,
// with VS Code's real modal dialogs. One workbench session walks it in the order a person meets it: the
// folder opens in Restricted Mode (the sidebar offers Manage Workspace Trust, asks nothing) and is
// trusted; Show Host Status; Verify Affected through the approval modal (the report, a click on the failed
// test and on the warning); Escape denying; Verify Build twice (the warning stays); a compiler-checked
// rename (a conflict, the Refactor Preview, Apply, a rename at the cursor with nothing ticked); Set Up MCP;
// the sidebar at its narrowest in the dark and high-contrast themes; Load Workspace and Reset. Beside it, a
// tool answer from the installed CLI; the package's details page (its README with every image: detailsPage.ts,
// here on 1.100.3, in readmeImages.smoke.ts on 1.139.1).
// Artifacts go to test-results/package/. With SHARPCLAW_UPDATE_SCREENSHOTS=1 (`npm run screenshots`) the README's
// screenshots in docs/ are written from this run.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import type { Browser, Locator, Page } from 'playwright-core';
import { sharpclawOnPath } from '../../src/surfaces/vscode/commands/mcpLauncher';
import { closeAllEditors, openSidebar, runCommand, shrinkSidebarToMinimum } from '../browser/workbench';
import { fixtureCopyAt } from '../support/fixtures';
import { assertDetailsPageShowsReadme, serveReadmeImages } from './detailsPage';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const artifacts = path.join(repoRoot, 'test-results', 'package');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string; publisher: string };
const failingTest = 'OrdersOfExactlyOneHundredGetTheDiscount';
const updateScreenshots = process.env.SHARPCLAW_UPDATE_SCREENSHOTS === '1';

/**
 * A screenshot the README shows: a JPEG in test-results/package/, and in docs/ when
 * SHARPCLAW_UPDATE_SCREENSHOTS=1 (JPEG: a quarter of the PNG's bytes, and the user README's
 * images are inlined into the package).
 */
async function readmeScreenshot(target: Page | Locator, name: string): Promise<void> {
  const file = path.join(artifacts, `${name}.jpg`);
  await target.screenshot({ path: file, type: 'jpeg', quality: 60 });
  await target.screenshot({ path: path.join(artifacts, `${name}.png`) });
  if (updateScreenshots) fs.copyFileSync(file, path.join(repoRoot, 'docs', `${name}.jpg`));
}

interface CodeServer {
  workbenchUrl(options: { extensionDevelopmentPath?: string }): string;
  stop(): Promise<void>;
}

const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const toast = (page: Page, text: string | RegExp) => page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();

/** A toast with this text, as a person sees it (waits for it): its message and its buttons. */
async function readToast(page: Page, text: string | RegExp, timeout = 60_000): Promise<{ message: string; buttons: string[] }> {
  const found = toast(page, text);
  await found.waitFor({ timeout });
  const message = ((await found.locator('.notification-list-item-message').first().textContent()) ?? '').trim();
  const buttons = (await found.locator('.notification-list-item-buttons-container .monaco-button').allTextContents()).map((label) => label.trim());
  return { message, buttons };
}

/** Clears the notifications and waits until no toast is left on screen (a screenshot shows none). */
async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'detached', timeout: 30_000 });
}

/** The workbench's modal dialog, once it shows: its title (checked), its detail and its buttons. */
async function modal(page: Page, title: RegExp): Promise<{ message: string; detail: string; buttons: string[] }> {
  const box = page.locator('.monaco-dialog-box');
  await box.waitFor({ state: 'visible', timeout: 240_000 }).catch(async (error: unknown) => {
    await page.screenshot({ path: path.join(artifacts, 'modal-missing.png') });
    throw error;
  });
  const message = (await box.locator('.dialog-message-text').textContent()) ?? '';
  const detail = (await box.locator('.dialog-message-detail').textContent().catch(() => '')) ?? '';
  const buttons = (await box.locator('.dialog-buttons .monaco-button').allTextContents()).map((text) => text.trim());
  assert.match(message, title);
  return { message, detail, buttons };
}

async function clickDialogButton(page: Page, label: string): Promise<void> {
  await page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: label }).first().click();
}

async function answerModal(page: Page, title: RegExp, button: string): Promise<void> {
  await modal(page, title);
  await clickDialogButton(page, button);
}

/** Two animation frames in the page: what was just rendered is on screen for a screenshot. */
async function painted(page: Page): Promise<void> {
  // Runs in the page (no DOM types in the tests' compilation, so the function is spelled out).
  type Frames = { requestAnimationFrame(callback: () => void): number };
  await page.evaluate(() => new Promise<void>((resolve) => {
    const frames = globalThis as unknown as Frames;
    frames.requestAnimationFrame(() => frames.requestAnimationFrame(resolve));
  }));
}

/** What a person would have seen when a step failed: a screenshot, the toasts, the notification centre and the bell. */
async function reportWhatWasOnScreen(page: Page, title: string): Promise<void> {
  const name = title.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60);
  await page.screenshot({ path: path.join(artifacts, `failed-${name}.png`) }).catch(() => undefined);
  const toasts = await page.locator('.notifications-toasts .notification-toast').allInnerTexts().catch(() => []);
  const bell = await page.locator('.statusbar-item[id="status.notifications"]').first().getAttribute('aria-label').catch(() => null);
  await page.keyboard.press('Escape').catch(() => undefined);
  await runCommand(page, 'Notifications: Show Notifications').catch(() => undefined);
  const centre = await page.locator('.notifications-center .notification-list-item').allInnerTexts().catch(() => []);
  const panel = await page.locator('.bulk-edit-panel .monaco-tl-row, [id="workbench.view.bulkEdit"] .monaco-tl-row').allInnerTexts().catch(() => []);
  await page.screenshot({ path: path.join(artifacts, `failed-${name}-centre.png`) }).catch(() => undefined);
  console.log(`  [on screen when "${title}" failed]\n  toasts: ${JSON.stringify(toasts)}\n  bell: ${bell}\n  centre: ${JSON.stringify(centre)}\n  preview panel: ${JSON.stringify(panel)}`);
}

describe('the packaged .vsix, installed into code-server', function () {
  this.timeout(15 * 60_000);
  let root: string;
  let workspace: string;
  let installed: string;
  let vsix: string;
  let target: string;
  let maxVsixBytes: number;
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  /** The sharpclaw entry Set Up MCP for Another Agent… wrote (the update test starts it after installing a newer version). */
  let writtenMcpEntry: { command: string; args: string[] } | undefined;

  before(async () => {
    fs.rmSync(artifacts, { recursive: true, force: true });
    fs.mkdirSync(artifacts, { recursive: true });
    const packaging = await importEsm(path.join(repoRoot, 'scripts', 'package.mjs'));
    target = packaging.currentTarget();
    vsix = process.env.SHARPCLAW_VSIX ?? packaging.vsixPathFor(target);
    assert.ok(fs.existsSync(vsix), `${vsix} is missing: run "npm run package" first (the package test layer does)`);
    // The budget this package was built for: a release package (Zopfli) the budget itself, a test run's
    // (zlib) the budget with Zopfli's measured margin (scripts/package.mjs, maxVsixBytesFor).
    const built = path.join(repoRoot, 'dist', 'package', `${target}.json`);
    const release = fs.existsSync(built) && (JSON.parse(fs.readFileSync(built, 'utf8')) as { vsix: string; release: boolean }).vsix === vsix
      ? (JSON.parse(fs.readFileSync(built, 'utf8')) as { release: boolean }).release
      : false;
    maxVsixBytes = packaging.maxVsixBytesFor(target, { release });
    const { installTestBed } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'install.mjs'));
    installTestBed({ versions: ['min'] });
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-pkg-'));
    workspace = path.join(root, 'ws');
    // Restored, from the fixture cache (test/support/fixtures.ts): what `dotnet restore FailingTest.slnx` leaves.
    fixtureCopyAt('VerificationFailingTest', 'FailingTest.slnx', workspace);
    // A Git repository with one edited source file, so Verify Affected has something affected.
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=pkg@example.invalid', '-c', 'user.name=pkg', ...args], { cwd: workspace, stdio: 'ignore' });
    git('init', '-q');
    fs.writeFileSync(path.join(workspace, '.gitignore'), 'bin/\nobj/\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'fixture');
    fs.appendFileSync(path.join(workspace, 'src', 'Pricing', 'Discounts.cs'), '// edited\n');
  });

  // A failed step leaves what the person would have seen: a screenshot, the toasts, the notification
  // centre and the state of the notifications bell (Do Not Disturb hides toasts).
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !page) return;
    await reportWhatWasOnScreen(page, this.currentTest.title);
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('installs with --install-extension, within the size budget and without what users never load', async () => {
    const { installExtension } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'codeServer.mjs'));
    const output: string = installExtension({ version: 'min', workDir: root, vsix });
    console.log(`      ${output.trim().split('\n').join('\n      ')}`);
    assert.match(output, /successfully installed/);
    // The platform package's folder: publisher.name-version, with -target in newer VS Code versions.
    const folders = fs.readdirSync(path.join(root, 'exts')).filter((name) => [`${manifest.publisher}.${manifest.name}-${manifest.version}`, `${manifest.publisher}.${manifest.name}-${manifest.version}-${target}`].includes(name));
    assert.equal(folders.length, 1, `the installed extension's folder: ${fs.readdirSync(path.join(root, 'exts')).join(', ')}`);
    installed = path.join(root, 'exts', folders[0]!);
    // The package names its platform target (VS Code refuses a package built for another platform).
    assert.match(execFileSync('unzip', ['-p', vsix, 'extension.vsixmanifest'], { encoding: 'utf8' }), new RegExp(`TargetPlatform="${target}"`));
    const bytes = fs.statSync(vsix).size;
    console.log(`      ${path.basename(vsix)}: ${(bytes / 1024 / 1024).toFixed(2)} MiB (budget ${(maxVsixBytes / 1024 / 1024).toFixed(2)} MiB)`);
    assert.ok(bytes <= maxVsixBytes, `${(bytes / 1024 / 1024).toFixed(2)} MiB is over the ${(maxVsixBytes / 1024 / 1024).toFixed(2)} MiB budget for ${target} (scripts/package.mjs)`);
    const windows = target.startsWith('win32-');
    for (const file of ['package.json', 'readme.md', 'dist/extension.js', 'dist/core.js', 'dist/cli.js', 'dist/server/SharpClaw.Server.dll', 'dist/server/BuildHost-netcore/Microsoft.CodeAnalysis.Workspaces.MSBuild.BuildHost.dll', ...(windows ? ['dist/server/BuildHost-net472/Microsoft.CodeAnalysis.Workspaces.MSBuild.BuildHost.exe'] : [])]) {
      assert.ok(fs.existsSync(path.join(installed, file)), `the installed extension has no ${file}`);
    }
    const files = fs.readdirSync(installed, { recursive: true, encoding: 'utf8' }).map((file) => file.split(path.sep).join('/'));
    assert.deepEqual(files.filter((file) => file.endsWith('.pdb') || file.endsWith('.resources.dll')), []);
    // What only Windows loads stays out of the other platforms' packages.
    if (!windows) assert.deepEqual(files.filter((file) => /^dist\/server\/(BuildHost-net472|runtimes\/win)/.test(file)), []);
    const readme = fs.readFileSync(path.join(installed, 'readme.md'), 'utf8');
    assert.match(readme, /^# SharpClaw\n/);
    assert.doesNotMatch(readme, /npm (start|test)|not built yet/, 'the package carries the developers\' README');
  });

  it('answers a tool call from the installed package (its CLI and its host)', () => {
    // Its own state folder: the approved snapshot this load leaves would otherwise let the workbench's host
    // answer the Rename test's first read without the approval that test walks through.
    const cliState = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-pkg-cli-state-'));
    const env = { ...process.env, SHARPCLAW_STATE_DIR: cliState };
    try {
      const output = execFileSync(process.execPath, [path.join(installed, 'dist', 'cli.js'), 'tool', 'csharp_symbols', '--input', '{"file":"Discounts.cs"}', '--allow-evaluation'], { cwd: workspace, encoding: 'utf8', timeout: 240_000, env });
      console.log(`      ${output.trim().split('\n').join('\n      ')}`);
      assert.match(output, /class Pricing\.Discounts\n/);
      assert.match(output, /method Pricing\.Discounts\.Legacy\(decimal\)/);
      // Bad input gets zod's English message (the bundles carry its English locale only).
      let rejected = '';
      try {
        execFileSync(process.execPath, [path.join(installed, 'dist', 'cli.js'), 'tool', 'csharp_symbols', '--input', '{"file":5}'], { cwd: workspace, encoding: 'utf8', stdio: 'pipe', timeout: 60_000, env });
      } catch (error) {
        rejected = String((error as { stdout?: string }).stdout) + String((error as { stderr?: string }).stderr);
      }
      assert.match(rejected, /invalid_request: file: Invalid input: expected string, received number\./);
    } finally {
      // Ends the resident host this call left (it notices its socket file is gone) with the folder.
      fs.rmSync(cliState, { recursive: true, force: true });
    }
  });

  it('opens the folder in Restricted Mode: the sidebar offers Manage Workspace Trust instead of Load and Verify, and asks nothing', async () => {
    const { startCodeServer } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'codeServer.mjs'));
    const { launchBrowser } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'browser.mjs'));
    server = (await startCodeServer({
      version: 'min', workDir: root, folder: workspace, logFile: path.join(artifacts, 'code-server.log'),
      // Workspace Trust on, as for a person: the folder opens in Restricted Mode until they trust it.
      disableWorkspaceTrust: false,
      // High contrast is the "light" theme of Preferences: Toggle between Light/Dark Themes (see the narrow-sidebar test).
      settings: { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'workbench.preferredLightColorTheme': 'Default High Contrast' },
      // SharpClaw's state folder goes with the session's folder, not into the person's ~/.cache/sharpclaw.
      env: { SHARPCLAW_STATE_DIR: path.join(root, 'state') },
    })) as CodeServer;
    browser = (await launchBrowser()) as Browser;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // The README images' host, for the details-page test near the end of this session (detailsPage.ts).
    await serveReadmeImages(context, target);
    page = await context.newPage();
    // The workbench's page load took over 30 s (Playwright's default) at load average 48 on two cores.
    await page.goto(server.workbenchUrl({}), { timeout: 180_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.activitybar').waitFor({ timeout: 60_000 });
    const sidebar = await openSidebar(page);
    const restricted = sidebar.locator('[data-testid=restricted]');
    await restricted.waitFor({ timeout: 60_000 });
    assert.match((await restricted.textContent()) ?? '', /Restricted Mode/);
    assert.equal(await sidebar.getByRole('button', { name: 'Load Workspace' }).count(), 0);
    assert.equal(await sidebar.getByRole('button', { name: 'Verify Affected' }).count(), 0);
    await page.screenshot({ path: path.join(artifacts, 'restricted.png') });
    await restricted.getByRole('button', { name: 'Manage Workspace Trust' }).click();
    await page.locator('.tabs-container .tab', { hasText: 'Workspace Trust' }).first().waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'Restricted Mode must not even ask');
    // The person trusts the folder: the sidebar offers Load and Verify without a reload.
    await page.locator('.workspace-trust-editor .monaco-button', { hasText: /^\s*Trust\s*$/ }).first().click();
    await sidebar.locator('[data-testid=empty-state]').waitFor({ timeout: 60_000 });
    await closeAllEditors(page);
  });

  it('activates in the workbench and its Roslyn host answers: Show Host Status', async () => {
    await runCommand(page, 'SharpClaw: Show Host Status');
    await toast(page, /SharpClaw host \d+\.\d+\.\d+: Roslyn .*SDKs/).waitFor({ timeout: 120_000 });
    await page.screenshot({ path: path.join(artifacts, 'host-status.png') });
  });

  it('Verify Affected from the command palette asks in a modal; Allow once runs it and the sidebar shows the failing test', async () => {
    await clearNotifications(page);
    const sidebar = await openSidebar(page);
    await runCommand(page, 'SharpClaw: Verify Affected');
    const dialog = await modal(page, /Allow SharpClaw to build and test FailingTest\.slnx\?/);
    assert.match(dialog.detail, /What runs: /);
    // The person ran the command: the modal says so, not a tool id.
    assert.match(dialog.detail, /Asked by: you, via SharpClaw: Verify Affected/);
    // Three buttons and no separate Cancel: Deny is the close affordance.
    // (VS Code orders a modal's buttons per platform; the set is what matters.)
    assert.deepEqual([...dialog.buttons].sort(), ['Allow once', 'Always for this workspace', 'Deny']);
    await page.screenshot({ path: path.join(artifacts, 'approval-modal.png') });
    await clickDialogButton(page, 'Allow once');
    // While it runs the sidebar says so.
    await sidebar.locator('[data-testid=verifying]', { hasText: 'Verifying…' }).waitFor({ timeout: 60_000 });
    await page.screenshot({ path: path.join(artifacts, 'verifying.png') });
    const failed = sidebar.locator('[data-testid=failed-test]', { hasText: failingTest });
    await failed.waitFor({ timeout: 300_000 });
    assert.match((await failed.textContent()) ?? '', /Assert\.|Expected|Actual/);
    const summary = (await sidebar.locator('[data-testid=report-summary]').textContent()) ?? '';
    assert.match(summary, /^Verify Affected failed: build passed with 1 warning; 1 test passed, 1 failed, 1 skipped \(OrdersOfExactlyOneHundredGetTheDiscount\)\.$/);
    // The toast is the same one sentence, with Show Details; no raw enum values or "(s)" counts anywhere.
    const { message, buttons } = await readToast(page, 'Verify Affected failed');
    assert.match(message, /^SharpClaw: Verify Affected failed: /);
    assert.deepEqual(buttons, ['Show Details']);
    const sidebarText = (await sidebar.locator('body').textContent()) ?? '';
    assert.doesNotMatch(`${message}\n${sidebarText}`, /notRun|timedOut|\d+ errors? \(|error\(s\)|warning\(s\)|test run error|affected\.proj/);
    // Verify and Load stay in the view once a report exists.
    await sidebar.locator('[data-testid=report-section]').getByRole('button', { name: 'Verify Affected' }).waitFor();
    await sidebar.locator('[data-testid=report-section]').getByRole('button', { name: 'Load Workspace' }).waitFor();
  });

  it('a click on the failed test\'s source link lands in the editor at its line', async () => {
    const sidebar = await openSidebar(page);
    const link = sidebar.locator('[data-testid=failed-test] a').first();
    const label = (await link.textContent()) ?? '';
    const line = Number(/:line (\d+)$/.exec(label)?.[1]);
    assert.ok(line > 0, `the stack link "${label}" names no line`);
    await link.click();
    await page.locator('.tabs-container .tab.active', { hasText: 'DiscountTests.cs' }).waitFor({ timeout: 30_000 });
    await page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${line}, Col`) }).first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(artifacts, 'editor-at-failure.png') });
  });

  it('a click on the compiler warning in the sidebar lands in the editor at its line and column (README screenshot)', async () => {
    await closeAllEditors(page);
    const sidebar = await openSidebar(page);
    const diagnostic = sidebar.locator('[data-testid=diagnostic]', { hasText: 'CS0168' }).first();
    await diagnostic.waitFor({ timeout: 30_000 });
    const [line, column] = ((await diagnostic.locator('a').first().textContent()) ?? '').split(':').map(Number);
    assert.ok(line! > 0 && column! > 0, 'the diagnostic link is line:column');
    await diagnostic.locator('a').first().click();
    await page.locator('.tabs-container .tab.active', { hasText: 'Discounts.cs' }).waitFor({ timeout: 30_000 });
    await page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${line}, Col ${column}\\b`) }).first().waitFor({ timeout: 30_000 });
    await clearNotifications(page);
    await painted(page);
    await readmeScreenshot(page, 'sidebar-report');
  });

  it('Escape on the approval modal denies: nothing runs and the report says it did not run', async () => {
    await clearNotifications(page);
    await runCommand(page, 'SharpClaw: Verify Affected');
    await modal(page, /Allow SharpClaw to build and test/);
    await page.keyboard.press('Escape');
    await readToast(page, 'Verify Affected did not run: You denied SharpClaw permission');
    const sidebar = await openSidebar(page);
    await sidebar.locator('[data-testid=report-summary]', { hasText: 'did not run' }).waitFor({ timeout: 30_000 });
    await sidebar.locator('[data-testid=approvals-section] li[data-granted=false]').first().waitFor();
    await page.screenshot({ path: path.join(artifacts, 'denied.png') });
  });

  it('Verify Build asks in a modal, reports the CS0168 warning in Problems, and still does on a second, incremental run', async () => {
    for (const round of [1, 2]) {
      await clearNotifications(page);
      await runCommand(page, 'SharpClaw: Verify Build');
      await answerModal(page, /Allow SharpClaw to build and test FailingTest\.slnx\?/, 'Allow once');
      await toast(page, /Verify Build passed: build passed with 1 warning\./).waitFor({ timeout: 300_000 });
      await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
      await page.locator('.markers-panel .monaco-list-row', { hasText: 'CS0168' }).first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: path.join(artifacts, `verify-build-${round}.png`) });
    }
  });

  it('Rename Symbol… says a conflict in one sentence, shows the rename as a diff in the Refactor Preview and writes it only when applied (README screenshots)', async () => {
    const source = path.join(workspace, 'src', 'Pricing', 'Discounts.cs');
    const tests = path.join(workspace, 'tests', 'Pricing.Tests', 'DiscountTests.cs');
    // A command that works on "the symbol under the cursor" must not find an editor a previous step left open.
    await closeAllEditors(page);
    await clearNotifications(page);
    const sidebar = await openSidebar(page);
    const askForName = async (name: string) => {
      await runCommand(page, 'SharpClaw: Rename Symbol (compiler-checked)…');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ timeout: 30_000 });
      // The example names a method the sample really has.
      await page.locator('.quick-input-widget', { hasText: 'Calculator.Add(double, double)' }).waitFor({ timeout: 30_000 });
      await input.fill(name);
      await page.keyboard.press('Enter');
    };
    const newNameBox = page.locator('.quick-input-widget', { hasText: 'Rename method Pricing.Discounts.Apply(decimal)' });
    await askForName('Discounts.Apply');

    // The first query loads the solution: MSBuild evaluation needs the person's approval.
    const dialog = await modal(page, /Allow SharpClaw to (load|evaluate)/);
    assert.match(dialog.detail, /Asked by: you, via SharpClaw: Rename Symbol/);
    await clickDialogButton(page, 'Always for this workspace');

    // A name the type already has is a conflict, said in one sentence with Show Details.
    await newNameBox.waitFor({ timeout: 240_000 });
    await page.locator('.quick-input-widget input').fill('Legacy');
    await page.keyboard.press('Enter');
    const conflict = await readToast(page, "already defines 'Legacy'", 120_000);
    assert.match(conflict.message, /^SharpClaw did not rename: 'Discounts' already defines 'Legacy'; renaming Pricing\.Discounts\.Apply\(decimal\) to Legacy would collide with it, so nothing was changed\.$/);
    assert.deepEqual(conflict.buttons, ['Show Details']);
    assert.doesNotMatch(conflict.message, /new_errors|rename_conflict|error CS|members action|\/tmp\//);
    // The load the rename started shows in the sidebar without Refresh, and the approval is named plainly.
    await sidebar.locator('[data-testid=host-status]', { hasText: 'FailingTest.slnx' }).waitFor({ timeout: 60_000 });
    await sidebar.locator('[data-testid=approvals-allowed]', { hasText: 'Allowed for this workspace without asking: load projects with MSBuild.' }).waitFor({ timeout: 30_000 });
    await sidebar.locator('[data-testid=approvals-allowed]').getByRole('button', { name: 'Reset' }).waitFor();
    await painted(page);
    await readmeScreenshot(page, 'rename-conflict');
    await clearNotifications(page);

    await askForName('Discounts.Apply');
    await newNameBox.waitFor({ timeout: 240_000 });
    await page.locator('.quick-input-widget input').fill('ApplyDiscount');
    await page.keyboard.press('Enter');

    // Nothing is written before the person applies the preview.
    const panel = page.locator('.bulk-edit-panel, [id="workbench.view.bulkEdit"]').first();
    await panel.waitFor({ timeout: 240_000 });
    await panel.locator('.monaco-tl-row', { hasText: 'Discounts.cs' }).first().waitFor({ timeout: 30_000 });
    await panel.locator('.monaco-tl-row', { hasText: 'DiscountTests.cs' }).first().waitFor({ timeout: 30_000 });
    // The validation verdict is shown with the preview.
    await toast(page, 'compiler-checked: no new errors').waitFor({ timeout: 30_000 });
    await toast(page, 'tick the files').waitFor({ timeout: 30_000 });
    assert.match(fs.readFileSync(source, 'utf8'), /decimal Apply\(/, 'the preview wrote before Apply');
    // A click on a file shows its diff.
    await panel.locator('.monaco-tl-row', { hasText: 'Discounts.cs' }).first().click();
    // Its lines are drawn (both sides show today's text until a file is ticked).
    await page.locator('.monaco-diff-editor .view-line', { hasText: 'public static class Discounts' }).first().waitFor({ timeout: 30_000 });
    await painted(page);
    await readmeScreenshot(page, 'rename-preview');

    // Entries that need confirmation start unticked: the person ticks each file they accept.
    for (const file of ['Discounts.cs', 'DiscountTests.cs']) {
      const row = panel.locator('.monaco-tl-row', { hasText: file }).first();
      await row.locator('input[type=checkbox], .monaco-checkbox, .monaco-custom-toggle').first().click();
    }
    await page.screenshot({ path: path.join(artifacts, 'rename-preview-ticked.png') });
    await page.getByRole('button', { name: 'Apply', exact: true }).first().click();
    const deadline = Date.now() + 60_000;
    while (!/decimal ApplyDiscount\(/.test(fs.readFileSync(source, 'utf8')) || !/Discounts\.ApplyDiscount\(100m\)/.test(fs.readFileSync(tests, 'utf8'))) {
      assert.ok(Date.now() < deadline, 'the applied rename did not reach the disk');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await toast(page, 'renamed Apply to ApplyDiscount in 2 files').waitFor({ timeout: 30_000 });
    // The verdict closed with the preview: one toast says what happened, none pile up.
    await toast(page, 'compiler-checked: no new errors').waitFor({ state: 'detached', timeout: 30_000 });
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').fill('Discounts.cs');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Discounts.cs' }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
    await page.locator('.view-lines', { hasText: 'ApplyDiscount(decimal total)' }).first().waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(artifacts, 'rename-applied.png') });

    // With the cursor on a C# symbol, Rename Symbol… renames that symbol: no name to type.
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input').fill(':6:30');
    await page.keyboard.press('Enter');
    await page.locator('.statusbar-item', { hasText: /Ln 6, Col 30\b/ }).first().waitFor({ timeout: 30_000 });
    await runCommand(page, 'SharpClaw: Rename Symbol (compiler-checked)…');
    const renameBox = page.locator('.quick-input-widget', { hasText: 'Rename method Pricing.Discounts.ApplyDiscount(decimal)' });
    await renameBox.waitFor({ timeout: 60_000 });
    assert.equal(await renameBox.locator('input').inputValue(), 'ApplyDiscount');
    await renameBox.locator('input').fill('ApplyTenPercent');
    await page.keyboard.press('Enter');
    // Apply with nothing ticked (VS Code starts the files unticked) writes nothing and says how to tick.
    // This rename's own verdict first: the panel may still show the previous preview's rows.
    await toast(page, 'renaming ApplyDiscount to ApplyTenPercent').waitFor({ timeout: 240_000 });
    await panel.locator('.monaco-tl-row', { hasText: 'Discounts.cs' }).first().waitFor({ timeout: 240_000 });
    await page.getByRole('button', { name: 'Apply', exact: true }).first().click();
    await readToast(page, 'no files were selected in the Refactor Preview');
    assert.match(fs.readFileSync(source, 'utf8'), /decimal ApplyDiscount\(/, 'an Apply with nothing ticked writes nothing');
    await closeAllEditors(page);
  });

  it('Set Up MCP for Another Agent… writes the picked client\'s file with the ticked permission, after a modal that names it', async () => {
    const config = path.join(workspace, '.mcp.json');
    // Someone's existing server (with a comment) must survive the merge.
    fs.writeFileSync(config, '{\n  // the team\'s servers\n  "mcpServers": { "other": { "command": "other-server" } }\n}\n');
    await clearNotifications(page);
    await runCommand(page, 'SharpClaw: Set Up MCP for Another Agent…');
    const picker = page.locator('.quick-input-widget');
    await picker.locator('.monaco-list-row', { hasText: 'Claude Code' }).first().waitFor({ timeout: 60_000 });
    await picker.locator('input').fill('Claude Code');
    await page.keyboard.press('Enter');
    await picker.locator('.monaco-list-row', { hasText: 'Load the solution (MSBuild evaluation)' }).first().waitFor({ timeout: 30_000 });
    await picker.locator('.monaco-list-row', { hasText: 'Load the solution (MSBuild evaluation)' }).first().click();
    await page.keyboard.press('Enter');
    const dialog = await modal(page, /^Add SharpClaw's MCP server in .*\.mcp\.json\?$/);
    // What is written survives an update (issue 40): the launcher in the extension's global storage
    // (or `sharpclaw` when the npm package is on PATH), never this version's dist/cli.js.
    const onPath = sharpclawOnPath(process.env);
    const launcher = path.join(root, 'udd', 'User', 'globalStorage', 'sharpclaw.sharpclaw', 'bin', 'sharpclaw');
    assert.match(dialog.detail, /Claude Code will start it with --allow-evaluation\. The command is /);
    assert.match(dialog.detail, onPath ? /"sharpclaw" from your PATH/ : /SharpClaw's launcher in VS Code's storage \(.*\): it keeps working after SharpClaw updates and needs no Node\.js, but it exists only on this machine; a teammate using this file needs the npm package/);
    assert.match(dialog.detail, /Other servers and comments in the file stay\./);
    assert.equal(fs.readFileSync(config, 'utf8').includes('sharpclaw'), false, 'nothing is written before Write');
    await clickDialogButton(page, 'Write');
    await readToast(page, /SharpClaw's MCP server is set up for Claude Code in .*\.mcp\.json\./);
    const written = fs.readFileSync(config, 'utf8');
    assert.match(written, /\/\/ the team's servers/);
    const servers = (parseJsonc(written) as { mcpServers: Record<string, unknown> }).mcpServers;
    assert.deepEqual(servers.other, { command: 'other-server' });
    assert.deepEqual(servers.sharpclaw, { type: 'stdio', command: onPath ? 'sharpclaw' : launcher, args: ['mcp', '--allow-evaluation'] });
    writtenMcpEntry = servers.sharpclaw as { command: string; args: string[] };
    // The launcher starts the installed package's CLI.
    if (!onPath) assert.match(execFileSync(launcher, ['--version'], { encoding: 'utf8' }), /^sharpclaw \d+\.\d+\.\d+/m, 'the launcher starts the CLI');
    fs.rmSync(config);
    await clearNotifications(page);
  });

  it("Set Up MCP for Another Agent… refuses a .vscode that links to VS Code's user folder: a warning, no modal, nothing written there (issue 36)", async () => {
    const dotVscode = path.join(workspace, '.vscode');
    const aside = path.join(root, 'vscode-aside');
    if (fs.existsSync(dotVscode)) fs.renameSync(dotVscode, aside);
    const userFolder = path.join(root, 'user-config', 'Code', 'User');
    fs.mkdirSync(userFolder, { recursive: true });
    fs.symlinkSync(userFolder, dotVscode);
    try {
      await runCommand(page, 'SharpClaw: Set Up MCP for Another Agent…');
      const picker = page.locator('.quick-input-widget');
      await picker.locator('.monaco-list-row', { hasText: 'VS Code MCP configuration' }).first().waitFor({ timeout: 60_000 });
      await picker.locator('input').fill('VS Code MCP configuration');
      await page.keyboard.press('Enter');
      for (const grant of ['Load the solution (MSBuild evaluation)', 'Apply edits', 'Build and test']) {
        await picker.locator('.monaco-list-row', { hasText: grant }).first().waitFor({ timeout: 30_000 });
        await picker.locator('.monaco-list-row', { hasText: grant }).first().click();
      }
      await page.keyboard.press('Enter');
      // The toast's one sentence; the log (Show Details) has the whole refusal.
      const warning = await readToast(page, /SharpClaw did not set up MCP: .*\.vscode is a link \(to .*User\)/);
      assert.deepEqual(warning.buttons, ['Show Details']);
      assert.equal(await page.locator('.monaco-dialog-box').isVisible(), false, 'no modal offers to write');
      assert.deepEqual(fs.readdirSync(userFolder), []);
    } finally {
      // A modal left open (the defect: it offered to write through the link) would block the palette.
      await page.keyboard.press('Escape');
      fs.rmSync(dotVscode);
      if (fs.existsSync(aside)) fs.renameSync(aside, dotVscode);
      await clearNotifications(page);
    }
  });

  it('the whole sidebar stays readable at its narrowest in the dark and high-contrast themes (screenshots)', async () => {
    await closeAllEditors(page);
    await clearNotifications(page);
    const sidebar = await openSidebar(page);
    await sidebar.locator('[data-testid=host-section]').waitFor({ timeout: 30_000 });
    await sidebar.locator('[data-testid=report-section]').waitFor({ timeout: 30_000 });
    await shrinkSidebarToMinimum(page, sidebar);
    const part = page.locator('[id="workbench.parts.sidebar"]');
    // A window as tall as the sidebar's content, so the screenshots show all of it.
    await page.setViewportSize({ width: 1280, height: 2000 });
    for (const [name, bodyClass] of [['dark', 'vscode-dark'], ['high-contrast', 'vscode-high-contrast']] as const) {
      // The test bed starts dark; the toggle switches to the preferred "light" theme, set to Default High Contrast.
      if (name === 'high-contrast') await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
      await sidebar.locator(`body.${bodyClass}`).waitFor({ timeout: 60_000 });
      await painted(page);
      // Runs in the webview (no DOM types in the tests' compilation, so the shapes are spelled out).
      type Rect = { left: number; right: number; width: number; height: number };
      type Box = { textContent: string | null; scrollWidth: number; clientWidth: number; getClientRects(): { length: number }; getBoundingClientRect(): Rect };
      type Style = { fontSize: string; borderTopStyle: string; borderTopWidth: string; borderTopColor: string; color: string; backgroundColor: string };
      type Text = { nodeType: number; data: string };
      type Range = { setStart(node: Text, offset: number): void; setEnd(node: Text, offset: number): void; getBoundingClientRect(): Rect & { top: number } };
      type PathBox = Box & { childNodes: Iterable<Text>; parentElement: Box };
      type Body = Box & { ownerDocument: { defaultView: { getComputedStyle(node: Box): Style }; createRange(): Range }; querySelectorAll(selector: string): Iterable<Box> };
      const layout = await sidebar.locator('body').evaluate((node) => {
        const body = node as unknown as Body;
        const style = (element: Box) => body.ownerDocument.defaultView.getComputedStyle(element);
        const bodyBox = body.getBoundingClientRect();
        const visibleBorder = (element: Box) => style(element).borderTopStyle !== 'none' && parseFloat(style(element).borderTopWidth) > 0 && !/rgba\(\d+, \d+, \d+, 0\)|transparent/.test(style(element).borderTopColor);
        return {
          overflow: body.scrollWidth - body.clientWidth,
          // Pills and buttons: on one line, inside the view, and their own text not cut off.
          wrapped: [...body.querySelectorAll('.badge')].filter((badge) => badge.getClientRects().length > 1 || badge.getBoundingClientRect().height > 2 * parseFloat(style(badge).fontSize)).map((badge) => badge.textContent),
          clipped: [...body.querySelectorAll('.badge, button, h2, a')].filter((element) => element.scrollWidth > element.clientWidth + 1 || element.getBoundingClientRect().right > bodyBox.right + 1).map((element) => element.textContent),
          // In high contrast every pill and button has a visible border (the theme's contrastBorder).
          borderless: [...body.querySelectorAll('.badge, button')].filter((element) => !visibleBorder(element)).map((element) => element.textContent),
          // Text wraps after a space, '-', '/' or '\\', not inside a word or name that would fit on a line of its
          // own (stack traces are code, which may break anywhere).
          pathBreaks: [...body.querySelectorAll('body *:not(pre, pre *, script, style)')].flatMap((element) => {
            const path = element as PathBox;
            const chars: { char: string; top: number; width: number }[] = [];
            for (const text of path.childNodes) {
              if (text.nodeType !== 3) continue;
              for (let i = 0; i < text.data.length; i++) {
                const range = body.ownerDocument.createRange();
                range.setStart(text, i);
                range.setEnd(text, i + 1);
                const rect = range.getBoundingClientRect();
                chars.push({ char: text.data[i]!, top: rect.top, width: rect.width });
              }
            }
            const bad: string[] = [];
            for (let i = 1; i < chars.length; i++) {
              if (chars[i]!.top <= chars[i - 1]!.top + 1 || /[/\\\s-]/.test(chars[i - 1]!.char)) continue;
              let start = i;
              while (start > 0 && !/[/\\\s-]/.test(chars[start - 1]!.char)) start--;
              let end = i;
              while (end < chars.length && !/[/\\\s-]/.test(chars[end]!.char)) end++;
              const name = chars.slice(start, end + 1);
              if (name.reduce((sum, c) => sum + c.width, 0) <= path.parentElement.getBoundingClientRect().width) bad.push(`${name.map((c) => c.char).join('')} (in ${path.textContent})`);
            }
            return bad;
          }),
        };
      });
      await readmeScreenshot(part, `sidebar-narrow-${name}`);
      assert.ok(layout.overflow <= 1, `${name}: the sidebar scrolls sideways by ${layout.overflow}px`);
      assert.deepEqual(layout.wrapped, [], `${name}: pills wrap`);
      assert.deepEqual(layout.clipped, [], `${name}: text is cut off`);
      assert.deepEqual(layout.pathBreaks, [], `${name}: text wraps inside a word or name`);
      if (name === 'high-contrast') assert.deepEqual(layout.borderless, [], `${name}: pills or buttons without a visible border`);
    }
  });

  it('Load Workspace from the sidebar shows what loading gave, and Reset forgets the approval', async () => {
    const sidebar = await openSidebar(page);
    await sidebar.locator('[data-testid=actions]').getByRole('button', { name: 'Load Workspace' }).first().click();
    const loaded = sidebar.locator('[data-testid=workspace-section]');
    // Without an earlier "Always for this workspace" (the rename test gives one), loading asks first.
    const dialog = page.locator('.monaco-dialog-box');
    await Promise.race([loaded.waitFor({ timeout: 240_000 }), dialog.waitFor({ state: 'visible', timeout: 240_000 })]);
    if (await dialog.isVisible()) await clickDialogButton(page, 'Always for this workspace');
    await loaded.waitFor({ timeout: 240_000 });
    assert.match((await loaded.locator('[data-testid=load-summary]').textContent()) ?? '', /^FailingTest\.slnx · Debug · 2 projects/);
    const projects = (await loaded.locator('[data-testid=loaded-projects]').textContent()) ?? '';
    assert.match(projects, /src\/Pricing\/Pricing\.csproj — net10\.0/);
    assert.match(projects, /tests\/Pricing\.Tests\/Pricing\.Tests\.csproj — net10\.0 · tests/);
    assert.match((await loaded.textContent()) ?? '', /Nothing excluded|Excluded or with problems/);
    assert.match((await loaded.locator('[data-testid=agent-tools]').textContent()) ?? '', /Find C# references/);
    await page.screenshot({ path: path.join(artifacts, 'workspace-loaded.png') });
    await sidebar.locator('[data-testid=approvals-allowed]').getByRole('button', { name: 'Reset' }).click();
    await sidebar.locator('[data-testid=approvals-allowed]', { hasText: 'Nothing is allowed permanently for this workspace' }).waitFor({ timeout: 30_000 });
  });

  // The details page of the installed package on this session's VS Code (1.100.3); readmeImages.smoke.ts checks it on 1.139.1.
  it('the details page shows the user README with every image loaded (natural width > 0)', async () => {
    await closeAllEditors(page);
    const { codeServerVersions } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'paths.mjs'));
    await assertDetailsPageShowsReadme(page, codeServerVersions.min.vscode, path.join(artifacts, 'readme-images'));
  });

  // Last: it removes the installed folder the running workbench was started from. Version B is this
  // package with a higher version in its manifests (extension/package.json, extension.vsixmanifest),
  // so VS Code treats it as an update; the bundle inside is the same.
  it('the MCP entry Set Up MCP wrote still starts the server after a newer version is installed over it (issue 40)', async () => {
    assert.ok(writtenMcpEntry, 'the Set Up MCP test wrote no entry');
    const [major, minor, patch] = manifest.version.split('.').map(Number) as [number, number, number];
    const newer = `${major}.${minor}.${patch + 1}`;
    const staging = fs.mkdtempSync(path.join(root, 'vsix-b-'));
    const vsixB = path.join(root, `sharpclaw-${newer}.vsix`);
    fs.copyFileSync(vsix, vsixB);
    const entry = (name: string) => execFileSync('unzip', ['-p', vsix, name], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    const packageJson = JSON.parse(entry('extension/package.json')) as { version: string };
    packageJson.version = newer;
    fs.mkdirSync(path.join(staging, 'extension'));
    fs.writeFileSync(path.join(staging, 'extension', 'package.json'), JSON.stringify(packageJson, null, 2));
    const vsixManifest = entry('extension.vsixmanifest');
    assert.match(vsixManifest, new RegExp(`Version="${manifest.version.replace(/\./g, '\\.')}"`));
    fs.writeFileSync(path.join(staging, 'extension.vsixmanifest'), vsixManifest.replace(`Version="${manifest.version}"`, `Version="${newer}"`));
    execFileSync('zip', ['-q', vsixB, 'extension/package.json', 'extension.vsixmanifest'], { cwd: staging });

    const { installExtension } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'codeServer.mjs'));
    const output: string = installExtension({ version: 'min', workDir: root, vsix: vsixB });
    assert.match(output, /successfully installed/);
    const exts = path.join(root, 'exts');
    const prefix = `${manifest.publisher}.${manifest.name}-`;
    const folderB = fs.readdirSync(exts).find((name) => name.startsWith(`${prefix}${newer}`));
    assert.ok(folderB, `version ${newer} is not installed: ${fs.readdirSync(exts).join(', ')}`);
    // VS Code marks the old version obsolete now and deletes its folder at its next start: do that here,
    // so only version B is left to run.
    fs.rmSync(installed, { recursive: true, force: true });
    assert.deepEqual(fs.readdirSync(exts).filter((name) => name.startsWith(prefix)), [folderB]);

    // Started as the agent would: the command and arguments the file names, in the project folder.
    const { Client } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    const state = fs.mkdtempSync(path.join(root, 'mcp-state-'));
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: writtenMcpEntry.command, args: writtenMcpEntry.args, cwd: workspace,
      env: { ...(process.env as Record<string, string>), SHARPCLAW_STATE_DIR: state }, stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(String(chunk)));
    const client = new Client({ name: 'another-agent', version: '1' });
    try {
      await client.connect(transport);
      assert.equal(client.getServerVersion()?.name, 'sharpclaw');
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(tools.includes('navigate') && tools.includes('diagnostics'), `tools/list: ${tools.join(', ')}`);
    } catch (error) {
      throw new Error(`${writtenMcpEntry.command} ${writtenMcpEntry.args.join(' ')} did not serve MCP after the update: ${String(error)}\n${stderr.join('')}`);
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});
