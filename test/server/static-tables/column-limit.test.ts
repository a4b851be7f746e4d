import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/shared/limits';
import { call, expectError, makeApp, signIn, type TestApp } from '../helpers';
import { createTable, getTable, infiniteScroll, ok, uploadCsv, warehouseTables, type StaticTable } from './helpers';

const names = (count: number, prefix = 'c') => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
const columnsOf = (count: number) => names(count).map((displayName) => ({ displayName }));

async function setup() {
  const t = await makeApp();
  const cookie = await signIn(t, 'owner@example.com');
  const table = await createTable(t, cookie, {
    name: 'Kept',
    columns: [{ displayName: 'Old' }, { displayName: 'Other' }],
    rows: [
      ['kept 1', 'x'],
      ['kept 2', 'y'],
    ],
  });
  return { t, cookie, table };
}

/** The table is as it was, and still reads through the tables API with its old rows. */
async function expectIntact(t: TestApp, cookie: string, before: StaticTable): Promise<void> {
  expect(await getTable(t, cookie, before.id)).toEqual(before);
  const page = ok(await infiniteScroll(t, cookie, before.id, { page: 1, pageSize: 50 }));
  expect(page.data).toHaveLength(before.rows.length);
  for (const [i, row] of before.rows.entries()) expect(page.data[i]).toMatchObject(row);
}

describe('a static table never has more than the column limit', () => {
  it('refuses a CSV of 6,000 columns, into an existing table and a new one, naming the limit', async () => {
    const { t, cookie, table } = await setup();
    const wide = `${names(6_000).join(',')}\n${names(6_000).join(',')}\n`;
    const message = `The file has 6000 columns; a table can have at most ${LIMITS.maxColumns}. Split the file or remove columns.`;
    expect(expectError(await uploadCsv(t, cookie, table.id, wide), 400)).toBe(message);
    await expectIntact(t, cookie, table);

    const blank = await createTable(t, cookie, { name: 'New one' });
    expect(expectError(await uploadCsv(t, cookie, blank.id, wide), 400)).toBe(message);
    await expectIntact(t, cookie, blank);
    expect(await warehouseTables(t, cookie)).toHaveLength(2);
  });

  it('refuses a CSV just over the limit, also when its header is too long to count before reading', async () => {
    const { t, cookie, table } = await setup();
    const justOver = names(LIMITS.maxColumns + 1).join(',');
    expect(expectError(await uploadCsv(t, cookie, table.id, `${justOver}\n${justOver}\n`), 400)).toMatch(
      /^The file has 501 columns; a table can have at most 500\./,
    );
    // 501 names of 150 characters: a header of 76 KB, past what is read before DuckDB reads the file.
    const longNames = names(LIMITS.maxColumns + 1).map((n) => n.padEnd(150, 'x'));
    expect(
      expectError(await uploadCsv(t, cookie, table.id, `${longNames.join(',')}\n${names(501).join(',')}\n`), 400),
    ).toMatch(/^The file has 501 columns; a table can have at most 500\./);
    await expectIntact(t, cookie, table);
    // Exactly at the limit is fine.
    const atLimit = names(LIMITS.maxColumns).join(',');
    expect(ok(await uploadCsv(t, cookie, table.id, `${atLimit}\n${atLimit}\n`))).toMatchObject({ rowCount: 1 });
  });

  it('refuses creating or replacing with more columns than the limit, and adding one past it', async () => {
    const { t, cookie, table } = await setup();
    const create = await call(t.server, 'POST', '/api/static-tables', {
      cookie,
      body: { name: 'Too wide', columns: columnsOf(LIMITS.maxColumns + 1) },
    });
    expect(expectError(create, 400)).toBe('columns: A table can have at most 500 columns.');

    const replace = await call(t.server, 'PUT', `/api/static-tables/${table.id}/data`, {
      cookie,
      body: { columns: columnsOf(6_000), rows: [] },
    });
    expect(expectError(replace, 400)).toBe('columns: A table can have at most 500 columns.');
    await expectIntact(t, cookie, table);

    const full = await createTable(t, cookie, { name: 'Full', columns: columnsOf(LIMITS.maxColumns), rows: [['a']] });
    const add = await call(t.server, 'POST', `/api/static-tables/${full.id}/changes`, {
      cookie,
      body: { changes: [{ kind: 'addColumn', column: { displayName: 'One more' } }] },
    });
    expect(expectError(add, 400)).toBe('A table can have at most 500 columns.');
    await expectIntact(t, cookie, full);
    expect(await warehouseTables(t, cookie)).toHaveLength(2);
  });
});
