import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';

interface ApiTable {
  id: string;
  name: string;
  columns: { columnKey: string; displayName: string; type: string }[];
  rows: Record<string, unknown>[];
}

async function apiTable(page: Page, server: RunningServer, id: string): Promise<ApiTable> {
  const res = await page.request.get(`${server.url}/api/static-tables/${id}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as ApiTable;
}

/** The table's rows keyed by column name, read back from the API. */
async function rowsByName(page: Page, server: RunningServer, id: string): Promise<Record<string, unknown>[]> {
  const table = await apiTable(page, server, id);
  return table.rows.map((row) => Object.fromEntries(table.columns.map((c) => [c.displayName, row[c.columnKey]])));
}

const ORIGINAL = [
  { Name: 'Ada', Amount: '10' },
  { Name: 'Bob', Amount: '20' },
];

async function chooseFile(page: Page, name: string, csv: string): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
}

describe('importing a CSV file into a table with data', () => {
  let server: RunningServer;
  let page: Page;
  const session = signedInSession('imp.orter@example.com', '/tables');
  let tableId = '';

  beforeAll(async () => {
    ({ server, page } = session);
    const created = await page.request.post(`${server.url}/api/static-tables`, {
      headers: { origin: server.url },
      data: {
        name: 'People',
        columns: [{ displayName: 'Name' }, { displayName: 'Amount' }],
        rows: [
          ['Ada', '10'],
          ['Bob', '20'],
        ],
      },
    });
    expect(created.status()).toBe(201);
    tableId = ((await created.json()) as { id: string }).id;
    await page.goto(`${server.url}/tables/${tableId}`);
    await page.getByText('Displaying 2 row(s)').waitFor();
  });

  it('previews the file, replaces the table, and Undo brings the previous rows back', async () => {
    await chooseFile(page, 'cities.csv', 'city,visitors\nOslo,120\nBergen,80\n');
    const dialog = page.getByRole('dialog', { name: 'Import cities.csv' });
    const preview = dialog.getByRole('table', { name: 'First rows of the file' });
    await preview.getByRole('cell', { name: 'Bergen' }).waitFor();
    await preview.getByText('Number').waitFor();
    await dialog.getByText('This table already has data. How should the file be imported?').waitFor();
    await dialog.getByText('Not in the file, so removed: "Name" and "Amount".').waitFor();
    await dialog.getByRole('radio', { name: 'Replace' }).check();
    await dialog.getByRole('button', { name: 'Replace table' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByTestId('import-report').getByText('Imported cities.csv: 2 rows').waitFor();
    await page.getByText('Displaying 2 row(s)').waitFor();
    expect(await rowsByName(page, server, tableId)).toEqual([
      { city: 'Oslo', visitors: 120 },
      { city: 'Bergen', visitors: 80 },
    ]);

    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => rowsByName(page, server, tableId), { timeout: 20_000 }).toEqual(ORIGINAL);
    await page.getByRole('columnheader', { name: 'Amount' }).waitFor();
    await page.getByRole('button', { name: 'Redo' }).click();
    await expect
      .poll(() => rowsByName(page, server, tableId), { timeout: 20_000 })
      .toEqual([
        { city: 'Oslo', visitors: 120 },
        { city: 'Bergen', visitors: 80 },
      ]);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => rowsByName(page, server, tableId), { timeout: 20_000 }).toEqual(ORIGINAL);
    await page.getByRole('columnheader', { name: 'Name' }).waitFor();
  });

  it('appends rows, matching columns by name and adding the others', async () => {
    await chooseFile(page, 'more.csv', ' name ,AMOUNT,Team\nCy,30,Blue\n');
    const dialog = page.getByRole('dialog', { name: 'Import more.csv' });
    await dialog.getByRole('radio', { name: 'Append' }).check();
    const mapping = dialog.getByTestId('append-mapping');
    await mapping.getByText('Columns that will be added: "Team"').waitFor();
    await mapping.getByRole('row', { name: /AMOUNT\s+Amount/ }).waitFor();
    await mapping.getByText('New column').waitFor();
    await dialog.getByRole('button', { name: 'Append rows' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByText('Displaying 3 row(s)').waitFor();
    await page.getByRole('columnheader', { name: 'Team' }).waitFor();
    expect(await rowsByName(page, server, tableId)).toEqual([
      { Name: 'Ada', Amount: '10', Team: null },
      { Name: 'Bob', Amount: '20', Team: null },
      { Name: 'Cy', Amount: '30', Team: 'Blue' },
    ]);
  });

  it('shows a clear error in the dialog for a file it cannot read', async () => {
    await chooseFile(page, 'broken.csv', 'a,b\n1,2\n3,"4\n');
    const dialog = page.getByRole('dialog', { name: 'Import broken.csv' });
    await dialog
      .getByRole('alert')
      .getByText(/never closed|could not be read/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('makes a new table from the file and opens it, leaving this one as it was', async () => {
    const before = await rowsByName(page, server, tableId);
    await chooseFile(page, 'visits.csv', 'city,visitors\nTromso,45\n');
    const dialog = page.getByRole('dialog', { name: 'Import visits.csv' });
    await dialog.getByRole('radio', { name: 'New table' }).check();
    await dialog.getByLabel('Name of the new table').fill('Visits 2026');
    await dialog.getByRole('button', { name: 'Create table' }).click();
    await page.waitForURL((url) => /\/tables\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(tableId));
    const newId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    await page.getByText('Displaying 1 row(s)').waitFor();
    expect((await apiTable(page, server, newId)).name).toBe('Visits 2026');
    expect(await rowsByName(page, server, newId)).toEqual([{ city: 'Tromso', visitors: 45 }]);
    expect(await rowsByName(page, server, tableId)).toEqual(before);
  });

  it('imports into an empty table at once, without asking', async () => {
    await page.goto(`${server.url}/tables`);
    await page.getByRole('button', { name: 'Add a table' }).click();
    await page.waitForURL(/\/tables\/[0-9a-f-]{36}$/);
    const emptyId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    await page.getByText('Displaying 10 row(s)').waitFor();
    await chooseFile(page, 'first.csv', 'x,y\n1,2\n');
    await page.getByTestId('import-report').getByText('Imported first.csv: 1 row').waitFor();
    expect(await page.getByText('This table already has data.').count()).toBe(0);
    expect(await rowsByName(page, server, emptyId)).toEqual([{ x: 1, y: 2 }]);
  });

  it("shows the import's own progress, as a percentage, after the upload of a large file", async () => {
    // Large enough that the import outlasts a few of the dialog's progress polls.
    const lines = ['x,y,name'];
    for (let i = 0; i < 800_000; i += 1) lines.push(`${i},${(i * 7919) % 100_003},Customer ${i % 977}`);
    await chooseFile(page, 'large.csv', `${lines.join('\n')}\n`);
    const dialog = page.getByRole('dialog', { name: 'Import large.csv' });
    await dialog.getByRole('radio', { name: 'Replace' }).check();
    await dialog.getByRole('button', { name: 'Replace table' }).click();
    // The server's figure, not an animated bar: "Importing… 37% · writing the rows".
    const label = dialog.getByText(/^Importing… \d+%/);
    await label.waitFor({ timeout: 60_000 });
    const percent = Number(/(\d+)%/.exec((await label.textContent()) ?? '')?.[1]);
    expect(percent).toBeGreaterThanOrEqual(0);
    expect(percent).toBeLessThanOrEqual(100);
    await dialog.waitFor({ state: 'detached', timeout: 120_000 });
    await page
      .getByTestId('import-report')
      .getByText(/Imported large\.csv: 800.000 rows/)
      .waitFor();
  });
});
