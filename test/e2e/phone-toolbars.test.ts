import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';
import { api, seedWorkspace, type Workspace } from './workspace-fixture';

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1440, height: 900 };
const SHOTS = '/tmp/shots';

/** The accessible name (or text) of the focused element. */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim();
  });

/** Tabs forward from the focused element until `name` has focus (at most `limit` presses). */
async function tabTo(page: Page, name: string, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if ((await focusedName(page)) === name) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${name} (last: ${await focusedName(page)})`);
}

/** Opens the focused '…' menu with Enter and moves down with the arrows to the item named `item`. */
async function arrowTo(page: Page, item: string, limit = 24): Promise<void> {
  await page.keyboard.press('Enter');
  await page.getByRole('menu').waitFor();
  // Whether Enter already focused the first item depends on timing, so the count of presses
  // varies by one; the menu loops, so a generous limit still ends on a wrong menu.
  for (let i = 0; i <= limit; i++) {
    if ((await focusedName(page)).startsWith(item)) return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`The arrows never reached ${item} (last: ${await focusedName(page)})`);
}

describe("page headers and the toolbars' '…' menu at 390 px", () => {
  let server: RunningServer;
  let page: Page;
  let workspace: Workspace;
  const session = signedInSession('over.flow@example.com', '/');

  beforeAll(async () => {
    ({ server, page } = session);
    workspace = await seedWorkspace(page, server);
  });

  it('keeps the table tools on one line at 390 px and reaches Add column and Download by keyboard', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/tables/${workspace.tableId}`);
    await page.getByRole('columnheader', { name: /order_id/ }).waitFor();
    // On a phone the secondary actions are in the menu, not on the page.
    expect(await page.getByRole('button', { name: 'Add column' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Download' }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/toolbar-table-390.png` });

    await page.locator('input[placeholder="Go to column"]').focus();
    await tabTo(page, 'More actions');
    await arrowTo(page, 'Add column');
    await page.keyboard.press('Enter');
    await page.getByRole('columnheader', { name: /Column 6/ }).waitFor();
    await expect
      .poll(
        async () =>
          (
            await api<{ columns: { displayName: string }[] }>(
              page,
              server,
              'get',
              `/api/static-tables/${workspace.tableId}`,
            )
          ).columns.length,
      )
      .toBe(6);

    // Download's formats are listed under its name in the same menu.
    await page.getByRole('button', { name: 'More actions' }).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.getByText(/^Download/).waitFor();
    expect(await menu.getByRole('menuitem', { name: 'CSV file' }).isVisible()).toBe(true);
    expect(await menu.getByRole('menuitem', { name: 'Parquet file' }).isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/toolbar-table-menu-390.png` });
    const download = page.waitForEvent('download');
    await arrowTo(page, 'CSV file');
    await page.keyboard.press('Enter');
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);

    // At 1440 px the same actions are plain buttons.
    await page.setViewportSize(WIDE);
    await page.getByRole('button', { name: 'Add column' }).waitFor();
    expect(await page.getByRole('button', { name: 'More actions' }).count()).toBe(0);
  });

  it("opens the model's 'Columns and relationships' and a pivot from the menu by keyboard at 390 px", async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/models/${workspace.modelId}`);
    await page.getByRole('columnheader', { name: /Amount/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Columns and relationships' }).count()).toBe(0);
    await page.locator('input[placeholder="Go to column"]').focus();
    await tabTo(page, 'More actions');
    await arrowTo(page, 'Columns and relationships');
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'Columns and relationships' });
    await panel.waitFor();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'More actions' }).focus();
    await arrowTo(page, 'By region');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/models/${workspace.modelId}/pivot/${workspace.pivotKey}`);
  });

  it("reaches the pivot's Export and 'Columns and relationships' by keyboard at 390 px", async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/models/${workspace.modelId}/pivot/${workspace.pivotKey}`);
    await page.getByRole('button', { name: 'Edit pivot' }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Export pivot' }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/toolbar-pivot-390.png` });
    await page.getByRole('button', { name: 'Edit pivot' }).first().focus();
    await tabTo(page, 'More actions');
    await arrowTo(page, 'CSV file');
    expect(await page.getByRole('menuitem', { name: 'XLSX file' }).getAttribute('href')).toContain('format=xlsx');
    const download = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);

    await page.getByRole('button', { name: 'More actions' }).focus();
    await arrowTo(page, 'Columns and relationships');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Columns and relationships' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('wraps a long model name and the pivot name at 390 px instead of cutting them short', async () => {
    const long = 'Sales and returns by quarter, all regions';
    await page.setViewportSize(WIDE);
    await page.goto(`${server.url}/models/${workspace.modelId}`);
    const name = page.getByLabel('Model name');
    await name.fill(long);
    await name.press('Enter');
    await expect
      .poll(async () => (await api<{ name: string }>(page, server, 'get', `/api/models/${workspace.modelId}`)).name)
      .toBe(long);

    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/models/${workspace.modelId}/pivot/${workspace.pivotKey}`);
    const link = page.getByRole('link', { name: long });
    await link.waitFor();
    // All of the name is drawn (no ellipsis), inside the window, and the pivot's name follows it.
    const shown = await link.evaluate((el) => ({
      clipped: el.scrollWidth > el.clientWidth + 1,
      overflow: getComputedStyle(el).textOverflow,
      right: el.getBoundingClientRect().right,
    }));
    expect(shown.clipped).toBe(false);
    expect(shown.overflow).not.toBe('ellipsis');
    expect(shown.right).toBeLessThanOrEqual(PHONE.width);
    const pivotName = page.getByLabel('Pivot name');
    expect(await pivotName.inputValue()).toBe('By region');
    const box = await pivotName.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `${SHOTS}/pivot-title-390.png` });
  });

  it('shows empty lists whole at 390 px: the message is not cut off at the edge of a wide table', async () => {
    await page.setViewportSize(PHONE);
    for (const [path, text] of [
      ['/tables?q=nothing-like-this', 'No tables found.'],
      ['/settings/account', 'No pending invites'],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      const message = page.getByText(text, { exact: true });
      await message.waitFor();
      // Its table fits its card (nothing to scroll to), so all of the message is in the window.
      const fits = await message.evaluate((el) => {
        const scroller = el.closest('table')!.parentElement!;
        return scroller.scrollWidth <= scroller.clientWidth + 1;
      });
      expect(fits, path).toBe(true);
      const box = await message.boundingBox();
      expect(box!.x + box!.width, path).toBeLessThanOrEqual(PHONE.width);
    }
    await page.screenshot({ path: `${SHOTS}/empty-list-390.png`, fullPage: true });
  });
});
