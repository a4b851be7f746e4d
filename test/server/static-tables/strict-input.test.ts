import { describe, expect, it } from 'vitest';
import { call, expectError, makeApp, signIn, type TestApp } from '../helpers';
import { createTable, getTable, ok, warehouseTables, type StaticTable, type StaticTableList } from './helpers';

async function owner() {
  const t = await makeApp();
  return { t, cookie: await signIn(t, 'owner@example.com') };
}

async function names(t: TestApp, cookie: string, query?: string): Promise<string[]> {
  const url = query === undefined ? '/api/static-tables' : `/api/static-tables?query=${encodeURIComponent(query)}`;
  return ok(await call<StaticTableList>(t.server, 'GET', url, { cookie })).data.map((d) => d.name);
}

const columns = [
  { displayName: 'Name', columnKey: 'name' },
  { displayName: 'City', columnKey: 'city' },
];

describe('rows with cells no column receives', () => {
  it('refuses them on create with 400 naming the row and the key, creating nothing', async () => {
    const { t, cookie } = await owner();
    const post = (rows: unknown[]) =>
      call(t.server, 'POST', '/api/static-tables', { cookie, body: { name: 'T', columns, rows } });
    expect(expectError(await post([{ name: 'Ada' }, { name: 'Bob', cty: 'Oslo' }]), 400)).toBe(
      'Row 2 has a value for "cty", which is not a column key or name of the table.',
    );
    expect(expectError(await post([['Ada', 'Oslo', 'extra']]), 400)).toBe(
      'Row 1 has 3 cells, but the table has 2 column(s).',
    );
    expect(await names(t, cookie)).toEqual([]);
    expect(await warehouseTables(t, cookie)).toEqual([]);
  });

  it('refuses them on data replace, leaving the old rows', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'T', columns, rows: [['Ada', 'Oslo']] });
    const res = await call(t.server, 'PUT', `/api/static-tables/${table.id}/data`, {
      cookie,
      body: { columns, rows: [{ name: 'Bob', City: 'Rome', zip: '00100' }] },
    });
    expect(expectError(res, 400)).toContain('"zip"');
    expect((await getTable(t, cookie, table.id)).rows).toEqual([{ _row_id: 1, name: 'Ada', city: 'Oslo' }]);
  });

  it('accepts keys, display names and the _row_id the API answers, so read rows can be written back', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'T', columns, rows: [{ name: 'Ada', City: 'Oslo' }] });
    const res = await call(t.server, 'PUT', `/api/static-tables/${table.id}/data`, {
      cookie,
      body: { columns, rows: [...table.rows, { _row_id: 7, name: 'Bob' }] },
    });
    ok(res);
    // Row ids are the table's own: rows are numbered afresh in the order given.
    expect((await getTable(t, cookie, table.id)).rows).toEqual([
      { _row_id: 1, name: 'Ada', city: 'Oslo' },
      { _row_id: 2, name: 'Bob', city: null },
    ]);
  });
});

describe('addColumn with a column key', () => {
  function addColumn(t: TestApp, cookie: string, id: string, column: Record<string, unknown>) {
    return call<{ columns: StaticTable['columns'] }>(t.server, 'POST', `/api/static-tables/${id}/changes`, {
      cookie,
      body: { changes: [{ kind: 'addColumn', column }] },
    });
  }

  it('keeps a valid, unused key and refuses a taken or invalid one with 400', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'T', columns, rows: [['Ada', 'Oslo']] });
    const added = ok(await addColumn(t, cookie, table.id, { displayName: 'Zip code', columnKey: 'zip_2' }));
    expect(added.columns.map((c) => c.columnKey)).toEqual(['name', 'city', 'zip_2']);
    expect(expectError(await addColumn(t, cookie, table.id, { displayName: 'Again', columnKey: 'city' }), 400)).toBe(
      'Column key "city" is already used in this table.',
    );
    for (const bad of ['Zip', '_row_id', '9lives', 'a b', '', 'x'.repeat(64)]) {
      const message = expectError(await addColumn(t, cookie, table.id, { displayName: 'Bad', columnKey: bad }), 400);
      expect(message).toContain('is not valid');
    }
    expect((await getTable(t, cookie, table.id)).columns.map((c) => c.columnKey)).toEqual(['name', 'city', 'zip_2']);
  });

  it('still makes up a key when none is given', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'T', columns });
    const added = ok(await addColumn(t, cookie, table.id, { displayName: 'New' }));
    expect(added.columns[2]?.columnKey).toMatch(/^[a-z]{4}$/);
  });
});

describe('GET /api/static-tables name filter and order', () => {
  it('matches names in any letter case, ASCII or not', async () => {
    const { t, cookie } = await owner();
    for (const name of ['Äpfel und Birnen', 'ÉTÉ 2024', 'Straße', 'ΣΟΦΙΑ', 'Costs']) {
      await createTable(t, cookie, { name });
    }
    expect(await names(t, cookie, 'äpfel')).toEqual(['Äpfel und Birnen']);
    expect(await names(t, cookie, 'APFEL')).toEqual([]);
    expect(await names(t, cookie, 'été')).toEqual(['ÉTÉ 2024']);
    expect(await names(t, cookie, 'STRASSE')).toEqual([]);
    expect(await names(t, cookie, 'STRAßE')).toEqual(['Straße']);
    expect(await names(t, cookie, 'σοφια')).toEqual(['ΣΟΦΙΑ']);
    expect(await names(t, cookie, '%')).toEqual([]);
  });

  it('sorts names ignoring case and accents, and pages through that order', async () => {
    const { t, cookie } = await owner();
    for (const name of ['banana', 'Cherry', 'Ärger', 'apple', 'Zebra', 'Éclair', 'date']) {
      await createTable(t, cookie, { name });
    }
    const sorted = ['apple', 'Ärger', 'banana', 'Cherry', 'date', 'Éclair', 'Zebra'];
    expect(await names(t, cookie)).toEqual(sorted);
    const second = ok(await call<StaticTableList>(t.server, 'GET', '/api/static-tables?page=2&pageSize=3', { cookie }));
    expect(second).toMatchObject({ page: 2, pageSize: 3, count: 7, totalPages: 3, hasMore: true });
    expect(second.data.map((d) => d.name)).toEqual(sorted.slice(3, 6));
  });
});
