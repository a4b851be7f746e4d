import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, mailedLink, signIn, startServer, type RunningServer } from './harness';

const ANN = 'ann.sheet@example.com';
const BOB = 'bob.viewer@example.com';

const cell = (page: Page, row: number, column: number) =>
  page.locator(`[role="row"][aria-rowindex="${row}"] [role="gridcell"]`).nth(column);
const cellTexts = (page: Page, row: number) =>
  page.locator(`[role="row"][aria-rowindex="${row}"] [role="gridcell"]`).allTextContents();
/** [row, column] (1-based row number, 0-based column) of the outlined active cell, read from the DOM. */
const activeCell = (page: Page) =>
  page.evaluate(() => {
    const grid = document.querySelector('[role="grid"]')!;
    for (const row of grid.querySelectorAll('[role="row"]')) {
      const cells = [...row.querySelectorAll('[role="gridcell"]')];
      const at = cells.findIndex((c) => (c as HTMLElement).style.outline.includes('solid'));
      if (at >= 0) return [Number(row.getAttribute('aria-rowindex')), at];
    }
    return null;
  });
const focusInGrid = (page: Page) =>
  page.evaluate(() => document.querySelector('[role="grid"]')!.contains(document.activeElement));

interface TableBody {
  rowCount: number;
  columns: { columnKey: string; displayName: string }[];
  rows: Record<string, unknown>[];
}

describe('the static table as a spreadsheet', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    await signIn(page, server, ANN, '/tables');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A table with columns Region and Amount (keys region, amount) and the given rows; returns its id. */
  async function table(rows: (string | null)[][], name = 'Sales'): Promise<string> {
    // The previous test's last save has answered (its write is whole, checkpoint included).
    await page.getByText('Saving', { exact: true }).waitFor({ state: 'detached', timeout: 30_000 });
    const res = await page.request.post(`${server.url}/api/static-tables`, {
      data: {
        name,
        columns: [
          { displayName: 'Region', columnKey: 'region' },
          { displayName: 'Amount', columnKey: 'amount' },
        ],
        rows,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }
  async function saved(id: string): Promise<TableBody> {
    const res = await page.request.get(`${server.url}/api/static-tables/${id}`);
    return (await res.json()) as TableBody;
  }
  /** Saved rows as arrays of values in column order. */
  async function savedRows(id: string): Promise<unknown[][]> {
    const body = await saved(id);
    return body.rows.map((r) => body.columns.map((c) => r[c.columnKey]));
  }
  async function open(id: string, rows: number) {
    await page.goto(`${server.url}/tables/${id}`);
    await page.getByText(`Displaying ${rows} row(s)`).waitFor();
  }

  it('types across cells with Tab, Enter and arrows, saving each value in its own cell', async () => {
    const id = await table([
      [null, null],
      [null, null],
      [null, null],
      [null, null],
    ]);
    await open(id, 4);
    await cell(page, 1, 0).click();
    // Tab commits and moves right; Enter after a run of Tabs goes to the next row, where the run began.
    await page.keyboard.type('North');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1200');
    await page.keyboard.press('Enter');
    expect(await activeCell(page)).toEqual([2, 0]);
    await page.keyboard.type('South');
    await page.keyboard.press('Tab');
    await page.keyboard.type('950');
    await page.keyboard.press('Enter');
    // Editing begun by typing: arrows commit and move.
    await page.keyboard.type('East');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('700');
    await page.keyboard.press('ArrowDown');
    expect(await activeCell(page)).toEqual([4, 1]);
    // Shift+Tab goes left; Shift+Enter up.
    await page.keyboard.type('5');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type('West');
    await page.keyboard.press('Shift+Enter');
    expect(await activeCell(page)).toEqual([3, 0]);
    expect(await cellTexts(page, 1)).toEqual(['North', '1200']);
    await expect
      .poll(() => savedRows(id), { timeout: 15_000 })
      .toEqual([
        ['North', '1200'],
        ['South', '950'],
        ['East', '700'],
        ['West', '5'],
      ]);

    // Tab at the last column wraps to the next row; focus never leaves the grid.
    await cell(page, 1, 1).click();
    await page.keyboard.press('Tab');
    expect(await activeCell(page)).toEqual([2, 0]);
    for (let i = 0; i < 9; i++) await page.keyboard.press('Tab');
    expect(await activeCell(page)).toEqual([4, 1]);
    expect(await focusInGrid(page)).toBe(true);
    // Escape drops the selection; then Tab may leave the grid.
    await page.keyboard.press('Escape');
    expect(await activeCell(page)).toBeNull();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement === document.querySelector('[role="grid"]'))).toBe(false);
    // Coming back to the grid makes its first cell active, visibly.
    await page.getByRole('grid').focus();
    expect(await activeCell(page)).toEqual([1, 0]);
  });

  it('edits in place with F2 or a double click, where arrows move the caret; Escape and blur commit', async () => {
    const id = await table([
      ['South', '950'],
      ['North', '1200'],
    ]);
    await open(id, 2);
    await cell(page, 1, 0).click();
    await page.keyboard.press('F2');
    const input = page.getByLabel('Edit Region');
    await input.waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('X');
    // Escape commits (spec) and stays on the cell.
    await page.keyboard.press('Escape');
    expect(await cellTexts(page, 1)).toEqual(['SouXth', '950']);
    expect(await activeCell(page)).toEqual([1, 0]);

    await cell(page, 2, 0).dblclick();
    await page.getByLabel('Edit Region').waitFor();
    await page.keyboard.press('Home');
    await page.keyboard.type('Far ');
    // Blur commits too.
    await page.getByText('Displaying 2 row(s)').click();
    await expect.poll(() => cellTexts(page, 2)).toEqual(['Far North', '1200']);
    await expect
      .poll(() => savedRows(id), { timeout: 15_000 })
      .toEqual([
        ['SouXth', '950'],
        ['Far North', '1200'],
      ]);
  });

  it('copies a range as TSV and pastes it elsewhere, growing the table by rows and, once agreed, columns', async () => {
    const id = await table([
      ['North', '1200'],
      ['South\tSide', 'say "hi"'],
    ]);
    await open(id, 2);
    // Shift+click stretches the range; Ctrl+C copies it as TSV (quoted where a cell needs it).
    await cell(page, 1, 0).click();
    await cell(page, 2, 1).click({ modifiers: ['Shift'] });
    expect(await cell(page, 2, 0).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Control+c');
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toBe('North\t1200\n"South\tSide"\t"say ""hi"""');

    // Pasted at row 2, Amount: one row more than the table has, one column more.
    await cell(page, 2, 1).click();
    await page.keyboard.press('Control+v');
    const dialog = page.getByRole('dialog', { name: 'Add columns for the paste?' });
    await dialog.getByTestId('paste-new-columns').getByText('Column 3').waitFor();
    await dialog.getByRole('button', { name: 'Add 1 column' }).click();
    await page.getByText('Displaying 3 row(s)').waitFor();
    await expect
      .poll(() => savedRows(id), { timeout: 15_000 })
      .toEqual([
        ['North', '1200', null],
        ['South\tSide', 'North', '1200'],
        [null, 'South\tSide', 'say "hi"'],
      ]);
    expect((await saved(id)).columns.map((c) => c.displayName)).toEqual(['Region', 'Amount', 'Column 3']);
    await page.getByRole('columnheader', { name: 'Column 3' }).waitFor();

    // The paste is one step: undo removes the added row and column, redo brings them back.
    await page.keyboard.press('Control+z');
    await expect
      .poll(() => savedRows(id), { timeout: 15_000 })
      .toEqual([
        ['North', '1200'],
        ['South\tSide', 'say "hi"'],
      ]);
    await page.getByText('Displaying 2 row(s)').waitFor();
    await page.getByRole('button', { name: 'Redo' }).click();
    await expect
      .poll(() => savedRows(id), { timeout: 15_000 })
      .toEqual([
        ['North', '1200', null],
        ['South\tSide', 'North', '1200'],
        [null, 'South\tSide', 'say "hi"'],
      ]);
    await page.getByText('Displaying 3 row(s)').waitFor();

    // Declining the new columns pastes the rest, adding rows only.
    await cell(page, 3, 2).click();
    await page.keyboard.press('Control+v');
    await dialog.getByRole('button', { name: 'Paste without them' }).click();
    await expect
      .poll(() => savedRows(id), { timeout: 15_000 })
      .toEqual([
        ['North', '1200', null],
        ['South\tSide', 'North', '1200'],
        [null, 'South\tSide', 'North'],
        [null, null, 'South\tSide'],
      ]);
  });

  it('selects a range by dragging and by Shift+arrows; Delete clears it and Ctrl+D fills down, each undoable', async () => {
    const id = await table([
      ['a1', 'b1'],
      ['a2', 'b2'],
      ['a3', 'b3'],
      ['a4', 'b4'],
    ]);
    await open(id, 4);
    // Drag from row 2, Region to row 3, Amount.
    const from = await cell(page, 2, 0).boundingBox();
    const to = await cell(page, 3, 1).boundingBox();
    await page.mouse.move(from!.x + 10, from!.y + 5);
    await page.mouse.down();
    await page.mouse.move(to!.x + 10, to!.y + 5, { steps: 5 });
    await page.mouse.up();
    expect(await cell(page, 3, 1).getAttribute('aria-selected')).toBe('true');
    expect(await cell(page, 1, 0).getAttribute('aria-selected')).toBe('false');
    await page.keyboard.press('Delete');
    await expect
      .poll(() => savedRows(id), { timeout: 15_000 })
      .toEqual([
        ['a1', 'b1'],
        [null, null],
        [null, null],
        ['a4', 'b4'],
      ]);
    await page.keyboard.press('Control+z');
    await expect
      .poll(() => savedRows(id), { timeout: 15_000 })
      .toEqual([
        ['a1', 'b1'],
        ['a2', 'b2'],
        ['a3', 'b3'],
        ['a4', 'b4'],
      ]);

    // Shift+arrows from row 1: the first row of the range fills the rows below.
    await cell(page, 1, 0).click();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowRight');
    expect(await cell(page, 3, 1).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Control+d');
    await expect
      .poll(() => savedRows(id), { timeout: 15_000 })
      .toEqual([
        ['a1', 'b1'],
        ['a1', 'b1'],
        ['a1', 'b1'],
        ['a4', 'b4'],
      ]);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => cellTexts(page, 3)).toEqual(['a3', 'b3']);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => cellTexts(page, 3)).toEqual(['a1', 'b1']);
    await expect.poll(async () => (await savedRows(id))[2], { timeout: 15_000 }).toEqual(['a1', 'b1']);
  });

  it('keeps typed values shown as unsaved when a save fails, and saves them on Retry', async () => {
    const id = await table([[null, null]]);
    await open(id, 1);
    await page.route('**/trpc/staticTables.change**', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Service unavailable"}' }),
    );
    await cell(page, 1, 0).click();
    await page.keyboard.type('Kept');
    await page.keyboard.press('Tab');
    await page.keyboard.type('42');
    await page.keyboard.press('Enter');
    await page.getByText('Error', { exact: true }).waitFor();
    await page.getByText('2 changes not saved').waitFor();
    expect(await cellTexts(page, 1)).toEqual(['Kept', '42']);
    expect(await cell(page, 1, 0).getAttribute('data-unsaved')).toBe('true');
    // Reading the rows again (page by page now) does not hide them.
    await page.getByText('Pages', { exact: true }).click();
    await page.getByText('Rows 1–1 of 1').waitFor();
    expect(await cellTexts(page, 1)).toEqual(['Kept', '42']);
    expect(await cell(page, 1, 1).getAttribute('data-unsaved')).toBe('true');
    expect(await savedRows(id)).toEqual([[null, null]]);
    // Typing over an unsaved cell changes the value waiting to be sent.
    await cell(page, 1, 1).click();
    await page.keyboard.type('43');
    await page.keyboard.press('Enter');
    await page.getByText('2 changes not saved').waitFor();

    await page.unroute('**/trpc/staticTables.change**');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    await expect.poll(() => savedRows(id), { timeout: 15_000 }).toEqual([['Kept', '43']]);
    expect(await cell(page, 1, 0).getAttribute('data-unsaved')).toBeNull();
    expect(await cellTexts(page, 1)).toEqual(['Kept', '43']);
  });

  it('keeps a value the server refuses, so it can be corrected and saved', async () => {
    const created = await page.request.post(`${server.url}/api/static-tables`, { data: { name: 'Counts' } });
    const { id } = (await created.json()) as { id: string };
    const upload = await page.request.put(`${server.url}/api/static-tables/${id}/upload`, {
      headers: { origin: server.url },
      multipart: {
        file: { name: 'counts.csv', mimeType: 'text/csv', buffer: Buffer.from('item,n\napples,3\npears,\n') },
      },
    });
    expect(upload.status()).toBe(200);
    await open(id, 2);
    // n holds whole numbers: 2.5 is refused by the server, and stays on screen, unsaved.
    await cell(page, 2, 1).click();
    await page.keyboard.type('2.5');
    await page.keyboard.press('Enter');
    await page.getByText('1 change not saved').waitFor();
    await page
      .getByText(/not a whole number/)
      .first()
      .waitFor();
    expect(await cellTexts(page, 2)).toEqual(['pears', '2.5']);
    expect(await cell(page, 2, 1).getAttribute('data-unsaved')).toBe('true');
    // Corrected in place, then sent again.
    await cell(page, 2, 1).click();
    await page.keyboard.type('4');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    const body = await saved(id);
    expect(body.rows.map((r) => r[body.columns[1]!.columnKey])).toEqual([3, 4]);
  });

  it('pastes 12,000 rows in several calls the server accepts', async () => {
    const id = await table([[null, null]]);
    await open(id, 1);
    const calls: number[] = [];
    page.on('request', (request) => {
      if (request.url().includes('staticTables.change')) calls.push(request.postData()?.length ?? 0);
    });
    // Each call waits a moment, so the progress can be seen.
    await page.route('**/trpc/staticTables.change**', async (route) => {
      await new Promise((r) => setTimeout(r, 1_000));
      await route.continue();
    });
    await cell(page, 1, 0).click();
    await page.evaluate(() => {
      const lines = Array.from({ length: 12_000 }, (_, i) => `region ${i + 1}\t${i + 1}`);
      const data = new DataTransfer();
      data.setData('text/plain', lines.join('\r\n'));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    });
    await page.getByLabel('Save progress').waitFor();
    await page.getByText(/^[\d,]+ of 12,001$/).waitFor();
    await page.getByText('Saved', { exact: true }).waitFor({ timeout: 60_000 });
    await page.unroute('**/trpc/staticTables.change**');
    expect((await saved(id)).rowCount).toBe(12_000);
    await page.getByText('Displaying 1000 of 12000 row(s)').waitFor();
    const body = await saved(id);
    expect(body.rows[11_999]).toMatchObject({ region: 'region 12000', amount: '12000' });
    expect(calls.length).toBeGreaterThan(1);
    expect(Math.max(...calls)).toBeLessThan(1024 * 1024);
  }, 120_000);

  it('pastes over rows not loaded yet: they are read first, so the paste lands on them and adds only what is past the end', async () => {
    const id = await table(Array.from({ length: 1_002 }, (_, i) => [`r${i + 1}`, null]));
    await page.goto(`${server.url}/tables/${id}`);
    await page.getByText('Displaying 1000 of 1002 row(s)').waitFor();
    await page.getByRole('grid').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    // Row 999 is loaded; rows 1001 and 1002 are not yet.
    await page.evaluate(() => {
      const grid = document.querySelector('[role="grid"]')!;
      grid.scrollTop = 998 * 26;
    });
    await cell(page, 999, 1).click();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'p1\np2\np3\np4\np5');
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    });
    await expect
      .poll(async () => (await savedRows(id)).slice(997), { timeout: 15_000 })
      .toEqual([
        ['r998', null],
        ['r999', 'p1'],
        ['r1000', 'p2'],
        ['r1001', 'p3'],
        ['r1002', 'p4'],
        [null, 'p5'],
      ]);
  });

  it('shows a read_only member the table in view mode: no edit control, typing changes nothing, copy works', async () => {
    const id = await table([['North', '1200']], 'Shared');
    const invite = await page.request.post(`${server.url}/api/accounts/invite`, {
      data: { email: BOB, roles: ['read_only'], name: 'Bob Viewer' },
    });
    expect(invite.status()).toBe(204);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const bob = await context.newPage();
    await bob.goto(await mailedLink(server.dataDir, BOB, 'invite'));
    await bob.waitForURL(`${server.url}/`);
    await bob.goto(`${server.url}/tables/${id}`);
    await bob.getByText('Displaying 1 row(s)').waitFor();
    await bob.getByText('View only').waitFor();
    for (const name of ['Undo', 'Redo', 'Import CSV', 'Delete', 'Add row', 'Add column']) {
      expect(await bob.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }
    expect(await bob.getByLabel('Table name').count()).toBe(0);
    await bob.getByRole('button', { name: 'Column menu Region' }).click();
    await bob.getByRole('menuitem', { name: 'Sort ascending' }).waitFor();
    for (const name of ['Column settings', 'Delete column', 'Move left', 'Move right']) {
      expect(await bob.getByRole('menuitem', { name }).count(), name).toBe(0);
    }
    await bob.keyboard.press('Escape');
    await cell(bob, 1, 0).click({ button: 'right' });
    await bob.getByRole('menuitem', { name: 'Filter for value' }).waitFor();
    expect(await bob.getByRole('menuitem', { name: 'Delete row' }).count()).toBe(0);
    await bob.keyboard.press('Escape');
    await cell(bob, 1, 0).click();
    await bob.keyboard.type('zzz');
    await bob.keyboard.press('Enter');
    await bob.keyboard.press('Delete');
    await cell(bob, 1, 0).dblclick();
    expect(await bob.locator('[role="grid"] input').count()).toBe(0);
    expect(await cellTexts(bob, 1)).toEqual(['North', '1200']);
    await cell(bob, 1, 1).click({ modifiers: ['Shift'] });
    await bob.keyboard.press('Control+c');
    await expect.poll(() => bob.evaluate(() => navigator.clipboard.readText())).toBe('North\t1200');
    expect(await savedRows(id)).toEqual([['North', '1200']]);
    await context.close();
  });
});
