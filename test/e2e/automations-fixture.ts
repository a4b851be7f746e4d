import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * A picture at 390 px once the side panel has slid off-screen, after checking that nothing runs off
 * the page sideways; the window is wide again afterwards.
 */
export async function phoneShot(page: Page, path: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() =>
      page.evaluate(() => document.querySelector('.mantine-AppShell-navbar')?.getBoundingClientRect().right ?? 0),
    )
    .toBeLessThanOrEqual(0);
  await expect
    .poll(() => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth), { message: path })
    .toBe(0);
  await page.screenshot({ path, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}
