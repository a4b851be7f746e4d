import { describe, expect, it } from 'vitest';
import { call, expectError, makeApp, signIn } from '../helpers';
import {
  byName,
  createTable,
  getTable,
  infiniteScroll,
  keyOf,
  ok,
  rowsByName,
  uploadCsv,
  warehouseTables,
  type StaticTableList,
  type TableSummary,
} from './helpers';

/** Strings that break naive SQL, LIKE patterns, CSV and identifiers. */
const NASTY = [
  "'; DROP TABLE static_tables; --",
  'Robert"); DROP TABLE "static"."t"; --',
  '" OR 1=1 --',
  "x' OR '1'='1",
  '100% _real_ \\ backslash',
  '/* comment */ SELECT 1;',
  'ünïcödé 🚀 \u202Eright-to-left',
  'line\nbreak,and "quotes"',
];

async function owner() {
  const t = await makeApp();
  return { t, cookie: await signIn(t, 'owner@example.com') };
}

describe('injection strings', () => {
  it('are stored literally as table names, and found literally by the name filter', async () => {
    const { t, cookie } = await owner();
    const plain = await createTable(t, cookie, { name: 'Plain' });
    for (const name of NASTY) await createTable(t, cookie, { name });
    for (const name of NASTY) {
      const url = `/api/static-tables?query=${encodeURIComponent(name)}`;
      const list = ok(await call<StaticTableList>(t.server, 'GET', url, { cookie }));
      expect(list.data.map((s) => s.name)).toEqual([name]);
    }
    const all = ok(await call<StaticTableList>(t.server, 'GET', '/api/static-tables', { cookie }));
    expect(all.count).toBe(NASTY.length + 1);
    const renamed = ok(
      await call(t.server, 'PUT', `/api/static-tables/${plain.id}`, { cookie, body: { name: NASTY[0] } }),
    );
    expect(renamed).toEqual({ id: plain.id, name: NASTY[0] });
    expect(ok(await call<TableSummary[]>(t.server, 'GET', '/api/tables', { cookie }))).toHaveLength(NASTY.length + 1);
    expect(await warehouseTables(t, cookie)).toHaveLength(NASTY.length + 1);
  });

  it('are stored literally as column names and cell values, through every write', async () => {
    const { t, cookie } = await owner();
    const columns = NASTY.slice(0, 3).map((displayName) => ({ displayName }));
    const table = await createTable(t, cookie, { name: 'Nasty', columns, rows: NASTY.map((v) => [v, v, v]) });
    expect(table.columns.map((c) => c.displayName)).toEqual(NASTY.slice(0, 3));
    expect(byName(table, table.rows).map((r) => r[NASTY[0] ?? ''])).toEqual(NASTY);

    const key = table.columns[1]?.columnKey ?? '';
    ok(
      await call(t.server, 'POST', `/api/static-tables/${table.id}/changes`, {
        cookie,
        body: {
          changes: [
            {
              kind: 'cells',
              edits: NASTY.map((value, i) => ({ rowId: i + 1, columnKey: key, value: value.toUpperCase() })),
            },
            { kind: 'addColumn', column: { displayName: NASTY[3] } },
            { kind: 'updateColumn', columnKey: key, displayName: NASTY[4], description: NASTY[5] },
          ],
        },
      }),
    );
    const after = await getTable(t, cookie, table.id);
    expect(after.columns.map((c) => c.displayName)).toEqual([NASTY[0], NASTY[4], NASTY[2], NASTY[3]]);
    expect(after.columns[1]?.description).toBe(NASTY[5]);
    expect(after.rows.map((r) => r[key])).toEqual(NASTY.map((v) => v.toUpperCase()));

    ok(
      await call(t.server, 'PUT', `/api/static-tables/${table.id}/data`, {
        cookie,
        body: { columns, rows: [NASTY.slice(0, 3)] },
      }),
    );
    expect(await rowsByName(t, cookie, table.id)).toEqual([
      { [NASTY[0] ?? '']: NASTY[0], [NASTY[1] ?? '']: NASTY[1], [NASTY[2] ?? '']: NASTY[2] },
    ]);
  });

  it('are matched literally as filter values', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, {
      name: 'Values',
      columns: [{ displayName: 'V', columnKey: 'v' }],
      rows: [...NASTY.map((v) => [v]), ['plain'], ['100 percent']],
    });
    for (const value of NASTY) {
      for (const operator of ['Equals', 'Contains'] as const) {
        const filterGroups = [{ filters: [{ columnKey: 'v', operator, value }] }];
        const res = ok(await infiniteScroll(t, cookie, table.id, { filterGroups }));
        expect(
          res.data.map((r) => r.v),
          `${operator} ${value}`,
        ).toEqual([value]);
      }
    }
    const percent = [{ filters: [{ columnKey: 'v', operator: 'Contains', value: '%' }] }];
    expect(ok(await infiniteScroll(t, cookie, table.id, { filterGroups: percent })).data.map((r) => r.v)).toEqual([
      NASTY[4],
    ]);
    expect(ok(await infiniteScroll(t, cookie, table.id, { withCount: true })).count).toBe(NASTY.length + 2);
  });

  it('are refused as column keys in filters, sorting and changes, and never kept as new keys', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, {
      name: 'Keys',
      columns: NASTY.map((columnKey, i) => ({ displayName: `C${i}`, columnKey })),
      rows: [NASTY.map((v) => v)],
    });
    for (const column of table.columns) expect(column.columnKey).toMatch(/^[a-z]{4}$/);

    for (const columnKey of NASTY) {
      const filterGroups = [{ filters: [{ columnKey, operator: 'Equals', value: 'x' }] }];
      expect(expectError(await infiniteScroll(t, cookie, table.id, { filterGroups }), 400)).toMatch(/^Unknown column/);
      expect(expectError(await infiniteScroll(t, cookie, table.id, { sorting: [{ columnKey }] }), 400)).toMatch(
        /^Unknown column/,
      );
      const count = await call(t.server, 'POST', `/api/tables/StaticTable/${table.id}/data/count`, {
        cookie,
        body: { filterGroups },
      });
      expectError(count, 400);
      for (const change of [
        { kind: 'cells', edits: [{ rowId: 1, columnKey, value: 'x' }] },
        { kind: 'deleteColumn', columnKey },
        { kind: 'updateColumn', columnKey, displayName: 'x' },
      ]) {
        const res = await call(t.server, 'POST', `/api/static-tables/${table.id}/changes`, {
          cookie,
          body: { changes: [change] },
        });
        expect(expectError(res, 400)).toBe(`Unknown column "${columnKey}".`);
      }
    }
    expect(await getTable(t, cookie, table.id)).toEqual(table);
    expect(await warehouseTables(t, cookie)).toHaveLength(1);
  });

  it('survive a CSV import as header names and values, and a download', async () => {
    const { t, cookie } = await owner();
    const table = await createTable(t, cookie, { name: 'Import' });
    const header = '"\'; DROP TABLE x; --","a"";b",plain';
    const csv = `${header}\n"Robert""); --","-- x",1\n`;
    ok(await uploadCsv(t, cookie, table.id, csv));
    const after = await getTable(t, cookie, table.id);
    expect(after.columns.map((c) => c.displayName)).toEqual(["'; DROP TABLE x; --", 'a";b', 'plain']);
    expect(byName(after, after.rows)).toEqual([{ "'; DROP TABLE x; --": 'Robert"); --', 'a";b': '-- x', plain: 1 }]);
    const sorted = ok(
      await infiniteScroll(t, cookie, table.id, {
        sorting: [{ columnKey: keyOf(after, 'a";b'), direction: 'Descending' }],
      }),
    );
    expect(sorted.data).toHaveLength(1);

    const csvOut = await call<string>(t.server, 'GET', `/api/tables/StaticTable/${table.id}/download`, { cookie });
    // Quoted only where CSV needs it.
    expect(csvOut.body).toBe(`'; DROP TABLE x; --,"a"";b",plain\n"Robert""); --",-- x,1\n`);
    const parquet = await call(t.server, 'GET', `/api/tables/StaticTable/${table.id}/download?format=parquet`, {
      cookie,
    });
    expect(parquet.status).toBe(200);
    expect(parquet.raw.rawPayload.subarray(0, 4).toString('latin1')).toBe('PAR1');
  });
});
