// The extension's details page (the Extensions view's page of the installed .vsix, what a person sees
// first) on every tested VS Code version: the package README's heading, text and every image loaded
// (natural width > 0). VS Code 1.103 and newer drop data: images from that page (their sanitizer keeps
// only http(s) sources; the page's policy allows https:), so the package links its images at an https:
// address (scripts/package.mjs --images-url). That address is the one part of a person's setup that
// cannot exist on this offline machine: the browser context stands in for the image host, serving the
// repository's docs/ files at the package's address (and 404 for anything else), said here once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { runCommand } from '../browser/workbench';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const artifacts = path.join(repoRoot, 'test-results', 'package', 'readme-images');
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface CodeServer {
  workbenchUrl(options: { extensionDevelopmentPath?: string }): string;
  stop(): Promise<void>;
}

/** The https: image links of the packaged README (dist/readme/README.md is what vsce packed). */
function packagedImageLinks(): string[] {
  const readme = fs.readFileSync(path.join(repoRoot, 'dist', 'readme', 'README.md'), 'utf8');
  return [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

/** The natural widths of the details page's images, each once it loaded or failed. */
async function imageWidths(details: FrameLocator): Promise<number[]> {
  // Runs in the page (no DOM types in the tests' compilation, so the shape is spelled out).
  interface PageImage { complete: boolean; naturalWidth: number; addEventListener(type: string, listener: () => void, options: { once: boolean }): void }
  return details.locator('img').evaluateAll((elements) => Promise.all(elements.map(async (element) => {
    const image = element as unknown as PageImage;
    if (!image.complete) await new Promise<void>((resolve) => { image.addEventListener('load', resolve, { once: true }); image.addEventListener('error', resolve, { once: true }); });
    return image.naturalWidth;
  })));
}

for (const version of ['min', 'latest'] as const) {
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
      // The image host: each https: image of the packaged README is served from docs/ (its path relative
      // to --images-url is its path in docs/); a link to anything else gets a 404, which leaves it broken.
      const built = path.join(repoRoot, 'dist', 'package', `${packaging.currentTarget()}.json`);
      const imagesUrl = fs.existsSync(built) ? (JSON.parse(fs.readFileSync(built, 'utf8')) as { imagesUrl?: string | null }).imagesUrl : undefined;
      for (const link of packagedImageLinks().filter((l) => imagesUrl && l.startsWith(`${imagesUrl}/`))) {
        const file = path.join(repoRoot, 'docs', ...link.slice(imagesUrl!.length + 1).split('/').map(decodeURIComponent));
        await context.route(link, (route) => (fs.existsSync(file)
          ? route.fulfill({ status: 200, contentType: file.endsWith('.png') ? 'image/png' : 'image/jpeg', body: fs.readFileSync(file) })
          : route.fulfill({ status: 404, body: 'not found' })));
      }
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
      await runCommand(page, 'View: Show Extensions');
      const item = page.locator('.extensions-viewlet .extension-list-item', { hasText: 'SharpClaw' }).first();
      await item.waitFor({ timeout: 60_000 });
      await item.click();
      await page.locator('.extension-editor').first().waitFor({ timeout: 60_000 });
      // Webviews live in an overlay outside the editor's DOM; the details page is the only one open.
      const details = page.locator('iframe.webview.ready').last().contentFrame().locator('#active-frame').contentFrame();
      await details.locator('h1', { hasText: 'SharpClaw' }).waitFor({ timeout: 60_000 });
      await details.locator('text=Requirements').first().waitFor();
      await details.locator('img').first().waitFor({ timeout: 30_000 });
      const sources = await details.locator('img').evaluateAll((elements) => elements.map((element) => (element as unknown as { getAttribute(name: string): string | null }).getAttribute('src')?.slice(0, 60) ?? '(no src)'));
      const widths = await imageWidths(details);
      await page.screenshot({ path: path.join(artifacts, `details-page-${vscodeVersion}.png`) });
      console.log(`      VS Code ${vscodeVersion}: ${widths.length} images, natural widths ${widths.join(', ')}; sources ${sources.join(', ')}`);
      assert.equal(widths.length, packagedImageLinks().length, `the details page shows ${widths.length} images; the README has ${packagedImageLinks().length}`);
      assert.ok(widths.every((width) => width > 0), `VS Code ${vscodeVersion}: an image of the details page did not load (natural widths ${widths.join(', ')}; sources ${sources.join(', ')})`);
      await details.locator('img').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(artifacts, `details-page-image-${vscodeVersion}.png`) });
    });
  });
}
