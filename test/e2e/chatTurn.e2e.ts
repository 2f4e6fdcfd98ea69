// A real @sharpclaw turn in the browser workbench's chat view (code-server 'latest', VS Code 1.139.1:
// the chat view runs a participant with a model from an extension's language-model chat provider,
// no Copilot sign-in). A person opens the chat, picks the Scripted model, types the request and
// answers what the workbench asks; the only stand-in is that model (test/integration/chat/
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
import { openSidebar, runCommand } from '../browser/workbench';

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

/** A copy of fixtures/AgentTurn (automatic verification on), restored and committed to Git. */
function provisionWorkspace(root: string): string {
  const workspace = path.join(root, 'ws');
  fs.cpSync(path.join(repoRoot, 'fixtures', 'AgentTurn'), workspace, { recursive: true, filter: (p) => !['bin', 'obj'].includes(path.basename(p)) });
  execFileSync('dotnet', ['restore', 'AgentTurn.slnx', '-nologo'], { cwd: workspace, stdio: 'ignore' });
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
    env: { SHARPCLAW_SCRIPTED_MODEL_SCRIPT: script },
  });
  const browser: Browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => consoleLines.push(`[pageerror] ${error}`));
  await page.goto(server.workbenchUrl({ extensionDevelopmentPath: repoRoot }));
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.activitybar').waitFor({ timeout: 60_000 });
  return { page, browser, server, root, workspace, script, console: consoleLines };
}

const text = async (locator: Locator): Promise<string> => ((await locator.innerText().catch(() => '')) ?? '').trim();

/** The chat view's input, focused, as a person gets there: Ctrl+Alt+I (Chat: Open Chat), else the palette. */
async function openChat(page: Page): Promise<Locator> {
  const input = page.locator('.interactive-input-part .monaco-editor').first();
  await page.locator('.part.statusbar').click({ position: { x: 600, y: 5 } });
  await page.keyboard.press('Control+Alt+KeyI');
  if (!(await input.isVisible().catch(() => false))) {
    await input.waitFor({ timeout: 10_000 }).catch(async () => runCommand(page, 'Chat: Open Chat'));
  }
  await input.waitFor({ timeout: 60_000 });
  return input;
}

/** Makes sure the model picker shows the Scripted model: a click on the picker and on Scripted if not. */
async function pickScriptedModel(page: Page): Promise<void> {
  const picker = page.locator('.interactive-input-part .chat-modelPicker-item, .interactive-input-part [aria-label*="Pick Model"], .interactive-input-part .action-label', { hasText: /Scripted|Auto|GPT|Claude|Copilot|model/i }).first();
  const deadline = Date.now() + 120_000;
  for (;;) {
    const label = await text(picker);
    if (/Scripted/.test(label)) return;
    if (Date.now() > deadline) throw new Error(`the model picker shows "${label}", and Scripted was not offered`);
    if (label) {
      await picker.click();
      const item = page.locator('.quick-input-list .monaco-list-row, .action-widget .action-item, .monaco-list-row', { hasText: 'Scripted' }).first();
      if (await item.waitFor({ timeout: 5_000 }).then(() => true, () => false)) await item.click();
      else await page.keyboard.press('Escape');
    }
    await page.waitForTimeout(1000);
  }
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
    const pricing = path.join(workspace, 'Shop', 'Pricing.cs');
    assert.equal(fs.readFileSync(pricing, 'utf8'), original);
    fs.writeFileSync(script, JSON.stringify(repairedTurn));

    const input = await openChat(page);
    await pickScriptedModel(page);
    await input.click();
    await page.keyboard.type('@sharpclaw change Total', { delay: 20 });
    await page.screenshot({ path: path.join(artifacts, 'chat-typed.png') });
    await page.keyboard.press('Enter');

    // Answer what the workbench asks, as a person does, until the verdict shows; note every live
    // progress line seen on the way.
    const response = lastResponse(page);
    const seen = { progress: new Set<string>(), dialogs: [] as string[], confirmations: [] as string[] };
    const deadline = Date.now() + 4 * 60_000;
    let verdict = '';
    while (!verdict) {
      if (Date.now() > deadline) throw new Error(`no verdict within 4 minutes; the response says:\n${await text(response)}`);
      const dialog = page.locator('.monaco-dialog-box');
      if (await dialog.isVisible().catch(() => false)) {
        const message = await text(dialog.locator('.dialog-message-text').first());
        seen.dialogs.push(message);
        await page.screenshot({ path: path.join(artifacts, `chat-dialog-${seen.dialogs.length}.png`) });
        await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Always for this workspace' }).first().click();
        continue;
      }
      const allow = page.locator('.chat-confirmation-widget .monaco-button, .chat-confirmation-widget2 .monaco-button', { hasText: /^\s*Allow/ }).first();
      if (await allow.isVisible().catch(() => false)) {
        seen.confirmations.push(await text(page.locator('.chat-confirmation-widget, .chat-confirmation-widget2').first()));
        await page.screenshot({ path: path.join(artifacts, `chat-confirmation-${seen.confirmations.length}.png`) });
        await allow.click();
        continue;
      }
      for (const line of await response.locator('.progress-container, .chat-progress-message, .rendered-markdown').allInnerTexts().catch(() => [] as string[])) {
        for (const part of line.split('\n')) if (/Verifying|Repairing/.test(part)) seen.progress.add(part.trim());
      }
      const all = await text(response);
      const match = /(Verified|Verification failed|Not verified|Stopped|Cancelled)[^\n]*/.exec(all);
      if (match && (await response.getByRole('button', { name: 'Show in SharpClaw sidebar' }).count()) > 0) verdict = match[0];
      await page.waitForTimeout(250);
    }
    const responseText = await text(response);
    console.log(`  [chat] dialogs: ${JSON.stringify(seen.dialogs)}\n  [chat] confirmations: ${JSON.stringify(seen.confirmations)}\n  [chat] live progress: ${JSON.stringify([...seen.progress])}\n  [chat] response:\n${responseText}`);
    assert.match(verdict, /^Verified after 1 repair\./);
    assert.ok([...seen.progress].some((line) => /Verifying \(affected\)/.test(line)), `no live "Verifying (affected)…" was seen: ${JSON.stringify([...seen.progress])}`);
    assert.ok([...seen.progress].some((line) => /Repairing \(1 of 2\)/.test(line)), `no live "Repairing (1 of 2)…" was seen: ${JSON.stringify([...seen.progress])}`);
    await response.getByRole('button', { name: 'Undo Last Turn' }).waitFor();
    assert.equal(fs.readFileSync(pricing, 'utf8'), original, 'the repair put the semicolon back');
    await page.screenshot({ path: path.join(artifacts, 'chat-turn-finished.png') });

    // The sidebar's turn timeline, newest turn first.
    const sidebar = await openSidebar(page);
    const turn = sidebar.locator('[data-testid=turns] [data-testid=turn]').first();
    await turn.waitFor({ timeout: 60_000 });
    const events = (await turn.locator('[data-testid=turn-event]').allInnerTexts()).map((line) => line.trim());
    const turnVerdict = await text(turn.locator('[data-testid=turn-verdict]'));
    console.log(`  [sidebar] turn events: ${JSON.stringify(events)}\n  [sidebar] verdict: ${turnVerdict}`);
    const expected = [/edit Shop\/Pricing\.cs \(sharpclaw_edit_file\)/, /check 0 affected: failed/, /repair 1 of 2/, /edit Shop\/Pricing\.cs \(sharpclaw_edit_file\)/, /check 1 affected: passed/];
    let at = 0;
    for (const line of events) if (at < expected.length && expected[at]!.test(line)) at++;
    assert.equal(at, expected.length, `the timeline misses ${expected[at]} in order: ${JSON.stringify(events)}`);
    assert.match(turnVerdict, /^Verified/);
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(artifacts, 'chat-turn-browser.jpg'), type: 'jpeg', quality: 70 });
    if (updateScreenshots) fs.copyFileSync(path.join(artifacts, 'chat-turn-browser.jpg'), path.join(repoRoot, 'docs', 'chat-turn-browser.jpg'));
  });
});
