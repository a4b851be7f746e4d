/**
 * Pivots by month and charts in Chromium: a Date field grouped by month in the editor, the cells
 * and headers it makes, the row count without the Total row; the pivot as a bar then a pie chart,
 * kept after a reload, exported as PNG and SVG; a chart of the model sheet; and what a read_only
 * member sees.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';

const SHOTS = '/tmp/shots';

/** Known data: sums by month and region are checked by hand below. */
const SALES_CSV = [
  'day,amount,units,region',
  '2024-01-15,10.5,1,North',
  '2024-01-31,4,2,South',
  '2024-02-01,20,3,North',
  '2024-03-31,1.25,4,South',
  '2024-04-01,7,5,North',
  ',3,6,North',
].join('\n');

interface ModelBody {
  id: string;
  versionId: string;
  columns: { columnKey: string; displayName: string }[];
  pivots: { key: string; chart: unknown }[];
}

const gridRow = (page: Page, n: number) => page.locator(`[role="grid"] [role="row"][aria-rowindex="${n}"]`);
const cellTexts = (page: Page, n: number) => gridRow(page, n).locator('[role="gridcell"]').allTextContents();
const headerTexts = (page: Page) => page.locator('[role="grid"] [role="columnheader"]').allTextContents();
const drawer = (page: Page) => page.getByRole('dialog', { name: 'Edit pivot' });

describe('pivots by month and charts', () => {
  let server: RunningServer;
  let page: Page;
  const session = signedInSession('chart.ist@example.com', '/models');
  let model: ModelBody;

  async function api<T>(method: 'post' | 'put' | 'get', path: string, data?: unknown): Promise<T> {
    const headers = { origin: server.url };
    const res = await page.request[method](
      `${server.url}${path}`,
      data === undefined ? { headers } : { data, headers },
    );
    expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  }

  async function choose(label: string, option: string) {
    await drawer(page).getByLabel(label, { exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  beforeAll(async () => {
    ({ server, page } = session);
    fs.mkdirSync(SHOTS, { recursive: true });
    const { id } = await api<{ id: string }>('post', '/api/static-tables', { name: 'Sales lines' });
    const upload = await page.request.put(`${server.url}/api/static-tables/${id}/upload`, {
      headers: { origin: server.url },
      multipart: { file: { name: 'sales.csv', mimeType: 'text/csv', buffer: Buffer.from(`${SALES_CSV}\n`) } },
    });
    expect(upload.status()).toBe(200);
    const table = await api<{ id: string; columns: { columnKey: string; displayName: string }[] }>(
      'get',
      `/api/static-tables/${id}`,
    );
    model = await api<ModelBody>('post', '/api/models', { name: 'Sales' });
    for (const name of ['day', 'amount', 'units', 'region']) {
      model = await api<ModelBody>('post', `/api/models/${model.id}/columns`, {
        displayName: name[0]!.toUpperCase() + name.slice(1),
        sourceColumn: {
          sourceId: table.id,
          sourceType: 'StaticTable',
          columnKey: table.columns.find((c) => c.displayName === name)!.columnKey,
        },
      });
    }
  });

  it('builds a pivot by month in the editor: labelled months in order, show-as headers, Total not counted', async () => {
    await page.goto(`${server.url}/models/${model.id}`);
    await page.getByRole('button', { name: 'Add pivot' }).click();
    await page.waitForURL(/\/models\/[^/]+\/pivot\/[a-z]{4}$/);
    await page.getByRole('button', { name: 'Edit pivot' }).first().click();
    await drawer(page).waitFor();
    await choose('Add row field', 'Day');
    // A date field groups by month unless another grain is chosen.
    expect(await drawer(page).getByLabel('Row field 1 group by').inputValue()).toBe('Month (2024-01)');
    await choose('Add column field', 'Region');
    await choose('Add value', 'Amount');
    await choose('Add value', 'Amount');
    await choose('Value 2 show as', '% of Row');
    await page.screenshot({ path: `${SHOTS}/pivot-grain-editor.png` });
    await drawer(page).getByRole('button', { name: 'Apply' }).click();
    await drawer(page).waitFor({ state: 'hidden' });

    // Four months and the empty date; the Total row is not a row of data.
    await page.getByText('Displaying 5 row(s)', { exact: true }).waitFor();
    expect(await headerTexts(page)).toEqual([
      'Day (Month)',
      'North',
      'Sum of Amount',
      '% of Row · Amount',
      'South',
      'Sum of Amount',
      '% of Row · Amount',
      'Total',
      'Sum of Amount',
      '% of Row · Amount',
    ]);
    // Sums of a double column: 2 decimals in every cell and total; percentages 2 decimals.
    expect(await cellTexts(page, 1)).toEqual(['2024-01', '10.50', '72.41%', '4.00', '27.59%', '14.50', '100.00%']);
    expect(await cellTexts(page, 2)).toEqual(['2024-02', '20.00', '100.00%', '', '', '20.00', '100.00%']);
    expect(await cellTexts(page, 3)).toEqual(['2024-03', '', '', '1.25', '100.00%', '1.25', '100.00%']);
    expect(await cellTexts(page, 4)).toEqual(['2024-04', '7.00', '100.00%', '', '', '7.00', '100.00%']);
    expect(await cellTexts(page, 5)).toEqual(['(empty)', '3.00', '100.00%', '', '', '3.00', '100.00%']);
    expect(await cellTexts(page, 6)).toEqual(['Total', '40.50', '88.52%', '5.25', '11.48%', '45.75', '100.00%']);
    await page.screenshot({ path: `${SHOTS}/pivot-by-month.png` });

    // Quarter instead of month: the same rows regrouped.
    await page.getByRole('button', { name: 'Edit pivot' }).first().click();
    await choose('Row field 1 group by', 'Quarter (2024-Q1)');
    await drawer(page).getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Displaying 3 row(s)', { exact: true }).waitFor();
    await expect
      .poll(() => cellTexts(page, 1))
      .toEqual(['2024-Q1', '30.50', '85.31%', '5.25', '14.69%', '35.75', '100.00%']);
    expect((await headerTexts(page))[0]).toBe('Day (Quarter)');
    await page.getByRole('button', { name: 'Edit pivot' }).first().click();
    await choose('Row field 1 group by', 'Month (2024-01)');
    await drawer(page).getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Displaying 5 row(s)', { exact: true }).waitFor();
  });
});
