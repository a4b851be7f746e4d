import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';

const row = (page: Page, n: number) => page.locator(`[role="row"][aria-rowindex="${n}"]`);
const cellTexts = (page: Page, n: number) => row(page, n).locator('[role="gridcell"]').allTextContents();

describe('the data grid of a static table: row moves, pages and download', () => {
  let server: RunningServer;
  let page: Page;
  const session = signedInSession('max.berg@example.com', '/tables', { width: 1360, height: 900 });

  beforeAll(async () => {
    ({ server, page } = session);
  });

  /** A table with one column, Label, holding `labels`; returns its id. */
  async function labelled(labels: string[]): Promise<string> {
    const res = await page.request.post(`${server.url}/api/static-tables`, {
      data: { name: 'Ordered', columns: [{ displayName: 'Label', columnKey: 'label' }], rows: labels.map((l) => [l]) },
    });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  /** Labels in row order as the server has them. */
  async function savedOrder(id: string): Promise<unknown[]> {
    const res = await page.request.get(`${server.url}/api/static-tables/${id}`);
    return ((await res.json()) as { rows: { label: unknown }[] }).rows.map((r) => r.label);
  }

  it('moves rows from the row-number menu and with Alt+arrows, undoably', async () => {
    const id = await labelled(['r1', 'r2', 'r3', 'r4', 'r5']);
    await page.goto(`${server.url}/tables/${id}`);
    await page.getByText('Displaying 5 row(s)').waitFor();

    await row(page, 1).getByRole('rowheader').click({ button: 'right' });
    expect(await page.getByRole('menuitem', { name: 'Move row up' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');

    await row(page, 3).getByRole('rowheader').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Move row up' }).click();
    expect(await cellTexts(page, 2)).toEqual(['r3']);
    expect(await cellTexts(page, 3)).toEqual(['r2']);
    await expect.poll(() => savedOrder(id), { timeout: 10_000 }).toEqual(['r1', 'r3', 'r2', 'r4', 'r5']);

    // Alt+ArrowDown twice: the row goes down two places and the selection goes with it.
    await row(page, 2).getByRole('gridcell').click();
    await page.keyboard.press('Alt+ArrowDown');
    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => cellTexts(page, 4)).toEqual(['r3']);
    expect(await row(page, 4).getByRole('gridcell').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => savedOrder(id), { timeout: 10_000 }).toEqual(['r1', 'r2', 'r4', 'r3', 'r5']);

    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    await expect.poll(() => cellTexts(page, 2)).toEqual(['r3']);
    await expect.poll(() => savedOrder(id), { timeout: 10_000 }).toEqual(['r1', 'r3', 'r2', 'r4', 'r5']);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => savedOrder(id), { timeout: 10_000 }).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    expect(await cellTexts(page, 3)).toEqual(['r3']);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => savedOrder(id), { timeout: 10_000 }).toEqual(['r1', 'r3', 'r2', 'r4', 'r5']);
    expect(await cellTexts(page, 2)).toEqual(['r3']);

    // Delete row is in the same menu.
    await row(page, 5).getByRole('rowheader').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Delete row' }).click();
    await page.getByText('Displaying 4 row(s)').waitFor();
    expect(await savedOrder(id)).toEqual(['r1', 'r3', 'r2', 'r4']);
  });

  it('reads rows page by page when Pages is chosen, keeping it in the URL', async () => {
    const id = await labelled(Array.from({ length: 120 }, (_, i) => `row ${i + 1}`));
    await page.goto(`${server.url}/tables/${id}`);
    await page.getByText('Displaying 120 row(s)').waitFor();

    await page.getByText('Pages', { exact: true }).click();
    await page.getByText('Displaying 50 of 120 row(s)').waitFor();
    expect(page.url()).toContain('view=pages');
    expect(await cellTexts(page, 1)).toEqual(['row 1']);
    await page.getByRole('button', { name: 'Next page' }).click();
    await row(page, 51).waitFor();
    expect(await cellTexts(page, 51)).toEqual(['row 51']);
    expect(await row(page, 1).count()).toBe(0);
    await page.getByRole('button', { name: 'Page 3' }).click();
    await page.getByText('Displaying 20 of 120 row(s)').waitFor();
    await page.getByText('Rows 101–120 of 120').waitFor();

    // The first row of a page moves up past the page boundary, to the end of the page before.
    await page.getByRole('button', { name: 'Previous page' }).click();
    await row(page, 51).getByRole('rowheader').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Move row up' }).click();
    await expect
      .poll(async () => (await savedOrder(id)).slice(48, 52))
      .toEqual(['row 49', 'row 51', 'row 50', 'row 52']);
    await expect.poll(() => cellTexts(page, 51), { timeout: 10_000 }).toEqual(['row 50']);

    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await page.getByRole('option', { name: '100' }).click();
    await page.getByText('Displaying 100 of 120 row(s)').waitFor();
    await page.reload();
    await page.getByText('Displaying 100 of 120 row(s)').waitFor();
    expect(await cellTexts(page, 1)).toEqual(['row 1']);

    await page.getByText('Scroll', { exact: true }).click();
    await page.getByText('Displaying 120 row(s)').waitFor();
    expect(page.url()).not.toContain('view=');
  });

  it('downloads the rows the grid shows, filtered and sorted, as CSV', async () => {
    const id = await labelled(['pear', 'apple', 'plum', 'cherry', 'peach']);
    const filter = JSON.stringify({ g: 0, columnKey: 'label', operator: 'Contains', value: 'p' });
    const search = new URLSearchParams({
      filter: JSON.stringify([filter]),
      sort: JSON.stringify(['label:Descending']),
    });
    await page.goto(`${server.url}/tables/${id}?${search.toString()}`);
    await page.getByText('Displaying 4 row(s)').waitFor();
    expect(await cellTexts(page, 1)).toEqual(['plum']);

    await page.getByRole('button', { name: 'Download' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Ordered.csv');
    const text = fs.readFileSync(await download.path(), 'utf8');
    expect(text).toBe('Label\nplum\npear\npeach\napple\n');
    // The page stayed where it was.
    expect(page.url()).toContain(`/tables/${id}`);
    await page.getByText('Displaying 4 row(s)').waitFor();
  });

  it('shows why a download failed without leaving the page', async () => {
    const id = await labelled(['a', 'b']);
    const filter = JSON.stringify({ g: 0, columnKey: 'gone', operator: 'Equals', value: 'x' });
    await page.goto(
      `${server.url}/tables/${id}?${new URLSearchParams({ filter: JSON.stringify([filter]) }).toString()}`,
    );
    await page.getByText('Could not load the rows').waitFor();
    await page.getByRole('button', { name: 'Download' }).click();
    await page.getByRole('menuitem', { name: 'CSV' }).click();
    await page.getByText('Download failed').waitFor();
    await page.getByText(/gone/).first().waitFor();
    expect(page.url()).toContain(`/tables/${id}`);
  });
});
