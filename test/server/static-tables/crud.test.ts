import { describe, expect, it } from 'vitest';
import { call, expectError, makeApp, signIn } from '../helpers';
import {
  byName,
  createTable,
  getTable,
  ok,
  rowsByName,
  warehouseTables,
  type StaticTable,
  type StaticTableList,
} from './helpers';

async function owner() {
  const t = await makeApp();
  return { t, cookie: await signIn(t, 'owner@example.com') };
}

describe('POST /api/static-tables', () => {
  it('creates a table from rows keyed by column key, by display name, or given as arrays', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, {
      name: '  People  ',
      columns: [
        { displayName: 'Name', columnKey: 'name' },
        { displayName: 'Age', description: 'In years' },
      ],
      rows: [{ name: 'Ada', Age: 36 }, ['Bob', 41], { Name: 'Cy' }, [null, true]],
    });

    expect(table.name).toBe('People');
    expect(table.rowCount).toBe(4);
    expect(table.columns).toEqual([
      { columnKey: 'name', displayName: 'Name', description: null, order: 0, type: 'Text' },
      {
        columnKey: expect.stringMatching(/^[a-z]{4}$/),
        displayName: 'Age',
        description: 'In years',
        order: 1,
        type: 'Text',
      },
    ]);
    // Columns made here are text: numbers and booleans are kept as their text.
    expect(byName(table, table.rows)).toEqual([
      { Name: 'Ada', Age: '36' },
      { Name: 'Bob', Age: '41' },
      { Name: 'Cy', Age: null },
      { Name: null, Age: 'true' },
    ]);
    expect(table.rows.map((r) => r._row_id)).toEqual([1, 2, 3, 4]);
    expect(await getTable(t, cookie, table.id)).toEqual(table);
    expect(await warehouseTables(t, cookie)).toHaveLength(1);
  });

  it('creates an empty table from a name alone', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'Empty' });
    expect(table).toMatchObject({ name: 'Empty', rowCount: 0, columns: [], rows: [] });
  });

  it('replaces column keys that are invalid, repeated or reserved with generated ones', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, {
      name: 'Keys',
      columns: [
        { displayName: 'A', columnKey: 'Bad Key' },
        { displayName: 'B', columnKey: 'dup' },
        { displayName: 'C', columnKey: 'dup' },
        { displayName: 'D', columnKey: '_row_id' },
      ],
      rows: [['a', 'b', 'c', 'd']],
    });
    const keys = table.columns.map((c) => c.columnKey);
    expect(keys[1]).toBe('dup');
    expect(new Set(keys).size).toBe(4);
    for (const key of [keys[0], keys[2], keys[3]]) expect(key).toMatch(/^[a-z]{4}$/);
    expect(byName(table, table.rows)).toEqual([{ A: 'a', B: 'b', C: 'c', D: 'd' }]);
  });

  it('reads a blank cell for a column named like an Object member', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, {
      name: 'Members',
      columns: [
        { displayName: 'constructor' },
        { displayName: 'B', columnKey: 'tostring' },
        { displayName: 'toString' },
      ],
      rows: [{ B: 'x' }, { constructor: 'c', toString: 't' }],
    });
    expect(byName(table, table.rows)).toEqual([
      { constructor: null, B: 'x', toString: null },
      { constructor: 'c', B: null, toString: 't' },
    ]);
  });

  it('refuses an empty name, a column without a name and a cell that is not a value', async () => {
    const { t, cookie } = await owner();
    const post = (body: unknown) => call(t.server, 'POST', '/api/static-tables', { cookie, body });
    expect(expectError(await post({ name: '   ' }), 400)).toBe('name: Name cannot be empty.');
    expect(expectError(await post({}), 400)).toMatch(/^name: /);
    expect(expectError(await post({ name: 'T', columns: [{ displayName: ' ' }] }), 400)).toBe(
      'columns.0.displayName: Column name cannot be empty.',
    );
    expect(expectError(await post({ name: 'T', columns: [{ displayName: 'A' }], rows: [[{ a: 1 }]] }), 400)).toMatch(
      /^rows\.0/,
    );
    expect(expectError(await post({ name: 'x'.repeat(101) }), 400)).toMatch(/^name: /);
    expect(ok(await call<StaticTableList>(t.server, 'GET', '/api/static-tables', { cookie })).count).toBe(0);
    expect(await warehouseTables(t, cookie)).toEqual([]);
  });
});

describe('GET, PUT and DELETE /api/static-tables/{id}', () => {
  it('renames a table with {id, name}, trimmed, and refuses an empty name', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'Old', columns: [{ displayName: 'A' }], rows: [['x']] });
    t.clock.advance(60_000);
    const renamed = await call(t.server, 'PUT', `/api/static-tables/${table.id}`, {
      cookie,
      body: { id: table.id, name: '  New name ' },
    });
    expect(ok(renamed)).toEqual({ id: table.id, name: 'New name' });
    const after = await getTable(t, cookie, table.id);
    expect(after.name).toBe('New name');
    expect(after.modifiedAt).toBe(new Date(Date.parse(table.modifiedAt) + 60_000).toISOString());
    expect(after.rows).toEqual(table.rows);

    const empty = await call(t.server, 'PUT', `/api/static-tables/${table.id}`, {
      cookie,
      body: { id: table.id, name: '' },
    });
    expect(expectError(empty, 400)).toBe('name: Name cannot be empty.');
    expect((await getTable(t, cookie, table.id)).name).toBe('New name');
  });

  it('deletes a table with its rows; afterwards every call about it answers 404', async () => {
    const { t, cookie } = await owner();
    const keep = await createTable(t, cookie, { name: 'Keep', columns: [{ displayName: 'A' }], rows: [['k']] });
    const table = await createTable(t, cookie, { name: 'Gone', columns: [{ displayName: 'A' }], rows: [['x']] });
    expect(await warehouseTables(t, cookie)).toHaveLength(2);

    const removed = await call(t.server, 'DELETE', `/api/static-tables/${table.id}`, { cookie });
    expect(removed.status).toBe(204);
    expect(await warehouseTables(t, cookie)).toHaveLength(1);
    for (const res of [
      await call(t.server, 'GET', `/api/static-tables/${table.id}`, { cookie }),
      await call(t.server, 'DELETE', `/api/static-tables/${table.id}`, { cookie }),
      await call(t.server, 'PUT', `/api/static-tables/${table.id}`, { cookie, body: { name: 'Back' } }),
      await call(t.server, 'GET', `/api/tables/StaticTable/${table.id}`, { cookie }),
    ]) {
      expect(expectError(res, 404)).toBe('Table not found.');
    }
    const list = ok(await call<StaticTableList>(t.server, 'GET', '/api/static-tables', { cookie }));
    expect(list.data.map((s) => s.name)).toEqual(['Keep']);
    expect(await rowsByName(t, cookie, keep.id)).toEqual([{ A: 'k' }]);
  });

  it('answers 404 for an id that does not exist', async () => {
    const { t, cookie } = await owner();
    const res = await call(t.server, 'GET', '/api/static-tables/00000000-0000-0000-0000-000000000000', { cookie });
    expect(expectError(res, 404)).toBe('Table not found.');
  });

  it('answers 401 to a caller who is not signed in', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'T' });
    expectError(await call(t.server, 'GET', '/api/static-tables'), 401);
    expectError(await call(t.server, 'GET', `/api/static-tables/${table.id}`), 401);
    expectError(await call(t.server, 'POST', '/api/static-tables', { body: { name: 'X' } }), 401);
  });
});

describe('GET /api/static-tables', () => {
  async function names(t: Awaited<ReturnType<typeof owner>>['t'], cookie: string, query = '') {
    const res = await call<StaticTableList>(t.server, 'GET', `/api/static-tables?query=${encodeURIComponent(query)}`, {
      cookie,
    });
    return ok(res).data.map((s) => s.name);
  }

  it('lists tables sorted by name regardless of case, with row and column counts', async () => {
    const { t, cookie } = await owner();
    await createTable(t, cookie, {
      name: 'beta',
      columns: [{ displayName: 'A' }, { displayName: 'B' }],
      rows: [[], []],
    });
    await createTable(t, cookie, { name: 'Gamma' });
    const alpha: StaticTable = await createTable(t, cookie, { name: 'Alpha', columns: [{ displayName: 'A' }] });
    const list = ok(await call<StaticTableList>(t.server, 'GET', '/api/static-tables', { cookie }));
    expect(list).toMatchObject({ page: 1, pageSize: 50, count: 3, totalPages: 1, hasMore: false });
    expect(list.data).toEqual([
      { id: alpha.id, name: 'Alpha', modifiedAt: alpha.modifiedAt, rowCount: 0, columnCount: 1 },
      expect.objectContaining({ name: 'beta', rowCount: 2, columnCount: 2 }),
      expect.objectContaining({ name: 'Gamma', rowCount: 0, columnCount: 0 }),
    ]);
  });

  it('filters by name, case-insensitive, taking % and _ literally', async () => {
    const { t, cookie } = await owner();
    for (const name of ['Sales 2024', 'sales_archive', 'Costs', '50% off', '500 off', 'Äpfel']) {
      await createTable(t, cookie, { name });
    }
    expect(await names(t, cookie, 'SALES')).toEqual(['Sales 2024', 'sales_archive']);
    expect(await names(t, cookie, 's_a')).toEqual(['sales_archive']);
    expect(await names(t, cookie, '50%')).toEqual(['50% off']);
    expect(await names(t, cookie, 'Äpfel')).toEqual(['Äpfel']);
    expect(await names(t, cookie, 'nothing like it')).toEqual([]);
    expect(await names(t, cookie, '  costs ')).toEqual(['Costs']);
  });
});
