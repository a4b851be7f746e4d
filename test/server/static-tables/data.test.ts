import { describe, expect, it } from 'vitest';
import { call, expectError, makeApp, signIn } from '../helpers';
import {
  byName,
  createTable,
  failStatementsLike,
  getTable,
  ok,
  rowsByName,
  warehouseTables,
  type StaticTable,
} from './helpers';

async function tableWithRows() {
  const t = await makeApp();
  const cookie = await signIn(t, 'owner@example.com');
  const table = await createTable(t, cookie, {
    name: 'Data',
    columns: [{ displayName: 'Name', columnKey: 'name' }, { displayName: 'City' }],
    rows: [
      ['Ada', 'London'],
      ['Bob', 'Paris'],
    ],
  });
  const put = (body: unknown) =>
    call<StaticTable>(t.server, 'PUT', `/api/static-tables/${table.id}/data`, { cookie, body });
  return { t, cookie, table, put };
}

describe('PUT /api/static-tables/{id}/data', () => {
  it('replaces columns and rows, keeping the column keys it is given', async () => {
    const { t, cookie, table, put } = await tableWithRows();
    t.clock.advance(1_000);
    const res = ok(
      await put({
        columns: [
          { displayName: 'Name', columnKey: 'name' },
          { displayName: 'Score', description: 'Points' },
        ],
        rows: [{ name: 'Cy', Score: 7 }, ['Di', '9.5'], { Name: 'Ed' }],
      }),
    );
    expect(res).toMatchObject({ id: table.id, name: 'Data', rowCount: 3 });
    expect(res.modifiedAt).not.toBe(table.modifiedAt);
    expect(res.columns).toEqual([
      { columnKey: 'name', displayName: 'Name', description: null, order: 0, type: 'Text' },
      {
        columnKey: expect.stringMatching(/^[a-z]{4}$/),
        displayName: 'Score',
        description: 'Points',
        order: 1,
        type: 'Text',
      },
    ]);

    const after = await getTable(t, cookie, table.id);
    expect(after.rows.map((r) => r._row_id)).toEqual([1, 2, 3]);
    expect(byName(after, after.rows)).toEqual([
      { Name: 'Cy', Score: '7' },
      { Name: 'Di', Score: '9.5' },
      { Name: 'Ed', Score: null },
    ]);
    expect(await warehouseTables(t, cookie)).toHaveLength(1);
  });

  it('gives a column sent without a key the key of the earlier column of that name, and new columns new keys', async () => {
    const { table, put } = await tableWithRows();
    const city = table.columns.find((c) => c.displayName === 'City')?.columnKey;
    const res = ok(
      await put({
        columns: [{ displayName: 'name' }, { displayName: ' City ' }, { displayName: 'Country' }],
        rows: [['Cy', 'Oslo', 'Norway']],
      }),
    );
    expect(res.columns.map((c) => [c.displayName, c.columnKey])).toEqual([
      ['name', 'name'],
      ['City', city],
      ['Country', expect.stringMatching(/^[a-z]{4}$/)],
    ]);
    // A column that is gone keeps its key to itself: a later new column never takes it.
    const again = ok(await put({ columns: [{ displayName: 'Other' }], rows: [] }));
    expect([table.columns.map((c) => c.columnKey), res.columns.map((c) => c.columnKey)].flat()).not.toContain(
      again.columns[0]?.columnKey,
    );
  });

  it('empties a table when given no rows', async () => {
    const { t, cookie, table, put } = await tableWithRows();
    expect(ok(await put({ columns: [{ displayName: 'Only' }], rows: [] })).rowCount).toBe(0);
    const after = await getTable(t, cookie, table.id);
    expect(after.columns.map((c) => c.displayName)).toEqual(['Only']);
    expect(after.rows).toEqual([]);
  });

  it('writes many rows (several insert batches) in order', async () => {
    const { t, cookie, table, put } = await tableWithRows();
    const rows = Array.from({ length: 1_234 }, (_, i) => [`r${i + 1}`]);
    expect(ok(await put({ columns: [{ displayName: 'N' }], rows })).rowCount).toBe(1_234);
    const after = await getTable(t, cookie, table.id);
    expect(after.rows).toHaveLength(1_234);
    expect(after.rows.at(-1)).toEqual({ _row_id: 1_234, [after.columns[0]?.columnKey ?? '']: 'r1234' });
  });

  it.each([
    ['no columns', { columns: [], rows: [] }, /^columns: /],
    ['a column without a name', { columns: [{ displayName: '' }], rows: [] }, /^columns\.0\.displayName: /],
    ['a cell holding an object', { columns: [{ displayName: 'A' }], rows: [['ok'], [{ nested: true }]] }, /^rows\.1/],
    [
      'a cell over 100,000 characters',
      { columns: [{ displayName: 'A' }], rows: [['ok'], ['x'.repeat(100_001)]] },
      /^rows\.1/,
    ],
    ['rows that are not a list', { columns: [{ displayName: 'A' }], rows: 'a,b' }, /^rows: /],
  ])('refuses %s with 400 and keeps the old table', async (_, body, message) => {
    const { t, cookie, table, put } = await tableWithRows();
    expect(expectError(await put(body), 400)).toMatch(message);
    expect(await getTable(t, cookie, table.id)).toEqual(table);
  });

  it('keeps the old columns and rows when the write fails after some rows were stored', async () => {
    const { t, cookie, table, put } = await tableWithRows();
    // The new rows are all written (three batches) before the old table is dropped; that drop fails.
    const restore = failStatementsLike(t, /^DROP TABLE (IF EXISTS )?"static"\."t_[0-9a-f]+"$/);
    const rows = Array.from({ length: 1_200 }, (_, i) => [`new ${i}`]);
    expectError(await put({ columns: [{ displayName: 'New' }], rows }), 500);

    expect(await getTable(t, cookie, table.id)).toEqual(table);
    expect(await warehouseTables(t, cookie)).toHaveLength(1);
    restore();
    // Nothing left behind blocks the next write.
    expect(ok(await put({ columns: [{ displayName: 'New' }], rows: [['fine']] })).rowCount).toBe(1);
  });

  it('answers 404 for a table that does not exist', async () => {
    const { t, cookie, table } = await tableWithRows();
    const res = await call(t.server, 'PUT', '/api/static-tables/no-such-table/data', {
      cookie,
      body: { columns: [{ displayName: 'A' }], rows: [] },
    });
    expect(expectError(res, 404)).toBe('Table not found.');
    expect(await rowsByName(t, cookie, table.id)).toEqual([
      { Name: 'Ada', City: 'London' },
      { Name: 'Bob', City: 'Paris' },
    ]);
  });
});
