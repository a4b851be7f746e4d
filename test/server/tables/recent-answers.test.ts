import { describe, expect, it } from 'vitest';
import { compileTableQuery, staticRelation, type TableRequest } from '../../../src/server/modules/tables/relations';
import { call, makeApp, me, signIn, type TestApp } from '../helpers';
import {
  getTable,
  infiniteScroll,
  keyOf,
  ok,
  tableFromCsv,
  uploadCsv,
  type Row,
  type StaticTable,
} from '../static-tables/helpers';

/**
 * Recent answers behind the tables API: the same page or count again costs no DuckDB work, and
 * every kind of write shows on the very next call. Each answer is checked against the plain SQL.
 */

interface Setup {
  t: TestApp;
  cookie: string;
  table: StaticTable;
  accountId: string;
}

const csv = (n: number, offset = 0) =>
  `name,amount\n${Array.from({ length: n }, (_, i) => `N${i + offset},${(i + offset) * 3}`).join('\n')}\n`;

async function setup(): Promise<Setup> {
  const t = await makeApp({ SIGNUP: 'open' });
  const cookie = await signIn(t, 'owner@example.com');
  const table = await tableFromCsv(t, cookie, csv(30));
  const accountId = (await me(t, cookie)).currentAccountId;
  if (!accountId) throw new Error('No account');
  return { t, cookie, table, accountId };
}

const answers = (s: Setup) => ({ ...s.t.deps.warehouse.forAccount(s.accountId).recentAnswers.stats });

async function plainPage(s: Setup, body: Partial<TableRequest>): Promise<Row[]> {
  const { columns } = await getTable(s.t, s.cookie, s.table.id);
  const request = { page: 1, pageSize: 100, filterGroups: [], sorting: [], ...body };
  return s.t.deps.warehouse
    .forAccount(s.accountId)
    .all(compileTableQuery(staticRelation(s.table.id, columns), request).page);
}

/** The API's page, which must equal the plain SQL's, and whether it was a kept answer. */
async function page(s: Setup, body: Partial<TableRequest>): Promise<{ rows: Row[]; kept: boolean }> {
  const before = answers(s);
  const rows = ok(await infiniteScroll(s.t, s.cookie, s.table.id, { pageSize: 100, ...body })).data;
  const kept = answers(s).hits > before.hits;
  expect(rows).toEqual(await plainPage(s, body));
  return { rows, kept };
}

/** The count with a filter that every row passes (an unfiltered count is the table's recorded row count). */
async function count(s: Setup): Promise<number> {
  const amount = keyOf(s.table, 'amount');
  const res = await call<{ totalCount: number }>(
    s.t.server,
    'POST',
    `/api/tables/StaticTable/${s.table.id}/data/count`,
    {
      cookie: s.cookie,
      body: {
        filterGroups: [
          {
            filters: [
              { columnKey: amount, operator: 'GreaterThanOrEquals', value: 0 },
              { columnKey: amount, operator: 'Empty', conditionOperator: 'Or' },
            ],
          },
        ],
      },
    },
  );
  return ok(res).totalCount;
}

async function change(s: Setup, changes: unknown[]) {
  ok(
    await call(s.t.server, 'POST', `/api/static-tables/${s.table.id}/changes`, { cookie: s.cookie, body: { changes } }),
  );
}

describe('recent answers behind the tables API', () => {
  it('answers the same page and count again without DuckDB, and shows every kind of write on the next call', async () => {
    const s = await setup();
    const amount = keyOf(s.table, 'amount');
    const sorted = { sorting: [{ columnKey: amount, direction: 'Descending' as const }] };
    const again = async () => {
      await page(s, sorted);
      const second = await page(s, sorted);
      expect(second.kept).toBe(true);
      return second.rows;
    };

    expect((await page(s, sorted)).kept).toBe(false);
    let rows = await again();
    expect(rows).toHaveLength(30);

    const top = Number(rows[0]?._row_id);
    await change(s, [{ kind: 'cells', edits: [{ rowId: top, columnKey: amount, value: -5 }] }]);
    let next = await page(s, sorted);
    expect(next.kept).toBe(false);
    expect(next.rows.at(-1)).toMatchObject({ _row_id: top, [amount]: -5 });

    rows = await again();
    await change(s, [{ kind: 'addRows', count: 2 }]);
    expect((await page(s, sorted)).rows).toHaveLength(32);

    await again();
    await change(s, [{ kind: 'deleteRows', rowIds: [top] }]);
    expect((await page(s, sorted)).rows.map((r) => r._row_id)).not.toContain(top);

    await again();
    await change(s, [{ kind: 'moveRow', rowId: 2, toRowId: 5 }]);
    next = await page(s, {});
    expect(next.kept).toBe(false);

    await again();
    await change(s, [{ kind: 'addColumn', column: { displayName: 'Extra', columnKey: 'extra' } }]);
    expect((await page(s, sorted)).rows[0]).toHaveProperty('extra', null);

    await again();
    ok(
      await call(s.t.server, 'PUT', `/api/static-tables/${s.table.id}/data`, {
        cookie: s.cookie,
        body: { columns: [{ displayName: 'amount', columnKey: amount }], rows: [{ [amount]: 1 }, { [amount]: 2 }] },
      }),
    );
    expect((await page(s, sorted)).rows.map((r) => r[amount])).toEqual(['2', '1']);

    await again();
    ok(await uploadCsv(s.t, s.cookie, s.table.id, csv(5, 100)));
    s.table = await getTable(s.t, s.cookie, s.table.id);
    expect((await page(s, {})).rows).toHaveLength(5);
  });

  it('counts again from the kept answer until rows are added or removed', async () => {
    const s = await setup();
    expect(await count(s)).toBe(30);
    const before = answers(s);
    expect(await count(s)).toBe(30);
    expect(answers(s).hits).toBe(before.hits + 1);
    await change(s, [{ kind: 'addRows', count: 3 }]);
    expect(await count(s)).toBe(33);
    await change(s, [{ kind: 'deleteRows', rowIds: [1, 2] }]);
    expect(await count(s)).toBe(31);
  });
});
