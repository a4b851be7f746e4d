/**
 * Pivots by month and charts in Chromium: a Date field grouped by month in the editor, the cells
 * and headers it makes, the row count without the Total row; the pivot as a bar then a pie chart,
 * kept after a reload, exported as PNG and SVG; a chart of the model sheet; and what a read_only
 * member sees.
 */
import fs from 'node:fs';
import type { Browser, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, mailedLink, signIn, startServer, type RunningServer } from './harness';

const OWNER = 'chart.ist@example.com';
const READER = 'rea.der@example.com';

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

/** The chart's axis texts that are not numbers: its category labels, left to right. */
async function categoryTicks(page: Page): Promise<string[]> {
  const texts = await page.getByRole('figure').locator('svg.recharts-surface text').allTextContents();
  return texts.filter((text) => !/^-?[\d,.]+%?$/.test(text.trim()));
}

/** What a download holds. */
async function bytesOf(download: Download): Promise<Buffer> {
  return fs.readFileSync((await download.path())!);
}

/** Parses an SVG in the page: whether it is well formed, and its text. */
function parseSvg(page: Page, text: string) {
  return page.evaluate((svg) => {
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    return {
      ok: doc.querySelector('parsererror') === null && doc.documentElement.nodeName === 'svg',
      texts: [...doc.querySelectorAll('text')].map((t) => t.textContent ?? ''),
      shapes: doc.querySelectorAll('path, rect').length,
    };
  }, text);
}

describe('pivots by month and charts', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let reader: Page;
  let model: ModelBody;
  let pivotUrl = '';

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

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

  /** Picks `option` in the Select labelled `label` on the page. */
  async function pick(on: Page, label: string, option: string) {
    await on.getByRole('combobox', { name: label, exact: true }).click();
    await on.getByRole('option', { name: option, exact: true }).click();
  }

  async function download(on: Page, item: 'PNG' | 'SVG'): Promise<Download> {
    await on.getByRole('button', { name: 'Export chart' }).click();
    const [file] = await Promise.all([on.waitForEvent('download'), on.getByRole('menuitem', { name: item }).click()]);
    return file;
  }

  const savedChart = async () =>
    (await api<ModelBody>('get', `/api/models/${model.id}?draft=true`)).pivots[0]?.chart ?? null;

  beforeAll(async () => {
    server = await startServer({ SIGNUP: 'open' });
    browser = await launchBrowser();
    page = await (
      await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })
    ).newPage();
    reader = await (
      await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })
    ).newPage();
    await signIn(page, server, OWNER);
    await signIn(reader, server, READER);
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
    pivotUrl = page.url();
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

  it('shows the pivot as a bar chart, then a pie; the choice is saved with the pivot and kept on reload', async () => {
    await page.getByText('Chart', { exact: true }).click();
    const figure = page.getByRole('figure', { name: /chart$/ });
    await figure.locator('.recharts-bar-rectangle').first().waitFor();
    expect(await figure.getAttribute('data-chart-type')).toBe('bar');
    // Rows are categories, value columns (column keys × values) are series.
    for (const series of ['North / Sum of Amount', 'North / % of Row · Amount', 'South / Sum of Amount']) {
      await figure.getByText(series, { exact: true }).waitFor();
    }
    await expect.poll(() => categoryTicks(page)).toEqual(['2024-01', '2024-02', '2024-03', '2024-04', '(empty)']);
    await expect.poll(savedChart).toEqual({ type: 'bar', shown: true });
    await page.screenshot({ path: `${SHOTS}/pivot-chart-bar.png` });

    await pick(page, 'Chart type', 'Pie');
    await figure.locator('.recharts-pie-sector').first().waitFor();
    expect(await figure.getAttribute('data-chart-type')).toBe('pie');
    // The pie of North's sums: four months with a positive sum (2024-03 has none).
    expect(await figure.locator('.recharts-pie-sector').count()).toBe(4);
    await expect.poll(savedChart).toEqual({ type: 'pie', shown: true });

    await page.reload();
    await page
      .getByRole('figure', { name: /chart$/ })
      .locator('.recharts-pie-sector')
      .first()
      .waitFor();
    expect(await page.getByRole('figure', { name: /chart$/ }).getAttribute('data-chart-type')).toBe('pie');
    await page.screenshot({ path: `${SHOTS}/pivot-chart-pie.png` });
  });

  it('exports the chart as PNG and as SVG, named after the model and pivot', async () => {
    const png = await download(page, 'PNG');
    expect(png.suggestedFilename()).toBe('Sales - Pivot table 1.png');
    const bytes = await bytesOf(png);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // Drawn at twice its size (the pie's own width is over 300 px).
    expect(bytes.readUInt32BE(16)).toBeGreaterThan(600);
    expect(bytes.readUInt32BE(20)).toBeGreaterThan(600);
    expect(bytes.length).toBeGreaterThan(10_000);

    await pick(page, 'Chart type', 'Bar');
    await page
      .getByRole('figure', { name: /chart$/ })
      .locator('.recharts-bar-rectangle')
      .first()
      .waitFor();
    const svgFile = await download(page, 'SVG');
    expect(svgFile.suggestedFilename()).toBe('Sales - Pivot table 1.svg');
    const svg = (await bytesOf(svgFile)).toString('utf8');
    const parsed = await parseSvg(page, svg);
    expect(parsed.ok).toBe(true);
    expect(parsed.texts).toContain('Sales - Pivot table 1');
    expect(parsed.texts).toContain('North / Sum of Amount');
    expect(parsed.texts).toContain('2024-04');
    expect(parsed.shapes).toBeGreaterThan(10);
    // Colors are written out: a file cannot read the page's CSS variables.
    expect(svg).not.toContain('var(--');
    fs.writeFileSync(`${SHOTS}/pivot-chart.svg`, svg);
    fs.writeFileSync(`${SHOTS}/pivot-chart-export.png`, bytes);
  });

  it('charts the model sheet: a category by month and number columns summed on the server', async () => {
    await page.goto(`${server.url}/models/${model.id}`);
    await page.getByText('Chart', { exact: true }).click();
    const figure = page.getByRole('figure', { name: 'Sales chart' });
    await figure.locator('.recharts-bar-rectangle').first().waitFor();
    // A first useful chart: the date column by month, the first number column summed.
    expect(await page.getByRole('combobox', { name: 'Category', exact: true }).inputValue()).toBe('Day');
    const ticks = () => categoryTicks(page);
    await expect.poll(ticks).toEqual(['2024-01', '2024-02', '2024-03', '2024-04', '(empty)']);
    await figure.getByText('Sum of Amount', { exact: true }).waitFor();

    await page.getByRole('combobox', { name: 'Values', exact: true }).click({ force: true });
    await page.getByRole('option', { name: 'Units', exact: true }).click();
    await page.keyboard.press('Escape');
    await figure.getByText('Sum of Units', { exact: true }).waitFor();
    await pick(page, 'Group by', 'Quarter');
    await expect.poll(ticks).toEqual(['2024-Q1', '2024-Q2', '(empty)']);
    await page.screenshot({ path: `${SHOTS}/model-chart.png` });

    // The choice lasts the session: a reload shows the same chart.
    await page.reload();
    await page.getByRole('figure', { name: 'Sales chart' }).locator('.recharts-bar-rectangle').first().waitFor();
    await expect.poll(ticks).toEqual(['2024-Q1', '2024-Q2', '(empty)']);
    const svgFile = await download(page, 'SVG');
    expect(svgFile.suggestedFilename()).toBe('Sales.svg');
    const parsed = await parseSvg(page, (await bytesOf(svgFile)).toString('utf8'));
    expect(parsed.ok).toBe(true);
    expect(parsed.texts).toEqual(expect.arrayContaining(['Sales', 'Sum of Amount', 'Sum of Units', '2024-Q1']));

    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/model-chart-390.png`, fullPage: true });
    await page.goto(pivotUrl);
    await page
      .getByRole('figure', { name: /chart$/ })
      .locator('.recharts-bar-rectangle')
      .first()
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/pivot-chart-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByText('Grid', { exact: true }).click();
    await page.getByText('Displaying 5 row(s)', { exact: true }).waitFor();
    await page.getByText('Chart', { exact: true }).click();
    await expect.poll(savedChart).toEqual({ type: 'bar', shown: true });
  });

  it('a read_only member views and exports the pivot and its chart, with no control that changes the pivot', async () => {
    const invited = await page.request.post(`${server.url}/api/accounts/invite`, {
      headers: { origin: server.url },
      data: { email: READER, roles: ['read_only'] },
    });
    expect(invited.ok()).toBe(true);
    await reader.goto(await mailedLink(server.dataDir, READER, 'invite'));
    await reader.getByText('Invitation success.').waitFor();

    await reader.goto(pivotUrl);
    const figure = reader.getByRole('figure', { name: /chart$/ });
    await figure.locator('.recharts-bar-rectangle').first().waitFor();
    // The model header marks the page, once.
    await reader.getByText('View only', { exact: true }).waitFor();
    expect(await reader.getByText('View only', { exact: true }).count()).toBe(1);
    for (const name of ['Edit pivot', 'Pivot filters', 'Sort', 'Columns and relationships', 'Add pivot']) {
      expect(await reader.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(await reader.getByLabel('Pivot name').count()).toBe(0);
    await reader.screenshot({ path: `${SHOTS}/pivot-chart-reader.png` });

    // Exports work for readers.
    const png = await download(reader, 'PNG');
    expect([...(await bytesOf(png)).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);

    // Switching views is the reader's own: the table shows, the saved chart stays.
    await reader.getByText('Grid', { exact: true }).click();
    await reader.getByText('Displaying 5 row(s)', { exact: true }).waitFor();
    await reader.getByRole('button', { name: 'Export pivot' }).waitFor();
    expect(await savedChart()).toEqual({ type: 'bar', shown: true });
  });
});
