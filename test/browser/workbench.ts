// What the browser test layers (test/e2e against the development build, test/package against the
// installed .vsix) do in a code-server workbench the way a person does it: the command palette,
// the SharpClaw sidebar, and the narrowest sidebar width.
import * as assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';

/** Runs a command from the palette, as a person would; retries while the workbench is still starting. */
export async function runCommand(page: Page, title: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    // F1 pressed while a webview (the sidebar) has focus may not reach the workbench: focus the status bar first.
    if (attempt > 1) await page.locator('.part.statusbar').click({ position: { x: 600, y: 5 } }).catch(() => undefined);
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    try {
      await input.waitFor({ timeout: 10_000 });
      // The palette may close again before it is typed in (focus moved to a view or a toast).
      await input.fill(`>${title}`, { timeout: 10_000 });
    } catch (error) {
      if (attempt >= 6) throw error;
      continue;
    }
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    try {
      await row.waitFor({ timeout: 10_000 });
      // The row itself, not Enter: Enter runs the focused row, which may still be another while the list
      // filters (a package run's palette closed on Enter and the rename's name box never came).
      await row.click({ timeout: 10_000 });
      return;
    } catch (error) {
      await page.keyboard.press('Escape');
      if (attempt >= 6) throw error;
    }
  }
}

/** Shows the SharpClaw sidebar (through its command: a click on an open view's icon would close it). */
/**
 * Closes every editor and waits until no tab is left (retrying the command): a command that works on "the
 * symbol under the cursor" must not find an editor a previous step left open.
 */
export async function closeAllEditors(page: Page): Promise<void> {
  const tabs = page.locator('.tabs-container .tab');
  for (let attempt = 1; ; attempt++) {
    await runCommand(page, 'View: Close All Editors');
    try {
      await tabs.first().waitFor({ state: 'detached', timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw new Error(`editors still open after View: Close All Editors: ${(await tabs.allTextContents()).join(', ')}`, { cause: error });
    }
  }
}

export async function openSidebar(page: Page): Promise<FrameLocator> {
  await runCommand(page, 'SharpClaw: Open Sidebar');
  return page.frameLocator('iframe.webview.ready').first().frameLocator('#active-frame');
}

/** VS Code's sidebar part is never narrower than this (SidebarPart's minimumWidth in 1.100 and 1.139). */
const sidebarMinimumWidth = 170;

/**
 * Makes the sidebar as narrow as VS Code lets it be: drags the sash between the sidebar and the
 * editor to the left, below the minimum width but not past half of it (or VS Code snaps the sidebar
 * closed), so VS Code stops it at its minimum. Returns the widths. (The palette has no command that
 * narrows the sidebar: "View: Decrease Current View Width" does not exist, and looking for it cost a
 * minute of palette retries per run.)
 */
export async function shrinkSidebarToMinimum(page: Page, sidebar: FrameLocator): Promise<{ before: number; after: number }> {
  const part = page.locator('[id="workbench.parts.sidebar"]');
  const box = (await part.boundingBox())!;
  await page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + sidebarMinimumWidth - 30, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await sidebar.locator('h2').first().click();
  const narrow = (await part.boundingBox())!;
  assert.ok(Math.abs(narrow.width - sidebarMinimumWidth) <= 1, `the sidebar is ${narrow.width}px wide after the drag, not VS Code's minimum ${sidebarMinimumWidth}px`);
  return { before: box.width, after: narrow.width };
}
