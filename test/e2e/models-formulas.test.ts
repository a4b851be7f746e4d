import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, mailedLink, signIn, startServer, type RunningServer } from './harness';

const OWNER = 'nora.lind@example.com';
const READER = 'ravi.shah@example.com';
const SHOTS = '/tmp/shots';

interface Column {
  columnKey: string;
  displayName: string;
}

/** The cells of one grid row, in column order. */
/** The header's Undo or Redo button, once it offers to take back (or bring back) `step`. */
async function stepButton(page: Page, name: 'Undo' | 'Redo', step: string) {
  const button = page.getByRole('button', { name, exact: true });
  await expect.poll(() => button.getAttribute('aria-description')).toBe(step);
  // Enabled once the previous step has settled (its data read again).
  await expect.poll(() => button.getAttribute('aria-disabled')).toBeNull();
  return button;
}

const rowCells = (page: Page, n: number) =>
  page.locator(`[role="row"][aria-rowindex="${n}"] [role="gridcell"]`).allTextContents();

describe('model formulas by name, draft steps and view mode in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let owner: Page;
  let reader: Page;
  let modelId = '';
  let amountKey = '';

  beforeAll(async () => {
    server = await startServer({ SIGNUP: 'open' });
    browser = await launchBrowser();
    owner = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    reader = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await signIn(owner, server, OWNER);
    await signIn(reader, server, READER);
    const headers = { origin: server.url };
    const post = async <T>(path: string, data: unknown): Promise<T> => {
      const res = await owner.request.post(`${server.url}${path}`, { data, headers });
      const text = await res.text();
      expect(res.ok(), text).toBe(true);
      return (text ? JSON.parse(text) : null) as T;
    };

    // Orders, as a script would make it, and a published model Sales: Order, Amount.
    const table = await post<{ id: string }>('/api/static-tables', { name: 'Orders' });
    const upload = await owner.request.put(`${server.url}/api/static-tables/${table.id}/upload`, {
      headers,
      multipart: {
        file: {
          name: 'orders.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from('order_id,amount\n1,25.5\n2,10\n3,4.5\n4,100\n'),
        },
      },
    });
    expect(upload.ok()).toBe(true);
    const stored = (await (await owner.request.get(`${server.url}/api/static-tables/${table.id}`)).json()) as {
      columns: Column[];
    };
    const source = (name: string) => ({
      sourceId: table.id,
      sourceType: 'StaticTable',
      columnKey: stored.columns.find((c) => c.displayName === name)!.columnKey,
    });
    modelId = (await post<{ id: string }>('/api/models', { name: 'Sales' })).id;
    await post(`/api/models/${modelId}/columns`, { displayName: 'Order', sourceColumn: source('order_id') });
    const model = await post<{ columns: Column[] }>(`/api/models/${modelId}/columns`, {
      displayName: 'Amount',
      sourceColumn: source('amount'),
    });
    amountKey = model.columns.find((c) => c.displayName === 'Amount')!.columnKey;
    const sorted = await owner.request.put(`${server.url}/api/models/${modelId}/sort`, {
      data: { sort: [{ columnKey: model.columns[0]!.columnKey }] },
      headers,
    });
    expect(sorted.ok()).toBe(true);
    await post(`/api/models/${modelId}/publish`, {});

    await post('/api/accounts/invite', { email: READER, roles: ['read_only'] });
    await reader.goto(await mailedLink(server.dataDir, READER, 'invite'));
    await reader.getByText('Invitation success.').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('adds a function column written with display names, completing names and functions by keyboard', async () => {
    await owner.goto(`${server.url}/models/${modelId}`);
    await owner.getByText('Active · v1').waitFor();
    await owner.getByRole('button', { name: 'Columns and relationships' }).click();
    await owner.getByRole('tab', { name: 'Add column' }).click();
    await owner.getByRole('tab', { name: 'Add function column' }).click();
    await owner.getByLabel('Column name').fill('With tax');
    const formula = owner.getByLabel('Formula');
    const add = owner.getByRole('button', { name: 'Add function column' });
    expect(await add.isDisabled()).toBe(true);

    // Function names complete with their signature; Enter takes the highlighted one.
    await formula.pressSequentially('ROU');
    await owner.getByRole('option', { name: /ROUND\(number, digits\?\)/ }).waitFor();
    await formula.press('Enter');
    expect(await formula.inputValue()).toBe('ROUND(');
    // After [ the column names; arrows move, Tab takes.
    await formula.pressSequentially('[');
    const options = owner.getByRole('listbox', { name: 'Columns' }).getByRole('option');
    await expect.poll(() => options.allTextContents()).toEqual(['AmountNumber', 'OrderNumber']);
    await owner.screenshot({ path: `${SHOTS}/model-formula-complete.png` });
    await formula.press('ArrowDown');
    await formula.press('ArrowUp');
    await formula.press('Tab');
    expect(await formula.inputValue()).toBe('ROUND([Amount]');
    // Escape closes the list only: the panel stays open.
    await formula.pressSequentially(' * 1.2, 2) + [');
    await options.first().waitFor();
    await formula.press('Escape');
    await expect.poll(() => options.count()).toBe(0);
    await formula.waitFor();
    for (let i = 0; i < 4; i++) await formula.press('Backspace');
    expect(await formula.inputValue()).toBe('ROUND([Amount] * 1.2, 2)');

    await owner.getByText('Result type: Number').waitFor();
    await expect.poll(() => add.isDisabled()).toBe(false);
    await owner.screenshot({ path: `${SHOTS}/model-formula-editor.png` });
    await add.click();
    await owner.getByRole('columnheader', { name: 'With tax' }).waitFor();
    await owner.keyboard.press('Escape');
    await expect.poll(() => rowCells(owner, 1)).toEqual(['1', '25.5', '30.6']);
    expect(await rowCells(owner, 4)).toEqual(['4', '100', '120']);

    // Stored by key.
    const stored = (await (await owner.request.get(`${server.url}/api/models/${modelId}?draft=true`)).json()) as {
      columns: (Column & { function: string | null })[];
    };
    expect(stored.columns.find((c) => c.displayName === 'With tax')?.function).toBe(`ROUND([${amountKey}] * 1.2, 2)`);
  });

  it('keeps Add disabled while the formula is invalid and says why once, without a toast', async () => {
    await owner.getByRole('button', { name: 'Columns and relationships' }).click();
    await owner.getByRole('tab', { name: 'Add column' }).click();
    await owner.getByRole('tab', { name: 'Add function column' }).click();
    await owner.getByLabel('Column name').fill('Broken');
    await owner.getByLabel('Formula').fill('ROUND([amout] * 1.2, 2)');
    const message = owner.getByText('Unknown column [amout] at position 7');
    await message.waitFor();
    expect(await message.count()).toBe(1);
    expect(await owner.getByRole('button', { name: 'Add function column' }).isDisabled()).toBe(true);
    await owner.getByText('Fix the formula first.').waitFor();
    expect(await owner.locator('.mantine-Notification-root').count()).toBe(0);
    await owner.getByLabel('Formula').fill('');
    await owner.keyboard.press('Escape');
  });

  it('renaming a column keeps the formula working and shows the new name', async () => {
    await owner.getByRole('button', { name: 'Columns and relationships' }).click();
    const name = owner.getByLabel('Name of Amount');
    // A refused change says so once (it used to show two toasts).
    await name.fill('x'.repeat(201));
    await name.press('Enter');
    await owner.locator('.mantine-Notification-root').first().waitFor();
    await expect.poll(() => owner.locator('.mantine-Notification-root').count()).toBe(1);
    await name.fill('Net amount');
    await name.press('Enter');
    await owner.getByRole('columnheader', { name: 'Net amount' }).waitFor();
    await owner.getByText('= ROUND([Net amount] * 1.2, 2)').waitFor();
    await owner.getByRole('button', { name: 'Edit formula of With tax' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Edit function column: With tax' });
    expect(await dialog.getByLabel('Formula').inputValue()).toBe('ROUND([Net amount] * 1.2, 2)');
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await owner.keyboard.press('Escape');
    await expect.poll(() => rowCells(owner, 1)).toEqual(['1', '25.5', '30.6']);
  });

  it('undoes the draft step by step, redoes, and discards it after a confirmation', async () => {
    await (await stepButton(owner, 'Undo', 'Rename column Amount to Net amount')).click();
    await owner.getByRole('columnheader', { name: 'Amount', exact: true }).waitFor();
    await owner.getByRole('columnheader', { name: 'With tax' }).waitFor();
    await (await stepButton(owner, 'Redo', 'Rename column Amount to Net amount')).click();
    await owner.getByRole('columnheader', { name: 'Net amount' }).waitFor();
    // Ctrl+Z undoes too, as in the table editor.
    await stepButton(owner, 'Undo', 'Rename column Amount to Net amount');
    await owner.keyboard.press('Control+z');
    await owner.getByRole('columnheader', { name: 'Amount', exact: true }).waitFor();
    await stepButton(owner, 'Undo', 'Add column With tax');

    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.getByRole('button', { name: 'Discard draft…' }).waitFor();
    await owner.screenshot({ path: `${SHOTS}/model-draft-header-390.png` });
    await owner.setViewportSize({ width: 1440, height: 900 });

    // Discarding asks first; Cancel keeps the draft.
    await owner.getByRole('button', { name: 'Discard draft…' }).click();
    const confirm = owner.getByRole('dialog', { name: 'Confirm' });
    await confirm.getByText('Discard every unpublished change to this model?').waitFor();
    await owner.screenshot({ path: `${SHOTS}/model-discard-draft.png` });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await owner.getByText('Draft · v2').waitFor();
    await owner.getByRole('button', { name: 'Discard draft…' }).click();
    await owner.getByRole('dialog', { name: 'Confirm' }).getByRole('button', { name: 'Ok' }).click();
    await owner.getByText('Active · v1').waitFor();
    await expect.poll(() => owner.getByRole('columnheader', { name: 'With tax' }).count()).toBe(0);
    expect(await owner.getByRole('button', { name: 'Publish' }).count()).toBe(0);
  });

  it('keeps Publish disabled with the reason while the draft has breaking problems, and shows SQL by names', async () => {
    await owner.getByRole('button', { name: 'Columns and relationships' }).click();
    await owner.getByRole('tab', { name: 'Add column' }).click();
    await owner.getByRole('tab', { name: 'Add function column' }).click();
    await owner.getByLabel('Column name').fill('Doubled');
    await owner.getByLabel('Formula').fill('[Amount] * 2');
    await owner.getByText('Result type: Number').waitFor();
    await owner.getByRole('button', { name: 'Add function column' }).click();
    await owner.getByRole('columnheader', { name: 'Doubled' }).waitFor();
    await owner.getByRole('tab', { name: 'Edit existing columns' }).click();
    await owner.getByRole('button', { name: 'Delete Amount' }).click();
    await owner.keyboard.press('Escape');
    const publish = owner.getByRole('button', { name: 'Publish' });
    await expect.poll(() => publish.isDisabled()).toBe(true);
    await publish.hover();
    await owner.getByText(/Fix these problems first: A column has been removed/).waitFor();
    await owner.screenshot({ path: `${SHOTS}/model-publish-blocked.png` });
    await (await stepButton(owner, 'Undo', 'Remove column Amount')).click();
    await expect.poll(() => publish.isDisabled()).toBe(false);
    await publish.click();
    await owner.getByText('Active · v2').waitFor();

    await owner.getByRole('button', { name: 'Model menu' }).click();
    await owner.getByRole('menuitem', { name: 'Show SQL' }).click();
    const sql = (await owner.getByLabel('Model SQL').textContent()) ?? '';
    expect(sql).toContain('AS "Order"');
    expect(sql).toContain('AS "Amount"');
    expect(sql).toContain('AS "Doubled"');
    expect(sql).not.toContain(`AS "${amountKey}"`);
    await owner.screenshot({ path: `${SHOTS}/model-sql-names.png` });
    await owner.keyboard.press('Escape');
  });

  it('a read_only member sees the model in view mode, with no edit control', async () => {
    await reader.goto(`${server.url}/models/${modelId}`);
    await reader.getByText('View only').waitFor();
    await reader.getByRole('columnheader', { name: 'Doubled' }).waitFor();
    for (const name of ['Publish', 'Discard draft…', 'Columns and relationships', 'Add pivot']) {
      expect(await reader.getByRole('button', { name, exact: true }).count()).toBe(0);
    }
    expect(await reader.getByRole('button', { name: 'Undo', exact: true }).count()).toBe(0);
    expect(await reader.getByLabel('Model name').count()).toBe(0);
    await reader.getByRole('button', { name: 'Model menu' }).click();
    await reader.getByRole('menuitem', { name: 'Show SQL' }).waitFor();
    expect(await reader.getByRole('menuitem', { name: 'Delete model' }).count()).toBe(0);
    await reader.keyboard.press('Escape');
    await reader.screenshot({ path: `${SHOTS}/model-view-only.png` });
    await reader.setViewportSize({ width: 390, height: 844 });
    await reader.getByText('View only').waitFor();
    await reader.screenshot({ path: `${SHOTS}/model-view-only-390.png` });
  });
});
