// The extension's details page on VS Code 1.139.1, the newest tested version, in a session of its own
// (the package's smoke, installed.smoke.ts, runs on 1.100.3 and checks the same page there in its
// session): the package README's heading, text and every image loaded (natural width > 0). The check
// and the image host the browser context stands in for are in detailsPage.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { assertDetailsPageShowsReadme, serveReadmeImages } from './detailsPage';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const artifacts = path.join(repoRoot, 'test-results', 'package', 'readme-images');
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface CodeServer {
  workbenchUrl(options: { extensionDevelopmentPath?: string }): string;
  stop(): Promise<void>;
}

const version = 'latest';

describe(`the details page of the installed .vsix on code-server's ${version} VS Code`, function () {
  this.timeout(10 * 60_000);
  let root: string;
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let vscodeVersion: string;

  before(async () => {
    fs.mkdirSync(artifacts, { recursive: true });
    const packaging = await importEsm(path.join(repoRoot, 'scripts', 'package.mjs'));
    const vsix = process.env.SHARPCLAW_VSIX ?? packaging.vsixPathFor(packaging.currentTarget());
    assert.ok(fs.existsSync(vsix), `${vsix} is missing: run "npm run package" first (the package test layer does)`);
    const { installTestBed } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'install.mjs'));
    installTestBed({ versions: [version] });
    const { installExtension, startCodeServer } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'codeServer.mjs'));
    const { codeServerVersions } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'paths.mjs'));
    vscodeVersion = codeServerVersions[version].vscode;
    const { launchBrowser } = await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'browser.mjs'));
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-pkg-readme-'));
    fs.mkdirSync(path.join(root, 'ws'));
    assert.match(installExtension({ version, workDir: root, vsix }) as string, /successfully installed/);
    server = (await startCodeServer({ version, workDir: root, folder: path.join(root, 'ws'), logFile: path.join(artifacts, `code-server-${version}.log`) })) as CodeServer;
    browser = (await launchBrowser()) as Browser;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await serveReadmeImages(context, packaging.currentTarget());
    page = await context.newPage();
    await page.goto(server.workbenchUrl({}), { timeout: 180_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.locator('.activitybar').waitFor({ timeout: 60_000 });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('shows the user README with every image loaded (natural width > 0)', async () => {
    await assertDetailsPageShowsReadme(page, vscodeVersion, artifacts);
  });
});
