// Debian's Chromium, driven by playwright-core (never `playwright install`).
import { chromium } from 'playwright-core';
import { chromiumPath } from './paths.mjs';

export async function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}
