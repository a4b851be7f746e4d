import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';

const cell = (page: Page, row: number, column: number) =>
  page.locator(`[role="row"][aria-rowindex="${row}"] [role="gridcell"]`).nth(column);

async function cellTexts(page: Page, row: number): Promise<string[]> {
  return page.locator(`[role="row"][aria-rowindex="${row}"] [role="gridcell"]`).allTextContents();
}

/** Rows of a static table as the API returns them, in row order. */
async function apiRows(page: Page, server: RunningServer, id: string): Promise<Record<string, unknown>[]> {
  const res = await page.request.get(`${server.url}/api/static-tables/${id}`);
  const body = (await res.json()) as { rows: Record<string, unknown>[]; columns: { columnKey: string }[] };
  return body.rows.map((r) => Object.fromEntries(body.columns.map((c) => [c.columnKey, r[c.columnKey]])));
}

describe('static tables in the browser', () => {
  let server: RunningServer;
  let page: Page;
  const session = signedInSession('ann.lee@example.com', '/tables', { width: 1360, height: 900 });
  let tableId = '';

  beforeAll(async () => {
    ({ server, page } = session);
  });

  it('creates a table, types cells, pastes a block, and undoes and redoes', async () => {
    await page.getByText('No tables found.').waitFor();
    await page.getByRole('button', { name: 'Add a table' }).click();
    await page.waitForURL(/\/tables\/[0-9a-f-]{36}$/);
    tableId = page.url().split('/').at(-1)!;
    await page.getByText('Displaying 10 row(s)').waitFor();
    await page.getByRole('columnheader', { name: 'A' }).waitFor();

    await cell(page, 1, 0).click();
    await page.keyboard.type('Alpha');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Beta');
    await page.keyboard.press('Escape');
    expect(await cellTexts(page, 1)).toEqual(['Alpha', '']);
    expect(await cellTexts(page, 2)).toEqual(['Beta', '']);
    await page.getByText('Saved', { exact: true }).waitFor();

    await cell(page, 3, 0).click();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'x1\ty1\nx2\ty2\n');
      document
        .querySelector('[role="grid"]')!
        .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    });
    expect(await cellTexts(page, 3)).toEqual(['x1', 'y1']);
    expect(await cellTexts(page, 4)).toEqual(['x2', 'y2']);
    await expect
      .poll(async () => Object.values((await apiRows(page, server, tableId))[3] ?? {}), { timeout: 10_000 })
      .toEqual(['x2', 'y2']);

    await page.keyboard.press('Control+z');
    expect(await cellTexts(page, 3)).toEqual(['', '']);
    expect(await cellTexts(page, 4)).toEqual(['', '']);
    await expect
      .poll(async () => Object.values((await apiRows(page, server, tableId))[3] ?? {}), { timeout: 10_000 })
      .toEqual([null, null]);

    await page.keyboard.press('Control+Shift+z');
    expect(await cellTexts(page, 4)).toEqual(['x2', 'y2']);
    await page.getByRole('button', { name: 'Undo' }).click();
    expect(await cellTexts(page, 4)).toEqual(['', '']);
    await page.getByRole('button', { name: 'Redo' }).click();
    expect(await cellTexts(page, 4)).toEqual(['x2', 'y2']);
    await expect
      .poll(async () => Object.values((await apiRows(page, server, tableId))[3] ?? {}), { timeout: 10_000 })
      .toEqual(['x2', 'y2']);
  });

  it('deletes a row from the cell menu and a column from the header menu', async () => {
    await cell(page, 2, 0).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Delete row' }).click();
    await page.getByText('Displaying 9 row(s)').waitFor();
    expect(await cellTexts(page, 2)).toEqual(['x1', 'y1']);
    await page.getByRole('button', { name: 'Column menu B' }).click();
    await page.getByRole('menuitem', { name: 'Move left' }).click();
    await expect.poll(() => page.getByRole('columnheader').allTextContents(), { timeout: 10_000 }).toEqual(['B', 'A']);
    expect(await cellTexts(page, 1)).toEqual(['', 'Alpha']);
    await page.getByRole('button', { name: 'Column menu B' }).click();
    await page.getByRole('menuitem', { name: 'Delete column' }).click();
    await page.getByText('Delete the column "B" and all its values?').waitFor();
    await page.getByRole('button', { name: 'Ok' }).click();
    await expect.poll(() => cellTexts(page, 1), { timeout: 10_000 }).toEqual(['Alpha']);
  });

  it('renames the table on blur and lists it', async () => {
    const name = page.getByLabel('Table name');
    await name.fill('Budget 2026');
    await page.getByText(/Displaying/).click();
    await page.getByTestId('saved-tick').waitFor();
    await page.goto(`${server.url}/tables`);
    await page.getByRole('link', { name: 'Budget 2026' }).click();
    await page.waitForURL(`${server.url}/tables/${tableId}`);
  });

  it('imports a CSV, then filters and sorts through the popups', async () => {
    const csv = 'city,visitors,opened\nOslo,120,2024-01-05\nBergen,80,2023-06-01\nTromso,45,2022-11-30\n';
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'cities.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    // The table holds the cells typed above: the import asks, and Replace is chosen.
    await page
      .getByRole('dialog', { name: 'Import cities.csv' })
      .getByRole('button', { name: 'Replace table' })
      .click();
    await page.getByText('Displaying 3 row(s)').waitFor();
    await page.getByRole('columnheader', { name: 'visitors' }).waitFor();
    expect(await cellTexts(page, 1)).toEqual(['Oslo', '120', '2024-01-05']);

    await page.getByRole('button', { name: 'Filter' }).click();
    const apply = page.getByRole('button', { name: 'Apply' });
    expect(await apply.isDisabled()).toBe(true);
    await page.locator('input[aria-label="Column"]').click();
    await page.getByRole('option', { name: 'visitors' }).click();
    await page.locator('input[aria-label="Operator"]').click();
    await page.getByRole('option', { name: 'is greater than' }).click();
    await apply.click();
    await page.getByText('Please enter a value').waitFor();
    await page.locator('input[aria-label="Value"]').fill('50');
    await apply.click();
    await page.getByText('Displaying 2 row(s)').waitFor();
    expect(page.url()).toContain('filter=');

    await page.getByRole('button', { name: 'Sort' }).click();
    await page.locator('input[aria-label="Sort column"]').click();
    await page.getByRole('option', { name: 'visitors' }).click();
    await page.getByText('Z → A').click();
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => cellTexts(page, 1), { timeout: 10_000 }).toEqual(['Oslo', '120', '2024-01-05']);
    await page.getByRole('button', { name: 'Sort (1)' }).click();
    await page.getByText('A → Z').click();
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => cellTexts(page, 1), { timeout: 10_000 }).toEqual(['Bergen', '80', '2023-06-01']);
    expect(decodeURIComponent(page.url())).toContain('sort=');
  });

  it('imports the file again: the grid’s filter and sort still apply, and the report names each date format', async () => {
    const csv =
      'city,visitors,opened,checked\n' +
      'Oslo,120,Jan 5 2024,01/02/2024\n' +
      'Bergen,80,Jun 1 2023,03/04/2024\n' +
      'Tromso,45,Nov 30 2022,05/06/2024\n' +
      'Alta,60,Feb 2 2021,07/08/2024\n';
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'cities-2.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page
      .getByRole('dialog', { name: 'Import cities-2.csv' })
      .getByRole('button', { name: 'Replace table' })
      .click();
    const report = page.getByTestId('import-report');
    await report.getByText('Imported cities-2.csv: 4 rows').waitFor();
    await report.getByText('"opened" read as dates in the format MMM D YYYY').waitFor();
    await report.getByText('"checked": Its dates read both as M/D/YYYY and as D/M/YYYY').waitFor();
    await report.getByText('New columns: "checked"').waitFor();
    // The columns kept their keys, so the filter (visitors > 50) and the sort (A → Z) in the link still apply.
    await page.getByText('Displaying 3 row(s)').waitFor();
    await expect
      .poll(() => cellTexts(page, 1), { timeout: 10_000 })
      .toEqual(['Alta', '60', '2021-02-02', '07/08/2024']);
    await page.getByRole('button', { name: 'Close the import report' }).click();
    await report.waitFor({ state: 'detached' });
  });

  it('scrolls a 100,000 row table to the end', async () => {
    const created = await page.request.post(`${server.url}/api/static-tables`, { data: { name: 'Big table' } });
    const { id } = (await created.json()) as { id: string };
    const lines = ['n,label'];
    for (let i = 1; i <= 100_000; i++) lines.push(`${i},row ${i}`);
    const upload = await page.request.put(`${server.url}/api/static-tables/${id}/upload`, {
      // A script's upload names this site, as the browser's would.
      headers: { origin: server.url },
      multipart: { file: { name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\n')}\n`) } },
    });
    expect(upload.status()).toBe(200);
    await page.goto(`${server.url}/tables/${id}`);
    await page.getByText(/Displaying 1000 of 100000 row\(s\)/).waitFor();
    const grid = page.getByRole('grid');
    const done = page.getByText('Displaying 100000 row(s)');
    for (let i = 0; i < 400 && !(await done.isVisible()); i++) {
      await grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await page.waitForTimeout(50);
    }
    await done.waitFor();
    const lastRow = async () => {
      await grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      return cellTexts(page, 100_000);
    };
    await expect.poll(lastRow, { timeout: 10_000 }).toEqual(['100,000', 'row 100000']);
  });

  it('deletes a table after the prompt', async () => {
    await page.goto(`${server.url}/tables/${tableId}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Are you sure you want to delete this table?').waitFor();
    await page.getByRole('button', { name: 'Ok' }).click();
    await page.waitForURL(`${server.url}/tables`);
    expect(await page.getByRole('link', { name: 'Budget 2026' }).count()).toBe(0);
  });
});
