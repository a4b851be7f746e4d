import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';

/** A static table made through the API, as a script would: create, then upload its CSV. */
async function tableFromCsv(page: Page, server: RunningServer, name: string, csv: string): Promise<void> {
  const created = await page.request.post(`${server.url}/api/static-tables`, { data: { name } });
  const { id } = (await created.json()) as { id: string };
  const upload = await page.request.put(`${server.url}/api/static-tables/${id}/upload`, {
    // A script's upload names this site, as the browser's would.
    headers: { origin: server.url },
    multipart: { file: { name: `${name}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) } },
  });
  expect(upload.ok()).toBe(true);
}

/** Picks an option of a Mantine Select found by its label. */
async function choose(page: Page, label: string, option: string, nth = 0): Promise<void> {
  await page
    .locator('input')
    .and(page.getByLabel(label, { exact: true }))
    .nth(nth)
    .click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('models in the browser', () => {
  let server: RunningServer;
  let page: Page;
  const session = signedInSession('mia.chen@example.com', '/models');

  beforeAll(async () => {
    ({ server, page } = session);
    await tableFromCsv(page, server, 'Orders', 'order_id,customer_id,amount\n1,10,25.5\n2,11,10\n3,10,4.5\n4,12,100\n');
    await tableFromCsv(page, server, 'Customers', 'customer_id,name\n10,Ada\n11,Bob\n13,Cy\n');
  });

  it('builds a model from two tables with a join and a function column, publishes it and shows its SQL', async () => {
    await page.getByText('No models added yet.').waitFor();
    await page.getByRole('button', { name: 'Add model' }).click();
    await page.getByRole('dialog', { name: 'Create new model' }).getByLabel('Name').fill('Sales');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/models\/[0-9a-f-]{36}$/);
    await page.getByText('Setup your Model').waitFor();

    await page.getByRole('button', { name: 'Add columns' }).click();
    await choose(page, 'Table', 'Orders (Tables)');
    await page.getByLabel('order_id (Number)').check();
    await page.getByLabel('amount (Number)').check();
    await page.getByRole('button', { name: 'Add 2 columns' }).click();
    await page.getByRole('columnheader', { name: 'amount' }).waitFor();
    await choose(page, 'Table', 'Customers (Tables)');
    await page.getByLabel('name (Text)').check();
    await page.getByRole('button', { name: 'Add column', exact: true }).click();
    await page.getByRole('columnheader', { name: 'name' }).waitFor();

    await page.getByRole('tab', { name: 'Data relationships' }).click();
    await page.getByRole('button', { name: 'Add relationship' }).click();
    await choose(page, 'Left column', 'customer_id');
    await choose(page, 'Right column', 'customer_id');
    await page.getByRole('button', { name: 'Save relationships' }).click();
    await expect
      .poll(() => page.getByRole('button', { name: 'Save relationships' }).isDisabled(), { timeout: 10_000 })
      .toBe(true);

    await page.getByRole('tab', { name: 'Add column' }).click();
    await page.getByRole('tab', { name: 'Add function column' }).click();
    await page.getByLabel('Column name').fill('Doubled');
    await page.locator('.mantine-Badge-root', { hasText: /^amount$/ }).click();
    await page.getByLabel('Formula').pressSequentially(' * 2');
    await page.getByText('Result type: Number').waitFor();
    await page.getByRole('button', { name: 'Add function column' }).click();
    await page.getByRole('columnheader', { name: 'Doubled' }).waitFor();
    await page.keyboard.press('Escape');

    await page.getByText('Displaying 4 row(s)').waitFor();
    const cells = await page.locator('[role="row"][aria-rowindex="1"] [role="gridcell"]').allTextContents();
    expect(cells).toEqual(['1', '25.5', 'Ada', '51']);

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Active · v1').waitFor();
    await page.getByRole('button', { name: 'Model menu' }).click();
    await page.getByRole('menuitem', { name: 'Show SQL' }).click();
    const sql = await page.getByLabel('Model SQL').textContent();
    expect(sql).toMatch(/LEFT (OUTER )?JOIN/);
    expect(sql).toMatch(/\* \(?(CAST\()?2/);
    await page.screenshot({ path: '/tmp/shots/model-sql.png' });
    await page.keyboard.press('Escape');
  });

  it('creates a second version and compares it with the first', async () => {
    await page.getByRole('button', { name: 'Columns and relationships' }).click();
    const name = page.getByLabel('Name of name');
    await name.fill('Customer');
    await name.press('Enter');
    await page.getByText('Draft · v2').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Active · v2').waitFor();
    await page.screenshot({ path: '/tmp/shots/model-page.png' });

    await page.getByRole('button', { name: 'Versions' }).click();
    await page.getByText('Used').waitFor();
    await page.getByLabel('Compare version 1').check();
    await page.getByLabel('Compare version 2').check();
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.getByText('v1 → v2').waitFor();
    const dialog = page.getByRole('dialog', { name: 'Compare versions' });
    await dialog.getByText('Customer').waitFor();
    expect(await dialog.textContent()).toContain('changed');
  });

  it('downloads the rows in the order the grid shows them, from the grid and from the menu', async () => {
    // The model's own filter and no sort: the grid shows the rows in the base table's order.
    const modelId = /\/models\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const model = (await (await page.request.get(`${server.url}/api/models/${modelId}`)).json()) as {
      columns: { columnKey: string; displayName: string; order: number }[];
    };
    const key = (name: string) => model.columns.find((c) => c.displayName === name)!.columnKey;
    const headers = { origin: server.url };
    // With amount first, ordering by every column would put order 2 (amount 10) before order 1.
    const order = ['amount', 'order_id', 'Customer', 'Doubled'].map(key);
    for (const [path, data] of [
      ['columns', { columnKeys: order }],
      [
        'filter_groups',
        { filterGroups: [{ filters: [{ columnKey: key('amount'), operator: 'GreaterThan', value: 5 }] }] },
      ],
    ] as const) {
      const res = await page.request.put(`${server.url}/api/models/${modelId}/${path}`, { data, headers });
      expect(res.ok(), await res.text()).toBe(true);
    }
    await page.reload();
    await page.getByText('Displaying 3 row(s)').waitFor();
    const shown = [];
    for (const n of [1, 2, 3]) {
      shown.push(await page.locator(`[role="row"][aria-rowindex="${n}"] [role="gridcell"]`).nth(1).textContent());
    }
    expect(shown).toEqual(['1', '2', '4']);

    const downloaded = async (open: () => Promise<void>) => {
      const [download] = await Promise.all([page.waitForEvent('download'), open()]);
      const lines = fs
        .readFileSync((await download.path())!, 'utf8')
        .trim()
        .split('\n');
      return lines.slice(1).map((line) => line.split(',')[1]);
    };
    const fromGrid = await downloaded(async () => {
      await page.getByRole('button', { name: 'Download' }).click();
      await page.getByRole('menuitem', { name: 'CSV' }).click();
    });
    expect(fromGrid).toEqual(shown);
    const fromMenu = await downloaded(async () => {
      await page.getByRole('button', { name: 'Model menu' }).click();
      await page.getByRole('menuitem', { name: 'Export data' }).click();
    });
    expect(fromMenu).toEqual(shown);
  });
});
