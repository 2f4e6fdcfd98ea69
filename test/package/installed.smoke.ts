// The installed extension, as a person gets it: the .vsix that `npm run package` built, installed
// into code-server with --install-extension (not development mode), driven through the workbench
// in Chromium. Activation, host ready, a tool answer from the installed package, Verify Build
// twice through the approval modal (the warning stays), Verify Affected's report in the sidebar,
// a compiler-checked rename (a conflict, then the Refactor Preview), the details page rendering the
// user README with its images, and the whole sidebar at its narrowest in the dark and high-contrast
// themes. Artifacts go to test-results/package/. With SHARPCLAW_UPDATE_SCREENSHOTS=1
// (`npm run screenshots`) the README's screenshots in docs/ are written from this run.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { closeAllEditors, openSidebar, runCommand, shrinkSidebarToMinimum } from '../browser/workbench';

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

async function answerModal(page: Page, title: RegExp, button: string): Promise<void> {
  const box = page.locator('.monaco-dialog-box');
  await box.waitFor({ state: 'visible', timeout: 240_000 }).catch(async (error: unknown) => {
    await page.screenshot({ path: path.join(artifacts, 'modal-missing.png') });
    throw error;
  });
  assert.match((await box.locator('.dialog-message-text').textContent()) ?? '', title);
  await box.locator('.dialog-buttons .monaco-button', { hasText: button }).first().click();
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

  before(async () => {
    fs.rmSync(artifacts, { recursive: true, force: true });
    fs.mkdirSync(artifacts, { recursive: true });
    const packaging = await importEsm(path.join(repoRoot, 'scripts', 'package.mjs'));
    target = packaging.currentTarget();
    maxVsixBytes = packaging.maxVsixBytesFor(target);
    vsix = process.env.SHARPCLAW_VSIX ?? packaging.vsixPathFor(target);
    assert.ok(fs.existsSync(vsix), `${vsix} is missing: run "npm run package" first (the package test layer does)`);
    const { installTestBed } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'install.mjs'));
    installTestBed({ versions: ['min'] });
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-pkg-'));
    workspace = path.join(root, 'ws');
    fs.cpSync(path.join(repoRoot, 'fixtures', 'VerificationFailingTest'), workspace, { recursive: true, filter: (p) => !['bin', 'obj'].includes(path.basename(p)) });
    execFileSync('dotnet', ['restore', 'FailingTest.slnx', '-nologo'], { cwd: workspace, stdio: 'ignore' });
    // A Git repository with one edited source file, so Verify Affected has something affected.
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=pkg@example.invalid', '-c', 'user.name=pkg', ...args], { cwd: workspace, stdio: 'ignore' });
    git('init', '-q');
    fs.writeFileSync(path.join(workspace, '.gitignore'), 'bin/\nobj/\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'fixture');
    fs.appendFileSync(path.join(workspace, 'src', 'Pricing', 'Discounts.cs'), '// edited\n');
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
    console.log(`      ${path.basename(vsix)}: ${(bytes / 1024 / 1024).toFixed(2)} MiB`);
    assert.ok(bytes <= maxVsixBytes, `${(bytes / 1024 / 1024).toFixed(2)} MiB is over the ${maxVsixBytes / 1024 / 1024} MiB budget for ${target} (scripts/package.mjs)`);
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

  it('activates in the workbench and its Roslyn host answers: Show Host Status', async () => {
    const { startCodeServer } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'codeServer.mjs'));
    const { launchBrowser } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'browser.mjs'));
    // High contrast is the "light" theme of Preferences: Toggle between Light/Dark Themes (see the narrow-sidebar test).
    server = (await startCodeServer({ version: 'min', workDir: root, folder: workspace, logFile: path.join(artifacts, 'code-server.log'), settings: { 'workbench.preferredLightColorTheme': 'Default High Contrast' } })) as CodeServer;
    browser = (await launchBrowser()) as Browser;
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.workbenchUrl({}));
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await runCommand(page, 'SharpClaw: Show Host Status');
    await toast(page, /SharpClaw host \d+\.\d+\.\d+: Roslyn .*SDKs/).waitFor({ timeout: 120_000 });
    await page.screenshot({ path: path.join(artifacts, 'host-status.png') });
  });

  it('answers a tool call from the installed package (its CLI and its host)', () => {
    // Its own state folder: the approved snapshot this load leaves would otherwise let the workbench's host
    // answer the Rename test's first read without the approval that test walks through.
    const cliState = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-pkg-cli-state-'));
    const env = { ...process.env, SHARPCLAW_STATE_DIR: cliState };
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
    fs.rmSync(cliState, { recursive: true, force: true });
  });

  it('Verify Build asks in a modal, reports the CS0168 warning in Problems, and still does on a second, incremental run', async () => {
    for (const round of [1, 2]) {
      await runCommand(page, 'Notifications: Clear All Notifications');
      await runCommand(page, 'SharpClaw: Verify Build');
      const box = page.locator('.monaco-dialog-box');
      await box.waitFor({ state: 'visible', timeout: 120_000 });
      assert.match((await box.locator('.dialog-message-text').textContent()) ?? '', /Allow SharpClaw to build and test FailingTest\.slnx\?/);
      if (round === 1) await page.screenshot({ path: path.join(artifacts, 'approval-modal.png') });
      await box.locator('.dialog-buttons .monaco-button', { hasText: 'Allow once' }).first().click();
      await toast(page, /Verify Build passed: build passed with 1 warning\./).waitFor({ timeout: 300_000 });
      await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
      await page.locator('.markers-panel .monaco-list-row', { hasText: 'CS0168' }).first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: path.join(artifacts, `verify-build-${round}.png`) });
    }
  });

  it('Verify Affected shows the failing test and the warning in the sidebar; a click on the warning opens the editor at it (README screenshot)', async () => {
    await closeAllEditors(page);
    await runCommand(page, 'Notifications: Clear All Notifications');
    const sidebar = await openSidebar(page);
    await runCommand(page, 'SharpClaw: Verify Affected');
    await answerModal(page, /Allow SharpClaw to build and test FailingTest\.slnx\?/, 'Allow once');
    await sidebar.locator('[data-testid=failed-test]', { hasText: failingTest }).waitFor({ timeout: 300_000 });
    assert.match((await sidebar.locator('[data-testid=report-summary]').textContent()) ?? '', /^Verify Affected failed: build passed with 1 warning; 1 test passed, 1 failed, 1 skipped \(OrdersOfExactlyOneHundredGetTheDiscount\)\.$/);
    const diagnostic = sidebar.locator('[data-testid=diagnostic]', { hasText: 'CS0168' }).first();
    const [line, column] = ((await diagnostic.locator('a').first().textContent()) ?? '').split(':').map(Number);
    await diagnostic.locator('a').first().click();
    await page.locator('.tabs-container .tab.active', { hasText: 'Discounts.cs' }).waitFor({ timeout: 30_000 });
    await page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${line}, Col ${column}\\b`) }).first().waitFor({ timeout: 30_000 });
    await runCommand(page, 'Notifications: Clear All Notifications');
    await page.waitForTimeout(500);
    await readmeScreenshot(page, 'sidebar-report');
  });

  it('Rename Symbol (compiler-checked)… says a conflict in one sentence, then shows the rename as a diff in the Refactor Preview (README screenshots)', async () => {
    await closeAllEditors(page);
    await runCommand(page, 'Notifications: Clear All Notifications');
    const sidebar = await openSidebar(page);
    const newNameBox = page.locator('.quick-input-widget', { hasText: 'Rename method Pricing.Discounts.Apply(decimal)' });
    const rename = async (newName: string) => {
      await runCommand(page, 'SharpClaw: Rename Symbol (compiler-checked)…');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ timeout: 30_000 });
      await input.fill('Discounts.Apply');
      await page.keyboard.press('Enter');
      // The first query loads the solution, which needs the person's approval.
      const box = page.locator('.monaco-dialog-box');
      await Promise.race([newNameBox.waitFor({ timeout: 240_000 }), box.waitFor({ state: 'visible', timeout: 240_000 })]);
      if (await box.isVisible()) await answerModal(page, /Allow SharpClaw to (load|evaluate)/, 'Always for this workspace');
      await newNameBox.waitFor({ timeout: 240_000 });
      await page.locator('.quick-input-widget input').fill(newName);
      await page.keyboard.press('Enter');
    };
    await rename('Legacy');
    await toast(page, "already defines 'Legacy'").waitFor({ timeout: 120_000 });
    await sidebar.locator('[data-testid=approvals-allowed]', { hasText: 'Allowed for this workspace without asking: load projects with MSBuild.' }).waitFor({ timeout: 30_000 });
    await sidebar.locator('[data-testid=host-status]', { hasText: 'FailingTest.slnx' }).waitFor({ timeout: 60_000 });
    await page.waitForTimeout(500);
    await readmeScreenshot(page, 'rename-conflict');

    await runCommand(page, 'Notifications: Clear All Notifications');
    await rename('ApplyDiscount');
    const panel = page.locator('.bulk-edit-panel, [id="workbench.view.bulkEdit"]').first();
    await panel.locator('.monaco-tl-row', { hasText: 'DiscountTests.cs' }).first().waitFor({ timeout: 240_000 });
    await panel.locator('.monaco-tl-row', { hasText: 'Discounts.cs' }).first().click();
    await page.locator('.monaco-diff-editor').first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1000);
    await readmeScreenshot(page, 'rename-preview');
    assert.match(fs.readFileSync(path.join(workspace, 'src', 'Pricing', 'Discounts.cs'), 'utf8'), /decimal Apply\(/, 'the preview wrote before Apply');
    // Discard: nothing is written.
    await page.getByRole('button', { name: 'Discard', exact: true }).first().click();
    await closeAllEditors(page);
  });

  it('the details page shows the user README with its images rendered', async () => {
    await runCommand(page, 'View: Show Extensions');
    const item = page.locator('.extensions-viewlet .extension-list-item', { hasText: 'SharpClaw' }).first();
    await item.waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
      await page.screenshot({ path: path.join(artifacts, 'extensions-view-failed.png') });
      throw error;
    });
    await item.click();
    // Webviews live in an overlay outside the editor's DOM; the details page is the only one open.
    await page.locator('.extension-editor').first().waitFor({ timeout: 60_000 });
    const details: FrameLocator = page.locator('iframe.webview.ready').last().contentFrame().locator('#active-frame').contentFrame();
    await details.locator('h1', { hasText: 'SharpClaw' }).waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
      await page.screenshot({ path: path.join(artifacts, 'details-page-failed.png') });
      throw error;
    });
    await details.locator('text=Requirements').first().waitFor();
    const images = details.locator('img');
    await images.first().waitFor({ timeout: 30_000 });
    // Runs in the page: a loaded image has a natural width; a blocked or broken one has 0.
    interface PageImage { complete: boolean; naturalWidth: number; addEventListener(type: string, listener: () => void, options: { once: boolean }): void }
    const sizes = await images.evaluateAll((elements) => Promise.all(elements.map(async (element) => {
      const image = element as unknown as PageImage;
      if (!image.complete) await new Promise<void>((resolve) => { image.addEventListener('load', resolve, { once: true }); image.addEventListener('error', resolve, { once: true }); });
      return image.naturalWidth;
    })));
    await page.screenshot({ path: path.join(artifacts, 'details-page.png') });
    assert.equal(sizes.length, 2, `images on the details page: ${sizes.join(', ')}`);
    assert.ok(sizes.every((width) => width > 100), `an image did not render on the details page (natural widths ${sizes.join(', ')})`);
    await images.first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(artifacts, 'details-page-image.png') });
  });

  it('the whole sidebar stays readable at its narrowest in the dark and high-contrast themes (screenshots)', async () => {
    await closeAllEditors(page);
    await runCommand(page, 'Notifications: Clear All Notifications');
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
      await page.waitForTimeout(1000);
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
});
