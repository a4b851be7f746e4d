import { describe, expect, it } from 'vitest';
import { NEW_TABLE } from '../../../src/shared/static-tables';
import { makeApp, signIn, type TestApp, type TrpcError } from '../helpers';
import {
  byName,
  createTable,
  getTable,
  mutation,
  query,
  trpcOk,
  warehouseTables,
  type StaticTable,
  type StaticTableList,
} from './helpers';

type Summary = Omit<StaticTable, 'rows'>;

async function owner() {
  const t = await makeApp();
  return { t, cookie: await signIn(t, 'owner@example.com') };
}

function list(t: TestApp, cookie: string, input: { query?: string; page?: number; pageSize?: number }) {
  return query<StaticTableList>(t, 'staticTables.list', input, cookie).then(trpcOk);
}

describe('staticTables.createBlank and get', () => {
  it("makes 'New table' with columns A and B and 10 blank rows", async () => {
    const { t, cookie } = await owner();
    const { id } = trpcOk(await mutation<{ id: string }>(t, 'staticTables.createBlank', undefined, cookie));
    const got = trpcOk(await query<Summary>(t, 'staticTables.get', { id }, cookie));
    expect(got).toMatchObject({ id, name: NEW_TABLE.name, rowCount: 10 });
    expect(got).not.toHaveProperty('rows');
    expect(got.columns.map((c) => [c.displayName, c.order, c.type])).toEqual([
      ['A', 0, 'Text'],
      ['B', 1, 'Text'],
    ]);
    const rows = (await getTable(t, cookie, id)).rows;
    expect(byName(got, rows)).toEqual(Array.from({ length: 10 }, () => ({ A: null, B: null })));
    expect(rows.map((r) => r._row_id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    // Each call makes a table of its own.
    trpcOk(await mutation<{ id: string }>(t, 'staticTables.createBlank', undefined, cookie));
    expect((await list(t, cookie, {})).data.map((s) => [s.name, s.rowCount, s.columnCount])).toEqual([
      ['New table', 10, 2],
      ['New table', 10, 2],
    ]);
  });

  it('answers NOT_FOUND for an id that does not exist', async () => {
    const { t, cookie } = await owner();
    const res = await query<never>(t, 'staticTables.get', { id: 'missing' }, cookie);
    expect(res.status).toBe(404);
    expect((res.body as unknown as TrpcError).error.message).toBe('Table not found.');
  });
});

describe('staticTables.list', () => {
  it('filters by name case-insensitively and sorts by name', async () => {
    const { t, cookie } = await owner();
    for (const name of ['zeta report', 'Alpha', 'REPORT 2', 'beta', 'Report 1']) await createTable(t, cookie, { name });
    expect((await list(t, cookie, {})).data.map((s) => s.name)).toEqual([
      'Alpha',
      'beta',
      'Report 1',
      'REPORT 2',
      'zeta report',
    ]);
    const found = await list(t, cookie, { query: 'rEpOrT' });
    expect(found.data.map((s) => s.name)).toEqual(['Report 1', 'REPORT 2', 'zeta report']);
    expect(found).toMatchObject({ count: 3, totalPages: 1, hasMore: false });
    expect((await list(t, cookie, { query: 'no match' })).data).toEqual([]);
  });

  it('pages by 50, 100 and 200 with count, totalPages and hasMore', async () => {
    const { t, cookie } = await owner();
    const names = Array.from({ length: 205 }, (_, i) => `Table ${String(i + 1).padStart(3, '0')}`);
    for (const name of [...names].reverse()) await createTable(t, cookie, { name });

    for (const pageSize of [50, 100, 200]) {
      const pages = Math.ceil(205 / pageSize);
      const seen: string[] = [];
      for (let page = 1; page <= pages; page += 1) {
        const res = await list(t, cookie, { page, pageSize });
        expect(res).toMatchObject({ page, pageSize, count: 205, totalPages: pages, hasMore: page < pages });
        seen.push(...res.data.map((s) => s.name));
      }
      expect(seen).toEqual(names);
    }
    expect((await list(t, cookie, {})).pageSize).toBe(50);
    const beyond = await list(t, cookie, { page: 9, pageSize: 50 });
    expect(beyond).toMatchObject({ data: [], hasMore: false, totalPages: 5 });
    expect((await list(t, cookie, { query: 'table 00' })).count).toBe(9);
  });

  it('refuses a page size over 200 and a page under 1', async () => {
    const { t, cookie } = await owner();
    expect((await query(t, 'staticTables.list', { pageSize: 201 }, cookie)).status).toBe(400);
    expect((await query(t, 'staticTables.list', { page: 0 }, cookie)).status).toBe(400);
  });
});

describe('staticTables.rename, delete and change', () => {
  it('renames, refusing an empty name', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'Before' });
    expect(trpcOk(await mutation(t, 'staticTables.rename', { id: table.id, name: ' After ' }, cookie))).toEqual({
      id: table.id,
      name: 'After',
    });
    for (const name of ['', '   ']) {
      const res = await mutation<never>(t, 'staticTables.rename', { id: table.id, name }, cookie);
      expect(res.status).toBe(400);
      expect((res.body as unknown as TrpcError).error.message).toBe('name: Name cannot be empty.');
    }
    expect((await getTable(t, cookie, table.id)).name).toBe('After');
  });

  it('deletes a table and its rows', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'Doomed', columns: [{ displayName: 'A' }], rows: [['x']] });
    expect((await mutation(t, 'staticTables.delete', { id: table.id }, cookie)).status).toBe(200);
    expect((await query(t, 'staticTables.get', { id: table.id }, cookie)).status).toBe(404);
    expect((await mutation(t, 'staticTables.delete', { id: table.id }, cookie)).status).toBe(404);
    expect(await warehouseTables(t, cookie)).toEqual([]);
  });

  it('applies changes and answers the columns and row count', async () => {
    const { t, cookie } = await owner();
    const { id } = trpcOk(await mutation<{ id: string }>(t, 'staticTables.createBlank', undefined, cookie));
    const table = await getTable(t, cookie, id);
    const a = table.columns[0]?.columnKey ?? '';
    const res = trpcOk(
      await mutation<{ rowCount: number; columns: StaticTable['columns'] }>(
        t,
        'staticTables.change',
        {
          id,
          changes: [
            { kind: 'cells', edits: [{ rowId: 1, columnKey: a, value: 'typed' }] },
            { kind: 'deleteRows', rowIds: [10] },
            { kind: 'addColumn', column: { displayName: 'C' } },
          ],
        },
        cookie,
      ),
    );
    expect(res.rowCount).toBe(9);
    expect(res.columns.map((c) => c.displayName)).toEqual(['A', 'B', 'C']);
    expect(byName(res, (await getTable(t, cookie, id)).rows)[0]).toEqual({ A: 'typed', B: null, C: null });

    const bad = await mutation<never>(t, 'staticTables.change', { id, changes: [{ kind: 'nope' }] }, cookie);
    expect(bad.status).toBe(400);
    const empty = await mutation<never>(t, 'staticTables.change', { id, changes: [] }, cookie);
    expect(empty.status).toBe(400);
  });
});
