import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';

const SHOTS = '/tmp/shots';
const ORDERS_CSV =
  'order_id,customer_id,amount,region\n1,10,25.5,North\n2,11,10,South\n3,10,4.5,South\n4,12,100,North\n5,11,30,North\n';
const CUSTOMERS_CSV = 'customer_id,name,city\n10,Ada,Paris\n11,Bob,Oslo\n13,Cy,Rome\n';

/** A static table or a model, as far as the test reads them. */
interface WithColumns {
  id: string;
  columns: { columnKey: string; displayName: string }[];
}
type Table = WithColumns;
type ModelBody = WithColumns;

const gridRow = (page: Page, n: number) => page.locator(`[role="grid"] [role="row"][aria-rowindex="${n}"]`);
const cellTexts = (page: Page, n: number) => gridRow(page, n).locator('[role="gridcell"]').allTextContents();
const headerTexts = (page: Page) => page.locator('[role="grid"] [role="columnheader"]').allTextContents();
const drawer = (page: Page) => page.getByRole('dialog', { name: 'Edit pivot' });

describe('the pivot page', () => {
  let server: RunningServer;
  let page: Page;
  const session = signedInSession('pia.vot@example.com', '/models');
  let model: ModelBody;
  let pivotUrl = '';

  async function api<T>(method: 'post' | 'put' | 'get' | 'delete', path: string, data?: unknown): Promise<T> {
    // As a script calls the API: naming this site, as the browser would.
    const headers = { origin: server.url };
    const res = await page.request[method](
      `${server.url}${path}`,
      data === undefined ? { headers } : { data, headers },
    );
    expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  }

  async function tableFromCsv(name: string, csv: string): Promise<Table> {
    const { id } = await api<{ id: string }>('post', '/api/static-tables', { name });
    const upload = await page.request.put(`${server.url}/api/static-tables/${id}/upload`, {
      // A script's upload names this site, as the browser's would.
      headers: { origin: server.url },
      multipart: { file: { name: `${name}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) } },
    });
    expect(upload.status()).toBe(200);
    return api<Table>('get', `/api/static-tables/${id}`);
  }

  const keyOf = (table: Table, name: string) => table.columns.find((c) => c.displayName === name)!.columnKey;
  const raw = (table: Table, name: string, as: string) => ({
    displayName: as,
    sourceColumn: { sourceId: table.id, sourceType: 'StaticTable', columnKey: keyOf(table, name) },
  });

  /** Pick `option` in the Mantine select labelled `label` inside the editor. */
  async function choose(label: string, option: string) {
    await drawer(page).getByLabel(label, { exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  beforeAll(async () => {
    ({ server, page } = session);
    fs.mkdirSync(SHOTS, { recursive: true });

    const orders = await tableFromCsv('Orders', ORDERS_CSV);
    const customers = await tableFromCsv('Customers', CUSTOMERS_CSV);
    model = await api<ModelBody>('post', '/api/models', { name: 'Sales' });
    await api('post', `/api/models/${model.id}/columns`, raw(orders, 'amount', 'Amount'));
    await api('post', `/api/models/${model.id}/columns`, raw(orders, 'region', 'Region'));
    await api('post', `/api/models/${model.id}/columns`, raw(customers, 'name', 'Customer'));
    // Orders LEFT JOIN Customers ON customer_id; order 4's customer 12 has no match.
    const ref = (table: Table) => ({ sourceId: table.id, sourceType: 'StaticTable' });
    const on = { leftColumnKey: keyOf(orders, 'customer_id'), rightColumnKey: keyOf(customers, 'customer_id') };
    const join = { leftTable: ref(orders), rightTable: ref(customers), joinType: 'LeftOuter' };
    model = await api<ModelBody>('put', `/api/models/${model.id}/joins`, {
      joins: [{ ...join, joinGroups: [{ conditions: [{ ...on, operator: 'Equals' }] }] }],
    });
  });

  it('adds a pivot, builds it in the editor and shows sums with totals', async () => {
    await page.goto(`${server.url}/models/${model.id}`);
    await page.getByRole('button', { name: 'Add pivot' }).click();
    await page.waitForURL(/\/models\/[^/]+\/pivot\/[a-z]{4}$/);
    pivotUrl = page.url();
    await page.getByText('Build your pivot table').waitFor();
    await page.screenshot({ path: `${SHOTS}/pivot-empty.png` });
    expect(await page.getByLabel('Pivot name').inputValue()).toBe('Pivot table 1');
    expect(await page.getByRole('button', { name: 'Export pivot' }).getAttribute('aria-disabled')).toBe('true');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Pivot table 1' }).getAttribute('aria-selected'))
      .toBe('true');

    await page.getByRole('button', { name: 'Edit pivot' }).first().click();
    await drawer(page).waitFor();
    await choose('Add row field', 'Customer');
    await choose('Add column field', 'Region');
    // A column field makes Values required: Apply refuses until there is one.
    await drawer(page).getByRole('button', { name: 'Apply' }).click();
    await drawer(page).getByText('Add a value: the pivot needs one').waitFor();
    await choose('Add value', 'Amount');
    expect(await drawer(page).getByLabel('Value 1 aggregation').inputValue()).toBe('Sum');
    await page.screenshot({ path: `${SHOTS}/pivot-editor.png` });
    await drawer(page).getByRole('button', { name: 'Apply' }).click();
    await drawer(page).waitFor({ state: 'hidden' });

    // Three customers; the Total row is not counted.
    await page.getByText('Displaying 3 row(s)').waitFor();
    expect(await headerTexts(page)).toEqual([
      'Customer',
      'North',
      'Sum of Amount',
      'South',
      'Sum of Amount',
      'Total',
      'Sum of Amount',
    ]);
    // Amount is a double: every cell of the sum, totals too, shows 2 decimals.
    expect(await cellTexts(page, 1)).toEqual(['Ada', '25.50', '4.50', '30.00']);
    expect(await cellTexts(page, 2)).toEqual(['Bob', '30.00', '10.00', '40.00']);
    expect(await cellTexts(page, 3)).toEqual(['(empty)', '100.00', '', '100.00']);
    expect(await cellTexts(page, 4)).toEqual(['Total', '155.50', '14.50', '170.00']);
    expect(await gridRow(page, 4).getAttribute('data-total')).toBe('0');
    const totalWeight = await gridRow(page, 4)
      .locator('[role="gridcell"]')
      .first()
      .evaluate((el) => getComputedStyle(el).fontWeight);
    expect(Number(totalWeight)).toBeGreaterThanOrEqual(600);
  });

  it('orders the rows by a value from the Sort popover', async () => {
    await page.getByRole('button', { name: 'Sort' }).click();
    await page.getByLabel('Order Customer by').click();
    await page.getByRole('option', { name: 'Sum of Amount' }).click();
    await page.getByLabel('Direction of Customer').getByText('Descending').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => cellTexts(page, 1)).toEqual(['(empty)', '100.00', '', '100.00']);
    expect(await cellTexts(page, 2)).toEqual(['Bob', '30.00', '10.00', '40.00']);
    expect(await cellTexts(page, 3)).toEqual(['Ada', '25.50', '4.50', '30.00']);
  });

  it('reorders values by dragging, then shows % of Row applied with Enter', async () => {
    await page.getByRole('button', { name: 'Edit pivot' }).click();
    await drawer(page).waitFor();
    await choose('Add value', 'Customer');
    expect(await drawer(page).getByLabel('Value 2 aggregation').inputValue()).toBe('Count');
    const values = drawer(page).getByRole('group', { name: 'Values' });
    await values
      .getByRole('button', { name: 'Move Customer' })
      .dragTo(values.getByRole('button', { name: 'Move Amount' }));
    expect(await drawer(page).getByLabel('Value 1 aggregation').inputValue()).toBe('Count');
    expect(await drawer(page).getByLabel('Value 2 aggregation').inputValue()).toBe('Sum');
    await drawer(page).getByRole('button', { name: 'Remove value 1' }).click();

    await choose('Value 1 show as', '% of Row');
    await drawer(page).getByLabel('Value 1 display name').click();
    await page.keyboard.press('Enter');
    await drawer(page).waitFor({ state: 'hidden' });
    await expect.poll(() => cellTexts(page, 2)).toEqual(['Bob', '75.00%', '25.00%', '100.00%']);
    expect(await cellTexts(page, 1)).toEqual(['(empty)', '100.00%', '', '100.00%']);
    expect(await cellTexts(page, 3)).toEqual(['Ada', '85.00%', '15.00%', '100.00%']);
    expect(await cellTexts(page, 4)).toEqual(['Total', '91.47%', '8.53%', '100.00%']);
    // The header names what the numbers are: a percentage of the row, of the amount.
    expect((await headerTexts(page)).slice(2, 3)).toEqual(['% of Row · Amount']);
  });

  it('exports the pivot as CSV and takes a polished screenshot', async () => {
    await page.getByLabel('Pivot name').fill('Sales by region');
    await page.getByText(/Displaying 3 row/).click();
    await page.getByTestId('saved-tick').waitFor();
    await page.getByRole('tab', { name: 'Sales by region' }).waitFor();

    await page.getByRole('button', { name: 'Export pivot' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'CSV' }).click(),
    ]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    // Percentages are the fractions the grid's data holds, in full; the header says how they are shown.
    expect(csv.split('\r\n')).toEqual([
      'Customer,North / % of Row · Amount,South / % of Row · Amount,Total / % of Row · Amount',
      ',1,,1',
      'Bob,0.75,0.25,1',
      'Ada,0.85,0.15,1',
      'Total,0.9147058823529411,0.08529411764705883,1',
      '',
    ]);
    expect(download.suggestedFilename()).toBe('Sales - Sales by region.csv');
    await page.getByRole('menu').waitFor({ state: 'hidden' });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SHOTS}/pivot-page.png` });
    await page.getByRole('grid').screenshot({ path: `${SHOTS}/pivot-grid.png` });
  });

  it('filters the pivot from the editor, shows the filter as a chip and removes it there', async () => {
    await page.getByRole('button', { name: 'Pivot filters' }).click();
    await drawer(page).waitFor();
    await choose('Add filter', 'Customer');
    await drawer(page).getByRole('button', { name: 'Apply' }).click();
    await drawer(page).getByText('Please enter a value').waitFor();
    await drawer(page).getByLabel('Filter 1 value').fill('Ada');
    await drawer(page).getByRole('button', { name: 'Apply' }).click();
    await drawer(page).waitFor({ state: 'hidden' });
    await page.getByText('Customer equals "Ada"').waitFor();
    await page.getByText('Displaying 1 row(s)').waitFor();
    await page.screenshot({ path: `${SHOTS}/pivot-filtered.png` });
    expect(await cellTexts(page, 1)).toEqual(['Ada', '85.00%', '15.00%', '100.00%']);
    expect(await cellTexts(page, 2)).toEqual(['Total', '85.00%', '15.00%', '100.00%']);
    await page.getByRole('button', { name: 'Remove filter 1' }).click();
    await page.getByText('Displaying 3 row(s)').waitFor();
    expect(await page.getByText('Customer equals "Ada"').count()).toBe(0);
  });

  it('loads a long pivot in chunks of 200 while scrolling, with grouped headers and subtotals', async () => {
    const months = ['Jan', 'Feb', 'Mar', 'Apr'];
    const lines = ['product,month,region,amount'];
    for (let n = 1; n <= 300; n++) {
      for (const month of months) lines.push(`P${String(n).padStart(3, '0')},${month},${n % 2 ? 'East' : 'West'},${n}`);
    }
    const sales = await tableFromCsv('Sales lines', `${lines.join('\n')}\n`);
    let big = await api<ModelBody>('post', '/api/models', { name: 'Product sales' });
    for (const name of ['product', 'month', 'region', 'amount']) {
      const as = name[0]!.toUpperCase() + name.slice(1);
      big = await api<ModelBody>('post', `/api/models/${big.id}/columns`, raw(sales, name, as));
    }
    const key = (name: string) => big.columns.find((c) => c.displayName === name)!.columnKey;
    const field = (name: string) => ({ column: key(name) });
    await api('put', `/api/models/${big.id}/pivots`, {
      pivots: [
        {
          key: 'long',
          name: 'By product',
          rows: [field('Region'), field('Product')],
          columns: [field('Month')],
          values: [
            { column: key('Amount'), function: 'Sum' },
            { column: key('Amount'), function: 'Count' },
          ],
        },
      ],
    });

    // Wide enough that no value column is left out by the sideways virtualization.
    await page.setViewportSize({ width: 2200, height: 900 });
    await page.goto(`${server.url}/models/${big.id}/pivot/long`);
    // The first chunk's 200 rows hold East's subtotal, which is not counted.
    await page.getByText('Displaying 199 row(s), more as you scroll').waitFor();
    const headers = await headerTexts(page);
    expect(headers.slice(0, 5)).toEqual(['Region', 'Product', 'Apr', 'Sum of Amount', 'Count of Amount']);
    expect(headers.filter((h) => h === 'Total')).toHaveLength(1);
    expect(await cellTexts(page, 1)).toEqual(['East', 'P001', '1', '1', '1', '1', '1', '1', '1', '1', '4', '4']);
    await page.getByRole('grid').evaluate((el) => el.scrollBy({ top: 150 * 26 - 300 }));
    await page.getByRole('grid').screenshot({ path: `${SHOTS}/pivot-long.png` });
    const subtotal = await cellTexts(page, 151);
    expect(subtotal.slice(0, 4)).toEqual(['East', 'Total', '22,500', '150']);

    const grid = page.getByRole('grid');
    // 300 products; the two subtotals and the grand total are not counted.
    const done = page.getByText('Displaying 300 row(s)', { exact: true });
    for (let i = 0; i < 40 && !(await done.isVisible()); i++) {
      await grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await page.waitForTimeout(100);
    }
    await done.waitFor();
    await grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect
      .poll(() => cellTexts(page, 303))
      .toEqual(['Total', '', '45,150', '300', '45,150', '300', '45,150', '300', '45,150', '300', '180,600', '1,200']);
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('marks the pivot when one of its columns leaves the model, and deletes it', async () => {
    const region = model.columns.find((c) => c.displayName === 'Region')!.columnKey;
    await api('delete', `/api/models/${model.id}/columns/${region}`);
    await page.goto(pivotUrl);
    const edit = page.getByRole('button', { name: 'Edit pivot' }).first();
    await edit.waitFor();
    expect(await edit.getAttribute('data-problem')).toBe('true');
    await edit.hover();
    await page
      .getByRole('tooltip')
      .getByText(/A column has been removed from the model/)
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/pivot-problem.png` });

    await edit.click();
    await drawer(page)
      .getByText(/A column has been removed from the model/)
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/pivot-editor-problem.png` });
    await drawer(page).getByRole('button', { name: 'Delete pivot' }).click();
    await page.getByText('Are you sure you want to delete this pivot?').waitFor();
    await page.getByRole('button', { name: 'Ok' }).click();
    await page.waitForURL(`${server.url}/models/${model.id}`);
    // The model page draws its tabs once the model has loaded after the navigation.
    await expect.poll(() => page.getByRole('tab').allTextContents()).toEqual(['Data model']);
  });
});
