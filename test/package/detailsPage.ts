// The extension's details page (the Extensions view's page of the installed .vsix, what a person sees
// first): the package README's heading, text and every image loaded (natural width > 0). VS Code 1.103
// and newer drop data: images from that page (their sanitizer keeps only http(s) sources; the page's
// policy allows https:), so the package links its images at an https: address (scripts/package.mjs
// --images-url). That address is the one part of a person's setup that cannot exist on this offline
// machine: the browser context stands in for the image host, serving the repository's docs/ files at the
// package's address (and 404 for anything else), said here once. Used by both sessions that have the
// package installed: installed.smoke.ts (VS Code 1.100.3) and readmeImages.smoke.ts (1.139.1).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { runCommand } from '../browser/workbench';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** The https: image links of the packaged README (dist/readme/README.md is what vsce packed). */
export function packagedImageLinks(): string[] {
  const readme = fs.readFileSync(path.join(repoRoot, 'dist', 'readme', 'README.md'), 'utf8');
  return [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

/**
 * The image host: each https: image of the packaged README is served from docs/ (its path relative to
 * --images-url is its path in docs/); a link to anything else gets a 404, which leaves it broken.
 * `target`: the package's platform target (its dist/package/<target>.json names the images' address).
 */
export async function serveReadmeImages(context: BrowserContext, target: string): Promise<void> {
  const built = path.join(repoRoot, 'dist', 'package', `${target}.json`);
  const imagesUrl = fs.existsSync(built) ? (JSON.parse(fs.readFileSync(built, 'utf8')) as { imagesUrl?: string | null }).imagesUrl : undefined;
  for (const link of packagedImageLinks().filter((l) => imagesUrl && l.startsWith(`${imagesUrl}/`))) {
    const file = path.join(repoRoot, 'docs', ...link.slice(imagesUrl!.length + 1).split('/').map(decodeURIComponent));
    await context.route(link, (route) => (fs.existsSync(file)
      ? route.fulfill({ status: 200, contentType: file.endsWith('.png') ? 'image/png' : 'image/jpeg', body: fs.readFileSync(file) })
      : route.fulfill({ status: 404, body: 'not found' })));
  }
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

/**
 * Opens SharpClaw's page from the Extensions view, as a person does, and asserts the user README with
 * every image loaded (natural width > 0). Screenshots go to `artifacts` (details-page-<version>.png).
 * The page must come from a context that serveReadmeImages set up.
 */
export async function assertDetailsPageShowsReadme(page: Page, vscodeVersion: string, artifacts: string): Promise<void> {
  fs.mkdirSync(artifacts, { recursive: true });
  await runCommand(page, 'View: Show Extensions');
  const item = page.locator('.extensions-viewlet .extension-list-item', { hasText: 'SharpClaw' }).first();
  await item.waitFor({ timeout: 60_000 });
  await item.click();
  await page.locator('.extension-editor').first().waitFor({ timeout: 60_000 });
  // Webviews live in an overlay outside the editor's DOM; the details page is the last one opened.
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
}
