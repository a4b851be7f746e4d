import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession, type RunningServer } from './harness';

interface ApiTable {
  columns: { columnKey: string; displayName: string; type: string; format?: Record<string, unknown> }[];
  rows: Record<string, unknown>[];
}

async function apiTable(page: Page, server: RunningServer, id: string): Promise<ApiTable> {
  const res = await page.request.get(`${server.url}/api/static-tables/${id}`);
  return (await res.json()) as ApiTable;
}

const valuesOf = async (page: Page, server: RunningServer, id: string) =>
  (await apiTable(page, server, id)).rows.map((r) => r.v);

const cellTexts = (page: Page, row: number) =>
  page.locator(`[role="row"][aria-rowindex="${row}"] [role="gridcell"]`).allTextContents();

async function openSettings(page: Page, column: string) {
  await page.getByRole('button', { name: `Column menu ${column}` }).click();
  await page.getByRole('menuitem', { name: 'Column settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Column settings' });
  await dialog.waitFor();
  return dialog;
}

describe('static-table column types and number formats', () => {
  let server: RunningServer;
  let page: Page;
  const session = signedInSession('type.setter@example.com', '/tables');
  let tableId = '';

  beforeAll(async () => {
    ({ server, page } = session);
    const created = await page.request.post(`${server.url}/api/static-tables`, {
      headers: { origin: server.url },
      data: {
        name: 'Values',
        columns: [
          { displayName: 'Label', columnKey: 'label' },
          { displayName: 'V', columnKey: 'v' },
        ],
        rows: [
          ['a', '1234.5'],
          ['b', '7.25'],
          ['c', 'abc'],
        ],
      },
    });
    expect(created.status()).toBe(201);
    tableId = ((await created.json()) as { id: string }).id;
    await page.goto(`${server.url}/tables/${tableId}`);
    await page.getByText('Displaying 3 row(s)').waitFor();
  });

  it('shows the type in the header; changes it after a preview of the values that would not convert; Undo restores', async () => {
    const header = page.getByRole('columnheader', { name: 'V' });
    await header.getByRole('img', { name: 'Type: Text' }).waitFor();

    let dialog = await openSettings(page, 'V');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Number' }).click();
    const preview = dialog.getByTestId('type-preview');
    await preview
      .getByText('1 of 3 values cannot be read as Number and will become empty, for example: "abc".')
      .waitFor();
    const save = dialog.getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).toBe(true);
    // Nothing changed before the confirmation.
    expect(await valuesOf(page, server, tableId)).toEqual(['1234.5', '7.25', 'abc']);
    await preview.getByRole('checkbox').check();
    await save.click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    await header.getByRole('img', { name: 'Type: Number' }).waitFor();
    expect(await valuesOf(page, server, tableId)).toEqual([1234.5, 7.25, null]);
    expect((await apiTable(page, server, tableId)).columns[1]?.type).toBe('Number');

    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => valuesOf(page, server, tableId), { timeout: 20_000 }).toEqual(['1234.5', '7.25', 'abc']);
    await header.getByRole('img', { name: 'Type: Text' }).waitFor();

    dialog = await openSettings(page, 'Label');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Boolean' }).click();
    await dialog
      .getByTestId('type-preview')
      .getByText(/3 of 3 values cannot be read as Boolean/)
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await apiTable(page, server, tableId)).columns[0]?.type).toBe('Text');
  });

  it('sets a number format that the grid shows', async () => {
    let dialog = await openSettings(page, 'V');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Number' }).click();
    await dialog.getByTestId('type-preview').getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => cellTexts(page, 1), { timeout: 10_000 }).toEqual(['a', '1,234.5']);

    dialog = await openSettings(page, 'V');
    await dialog.getByRole('checkbox', { name: 'Format numbers' }).check();
    await dialog.getByLabel('Decimal places').fill('2');
    await dialog.getByLabel('Prefix').fill('$');
    await dialog.getByTestId('format-example').getByText('Example: $1,234.57').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => cellTexts(page, 1), { timeout: 10_000 }).toEqual(['a', '$1,234.50']);
    expect(await cellTexts(page, 2)).toEqual(['b', '$7.25']);
    expect((await apiTable(page, server, tableId)).columns[1]?.format).toMatchObject({ decimalPlaces: 2, prefix: '$' });

    // Percent, as model columns have it.
    dialog = await openSettings(page, 'V');
    await dialog.getByText('Percent', { exact: true }).click();
    await dialog.getByLabel('Prefix').fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => cellTexts(page, 2), { timeout: 10_000 }).toEqual(['b', '725.00%']);
  });
});
