// A real @sharpclaw turn in the browser workbench's chat view (code-server 'latest', VS Code 1.139.1:
// the chat view runs a participant with a model from an extension's language-model chat provider,
// no Copilot sign-in). A person lists the models (Chat: Manage Language Models: without a sign-in
// the chat's model picker offers nothing else until then), opens the chat (Ctrl+Alt+I), sees the
// Scripted model picked, types the request and answers what the workbench asks; the only stand-in is that model (test/integration/chat/
// scripted-model), scripted through its data-script file, never by reaching into an extension.
// Everything else is real: SharpClaw in development mode, its permission modals, the build.
//
// With SHARPCLAW_UPDATE_SCREENSHOTS=1 the README's screenshot docs/chat-turn-browser.jpg is written
// from this run; the transcript the README shows next to it is printed to the test output.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { runCommand } from '../browser/workbench';
import { fixtureCopyAt } from '../support/fixtures';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const artifacts = path.join(repoRoot, 'test-results', 'e2e');
const updateScreenshots = process.env.SHARPCLAW_UPDATE_SCREENSHOTS === '1';
const original = 'namespace Shop;\n\npublic static class Pricing\n{\n    public static decimal Total(decimal price, int quantity) => price * quantity;\n}\n';

// The script of the repaired turn (as in test/integration/chat/agentTurn.test.ts): pass 0 drops the
// statement's semicolon (CS1002) and says done; the repair pass puts it back and says done.
const editPricing = (oldText: string, newText: string) => ({ toolCalls: [{ name: 'sharpclaw_edit_file', input: { path: 'Shop/Pricing.cs', oldText, newText } }] });
const repairedTurn = [editPricing('price * quantity;', 'price * quantity'), { text: 'Done.' }, editPricing('price * quantity\n', 'price * quantity;\n'), { text: 'Done.' }];

interface CodeServer {
  workbenchUrl(options: { extensionDevelopmentPath?: string }): string;
  stop(): Promise<void>;
}
interface IntegrationSuite { name: string; testExtensions?: string[]; settings?: Record<string, unknown> }

const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A copy of fixtures/AgentTurn (automatic verification on), restored (from the fixture cache) and committed to Git. */
function provisionWorkspace(root: string): string {
  const workspace = fixtureCopyAt('AgentTurn', 'AgentTurn.slnx', path.join(root, 'ws'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=e2e@example.invalid', '-c', 'user.name=e2e', ...args], { cwd: workspace, stdio: 'ignore' });
  git('init', '-q');
  fs.writeFileSync(path.join(workspace, '.gitignore'), 'bin/\nobj/\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  return workspace;
}

async function openWorkbench(): Promise<{ page: Page; browser: Browser; server: CodeServer; root: string; workspace: string; script: string; console: string[] }> {
  const { installTestBed } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'install.mjs'));
  const { installTestExtension, startCodeServer } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'codeServer.mjs'));
  const { launchBrowser } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'browser.mjs'));
  // The chat integration suite's test-only extensions and settings, so both layers run the same chat.
  const { suites } = (await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'run-integration.mjs'))) as { suites: IntegrationSuite[] };
  const chat = suites.find((suite) => suite.name === 'chat')!;
  installTestBed({ versions: ['latest'] });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-e2e-chat-'));
  const workspace = provisionWorkspace(root);
  for (const folder of chat.testExtensions ?? []) installTestExtension({ version: 'latest', workDir: root, folder: path.resolve(repoRoot, folder) });
  const script = path.join(root, 'model-script.json');
  const server: CodeServer = await startCodeServer({
    version: 'latest',
    workDir: root,
    folder: workspace,
    logFile: path.join(artifacts, 'code-server-chat.log'),
    settings: chat.settings ?? {},
    // SharpClaw's state folder goes with the session's folder, not into the person's ~/.cache/sharpclaw.
    env: { SHARPCLAW_SCRIPTED_MODEL_SCRIPT: script, SHARPCLAW_STATE_DIR: path.join(root, 'state') },
  });
  const browser: Browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => consoleLines.push(`[pageerror] ${error}`));
  // The workbench's page load took over 30 s (Playwright's default) at load average 48 on two cores.
  await page.goto(server.workbenchUrl({ extensionDevelopmentPath: repoRoot }), { timeout: 180_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.activitybar').waitFor({ timeout: 60_000 });
  return { page, browser, server, root, workspace, script, console: consoleLines };
}

const text = async (locator: Locator): Promise<string> => ((await locator.innerText().catch(() => '')) ?? '').trim();
const visible = (locator: Locator): Locator => locator.locator('visible=true').first();

/**
 * Makes the Scripted model the chat's model, as a person would. On a window with no Copilot
 * sign-in the chat view's model picker first offers only "Sign in to use Copilot…": VS Code asks a
 * provider for its models only when something needs them. **Chat: Manage Language Models** lists
 * every provider's models (and so resolves them); after it, the picker shows Scripted.
 */
async function pickScriptedModel(page: Page): Promise<{ languageModels: string; picker: string }> {
  await runCommand(page, 'Chat: Manage Language Models');
  const name = visible(page.getByText('Scripted', { exact: true }));
  await name.waitFor({ timeout: 60_000 });
  const row = page.locator('.monaco-list-row', { has: page.getByText('Scripted', { exact: true }) }).first();
  const languageModels = ((await text(row)) || (await text(name))).replace(/\s+/g, ' ');
  await page.screenshot({ path: path.join(artifacts, 'chat-language-models.png') });
  await page.keyboard.press('Escape');
  await name.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => runCommand(page, 'View: Close Editor'));

  // Chat: Open Chat (Ctrl+Alt+I), with the focus in the workbench (not an editor or a webview).
  await page.locator('.part.statusbar').click({ position: { x: 600, y: 5 } });
  await page.keyboard.press('Control+Alt+KeyI');
  const input = page.locator('.interactive-input-part .monaco-editor').first();
  if (!(await input.waitFor({ timeout: 10_000 }).then(() => true, () => false))) await runCommand(page, 'Chat: Open Chat');
  await input.waitFor({ timeout: 60_000 });
  const picker = page.locator('.interactive-input-part .model-picker-item').first();
  await picker.waitFor({ timeout: 30_000 });
  if (!/Scripted/.test(await text(picker))) {
    await picker.click();
    const item = page.locator('.action-widget .monaco-list-row, .action-widget .action-item', { hasText: 'Scripted' }).first();
    await item.waitFor({ timeout: 10_000 }).catch(async () => {
      throw new Error(`the model picker offers ${JSON.stringify(await text(page.locator('.action-widget').first()))}, no Scripted`);
    });
    await item.click();
  }
  await page.locator('.interactive-input-part .model-picker-item', { hasText: 'Scripted' }).first().waitFor({ timeout: 10_000 });
  return { languageModels, picker: await text(picker) };
}

/** The last response in the chat view. */
const lastResponse = (page: Page) => page.locator('.interactive-item-container.interactive-response').last();

describe('@sharpclaw in the browser chat view (VS Code 1.139.1, scripted model)', function () {
  this.timeout(10 * 60_000);
  let session: Awaited<ReturnType<typeof openWorkbench>>;

  before(async function () {
    this.timeout(10 * 60_000);
    fs.mkdirSync(artifacts, { recursive: true });
    session = await openWorkbench();
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !session) return;
    await session.page.screenshot({ path: path.join(artifacts, 'failed-chat-turn.png') }).catch(() => undefined);
    fs.writeFileSync(path.join(artifacts, 'chat-turn-browser-console.log'), session.console.join('\n'));
    const response = await text(lastResponse(session.page));
    console.log(`  [on screen when it failed] the last chat response:\n${response}\n  dialogs: ${JSON.stringify(await session.page.locator('.monaco-dialog-box').allInnerTexts().catch(() => []))}`);
  });

  after(async () => {
    await session?.browser.close().catch(() => undefined);
    await session?.server.stop();
    if (session) fs.rmSync(session.root, { recursive: true, force: true });
  });

  it('a typed @sharpclaw turn breaks the build, shows the check live, repairs it once and says Verified; the sidebar shows the turn', async () => {
    const { page, script, workspace } = session;
    const started = Date.now();
    const pricing = path.join(workspace, 'Shop', 'Pricing.cs');
    assert.equal(fs.readFileSync(pricing, 'utf8'), original);
    fs.writeFileSync(script, JSON.stringify(repairedTurn));
    const transcript: string[] = [];
    const note = (who: string, what: string) => transcript.push(`${`${who}:`.padEnd(12)}${what}`);

    const models = await pickScriptedModel(page);
    assert.match(models.languageModels, /Scripted/);
    note('you', `Chat: Manage Language Models lists "${models.languageModels}"; the chat's model picker shows ${models.picker}`);
    // The chat's one-time tip above the input covers the response in screenshots: dismissed like a person would.
    await visible(page.locator('.chat-input-notice-dismiss')).click({ timeout: 5_000 }).catch(() => undefined);
    await page.locator('.interactive-input-part .monaco-editor').first().click();
    await page.keyboard.type('@sharpclaw change Total', { delay: 20 });
    await page.screenshot({ path: path.join(artifacts, 'chat-typed.png') });
    // What the running response shows, recorded by the page on every change of the chat's DOM:
    // lines that show for a moment only (the live progress) are caught too. (A string: the tests'
    // compilation has no DOM types.)
    await page.evaluate(`(() => {
      const live = (window.sharpclawLive = []);
      new MutationObserver(() => {
        const running = [...document.querySelectorAll('.interactive-item-container.interactive-response.chat-response-loading')].at(-1);
        if (!running) return;
        for (const line of running.innerText.split('\\n').map((part) => part.trim())) {
          if (/^(Verify Workspace|Verifying|Repairing)/.test(line) && !live.some((seen) => seen.line === line)) live.push({ line, at: Date.now() });
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    await page.keyboard.press('Enter');
    note('you', 'typed "@sharpclaw change Total" and pressed Enter');

    // Answer what the workbench asks, as a person does, until the verdict shows.
    const response = lastResponse(page);
    const seen = { dialogs: [] as string[], confirmations: [] as string[] };
    const answers: { at: number; who: string; what: string }[] = [];
    const liveLines = async () => (await page.evaluate('window.sharpclawLive')) as { line: string; at: number }[];
    let liveShots = 0;
    const deadline = Date.now() + 4 * 60_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`no verdict within 4 minutes; the response says:\n${await text(response)}`);
      const dialog = page.locator('.monaco-dialog-box');
      if (await dialog.isVisible().catch(() => false)) {
        const message = await text(dialog.locator('.dialog-message-text').first());
        seen.dialogs.push(message);
        await page.screenshot({ path: path.join(artifacts, `chat-dialog-${seen.dialogs.length}.png`) });
        answers.push({ at: Date.now(), who: 'modal', what: `${message} → Always for this workspace` });
        await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Always for this workspace' }).first().click();
        await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
        continue;
      }
      const allow = visible(page.locator('.chat-confirmation-widget2 .monaco-button', { hasText: 'Allow in this Session' }));
      if ((await allow.count()) > 0) {
        const title = ((await page.locator('.chat-confirmation-widget-container', { has: allow }).locator('.chat-confirmation-widget-title').first().textContent()) ?? '').trim();
        seen.confirmations.push(title);
        await page.screenshot({ path: path.join(artifacts, `chat-confirmation-${seen.confirmations.length}.png`) });
        answers.push({ at: Date.now(), who: 'chat asks', what: `${title} → Allow in this Session` });
        await allow.click();
        // The same confirmation must not be answered twice: go on once its button is gone.
        await allow.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
        continue;
      }
      const live = await liveLines();
      if (live.length > liveShots) {
        liveShots = live.length;
        await page.screenshot({ path: path.join(artifacts, `chat-live-${liveShots}.png`) });
      }
      const loading = await response.evaluate((node) => (node as unknown as { classList: { contains(name: string): boolean } }).classList.contains('chat-response-loading')).catch(() => true);
      if (!loading && /Show in SharpClaw sidebar/.test(await text(response))) break;
      await page.waitForTimeout(200); // the poll's interval: the loop looks again at what the workbench shows
    }
    const live = (await liveLines()).map((entry) => entry.line);
    const merged = [...answers, ...(await liveLines()).map((entry) => ({ at: entry.at, who: 'live', what: entry.line }))].sort((a, b) => a.at - b.at);
    for (const entry of merged) note(entry.who, entry.what);
    const shown = await text(response);
    const verdict = /^(Verified|Verification failed|Verification skipped|Not verified|Stopped|Cancelled)\b.*$/m.exec(shown)?.[0] ?? '';
    note('verdict', verdict);
    assert.deepEqual(seen.dialogs, ['Allow SharpClaw to change files in this workspace?', 'Allow SharpClaw to build and test AgentTurn.slnx?']);
    assert.deepEqual(seen.confirmations, ['Build and test with SharpClaw?']);
    assert.match(verdict, /^Verified after 1 repair\. passed: build passed/);
    // Live while it ran: the check (VS Code shows verify_workspace's invocation message) and the repair.
    assert.ok(live.some((line) => /^(Verifying \(affected\)…|Verify Workspace \(build and test\))/.test(line)), `no live check was seen: ${JSON.stringify(live)}`);
    assert.ok(live.includes('Repairing (1 of 2)…'), `no live "Repairing (1 of 2)…" was seen: ${JSON.stringify(live)}`);
    await response.getByRole('button', { name: 'Undo Last Turn' }).waitFor();
    await response.getByRole('button', { name: 'Show in SharpClaw sidebar' }).waitFor();
    assert.equal(fs.readFileSync(pricing, 'utf8'), original, 'the repair put the semicolon back');
    // The steps VS Code folded away ("Completed N steps in …"), unfolded for the screenshot.
    await response.locator('text=/^Completed \\d+ steps/').first().click().catch(() => undefined);
    await page.screenshot({ path: path.join(artifacts, 'chat-turn-finished.png') });

    // The sidebar's turn timeline, newest turn first, opened from the response's button.
    await response.getByRole('button', { name: 'Show in SharpClaw sidebar' }).click();
    const sidebar = page.frameLocator('iframe.webview.ready').first().frameLocator('#active-frame');
    const turn = sidebar.locator('[data-testid=turns] [data-testid=turn]').first();
    await turn.locator('[data-testid=turn-verdict]').waitFor({ timeout: 60_000 });
    const events = (await turn.locator('[data-testid=turn-event]').allInnerTexts()).map((line) => line.trim());
    const turnVerdict = await text(turn.locator('[data-testid=turn-verdict]'));
    for (const line of events) note('sidebar', line);
    note('sidebar', turnVerdict);
    const expected = [/^edit Shop\/Pricing\.cs \(sharpclaw_edit_file\)$/, /^check 0 affected: failed/, /^repair 1 of 2$/, /^edit Shop\/Pricing\.cs \(sharpclaw_edit_file\)$/, /^check 1 affected: passed/];
    assert.equal(events.length, expected.length, `the timeline: ${JSON.stringify(events)}`);
    expected.forEach((pattern, index) => assert.match(events[index]!, pattern));
    assert.match(turnVerdict, /^Verified after 1 repair\./);
    await turn.scrollIntoViewIfNeeded();
    // Two animation frames: the scrolled view is on screen for the screenshot.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    const shot = path.join(artifacts, 'chat-turn-browser.jpg');
    await page.screenshot({ path: shot, type: 'jpeg', quality: 70 });
    await page.screenshot({ path: path.join(artifacts, 'chat-turn-sidebar.png') });
    if (updateScreenshots) fs.copyFileSync(shot, path.join(repoRoot, 'docs', 'chat-turn-browser.jpg'));
    const report = `  [transcript, VS Code 1.139.1, ${((Date.now() - started) / 1000).toFixed(0)} s]\n${transcript.map((line) => `  ${line}`).join('\n')}`;
    fs.writeFileSync(path.join(artifacts, 'chat-turn-transcript.txt'), `${transcript.join('\n')}\n`);
    console.log(report);
  });
});
