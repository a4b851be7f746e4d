import { describe, expect, it, vi } from 'vitest';
import { compileTableQuery, staticRelation, type TableRequest } from '../../../src/server/modules/tables/relations';
import type { WarehouseExecutor, WarehouseSession } from '../../../src/server/warehouse/types';
import type { FilterGroup } from '../../../src/shared/tables';
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
 * Ordered copies through the tables API, with the size threshold lowered so a few hundred rows
 * qualify. Every page is checked against the plain SQL of the same request, run on the warehouse.
 */

const ROWS = 400;

/** `n` rows with ties and empty cells in every column: name, amount (decimal), qty (integer), day (date). */
function csvOf(n: number, offset = 0): string {
  const lines = ['name,amount,qty,day'];
  for (let i = 1; i <= n; i += 1) {
    const k = i + offset;
    const name = k % 11 === 0 ? '' : `N${k % 17}${k % 5 === 0 ? ' lisbon' : ''}`;
    const amount = k % 13 === 0 ? '' : ((k * 37) % 101).toFixed(1);
    const day = `2024-0${(k % 9) + 1}-1${k % 10}`;
    lines.push(`${name},${amount},${(k * 7) % 23},${day}`);
  }
  return `${lines.join('\n')}\n`;
}

interface Setup {
  t: TestApp;
  cookie: string;
  table: StaticTable;
  accountId: string;
  executor: () => WarehouseExecutor;
}

async function setup(env: Record<string, string> = {}, email = 'owner@example.com'): Promise<Setup> {
  // Recent answers off: these tests watch where the ordered copies' answers come from.
  const t = await makeApp({ ORDERED_COPY_MIN_ROWS: '100', RECENT_ANSWERS_MAX: '0', SIGNUP: 'open', ...env });
  return onApp(t, email);
}

async function onApp(t: TestApp, email: string): Promise<Setup> {
  const cookie = await signIn(t, email);
  const table = await tableFromCsv(t, cookie, csvOf(ROWS));
  const accountId = (await me(t, cookie)).currentAccountId;
  if (!accountId) throw new Error('No account');
  return { t, cookie, table, accountId, executor: () => t.deps.warehouse.forAccount(accountId) };
}

type Body = Partial<TableRequest> & { withCount?: boolean };

/** The page the plain SQL gives for the table as it is now (columns read afresh). */
async function plainPage(s: Setup, body: Body): Promise<Row[]> {
  const { columns } = await getTable(s.t, s.cookie, s.table.id);
  const request = { page: 1, pageSize: 50, filterGroups: [], sorting: [], ...body };
  return s.executor().all(compileTableQuery(staticRelation(s.table.id, columns), request).page);
}

async function plainCount(s: Setup, filterGroups: FilterGroup[]): Promise<number> {
  const { columns } = await getTable(s.t, s.cookie, s.table.id);
  const request = { page: 1, pageSize: 1, filterGroups, sorting: [] };
  const [row] = await s.executor().all(compileTableQuery(staticRelation(s.table.id, columns), request).count);
  return Number(row?.count);
}

/** A page as the grid asks for it: without a count, so only the page's own path is seen. */
async function apiPage(s: Setup, body: Body) {
  return ok(await infiniteScroll(s.t, s.cookie, s.table.id, { withCount: false, ...body }));
}

const stats = (s: Setup) => ({ ...s.executor().orderedCopies.stats });
const settle = (s: Setup) => s.executor().orderedCopies.idle();

/** A page through the API: equal to the plain SQL's, and `expected` the way it was answered. */
async function expectPage(s: Setup, body: Body, expected: 'hit' | 'miss' | 'plain'): Promise<Row[]> {
  const before = stats(s);
  const res = await apiPage(s, body);
  const after = stats(s);
  expect(res.data, JSON.stringify(body)).toEqual(await plainPage(s, body));
  const how = after.hits > before.hits ? 'hit' : after.misses > before.misses ? 'miss' : 'plain';
  expect(how, JSON.stringify(body)).toBe(expected);
  return res.data;
}

async function change(s: Setup, changes: unknown[]) {
  return ok(
    await call(s.t.server, 'POST', `/api/static-tables/${s.table.id}/changes`, { cookie: s.cookie, body: { changes } }),
  );
}

async function copyTables(s: Setup): Promise<string[]> {
  const rows = await s.executor().all({
    sql: "SELECT table_name FROM duckdb_tables() WHERE database_name = 'ordered_copies' ORDER BY table_name",
    parameters: [],
  });
  return rows.map((r) => String(r.table_name));
}

describe('ordered copies behind the tables API', () => {
  it('serves filtered and sorted pages at every depth, and counts, exactly like the plain SQL', async () => {
    const s = await setup();
    const [name, amount, qty, day] = ['name', 'amount', 'qty', 'day'].map((c) => keyOf(s.table, c)) as [
      string,
      string,
      string,
      string,
    ];
    const filter: FilterGroup[] = [
      {
        filters: [
          { columnKey: name, operator: 'Contains', value: 'LISBON', conditionOperator: 'Or' },
          { columnKey: amount, operator: 'Between', value: 10, value2: 60, conditionOperator: 'Or' },
          { columnKey: qty, operator: 'Empty', conditionOperator: 'And' },
        ],
      },
    ];
    const cases: Body[] = [
      { sorting: [{ columnKey: amount, direction: 'Ascending' }] },
      {
        sorting: [
          { columnKey: name, direction: 'Descending' },
          { columnKey: day, direction: 'Ascending' },
        ],
      },
      { filterGroups: filter },
      { filterGroups: filter, sorting: [{ columnKey: qty, direction: 'Descending' }] },
    ];
    for (const body of cases) {
      await expectPage(s, { ...body, page: 2, pageSize: 30 }, 'miss');
      await settle(s);
      for (const [page, pageSize] of [
        [1, 30],
        [2, 30],
        [5, 30],
        [14, 30],
        [1, 1000],
        [3, 7],
        [40, 10],
        [400, 1],
        [401, 1],
      ] as const) {
        await expectPage(s, { ...body, page, pageSize }, 'hit');
      }
      const withCount = await apiPage(s, { ...body, withCount: true, pageSize: 30 });
      const count = await plainCount(s, body.filterGroups ?? []);
      expect(withCount).toMatchObject({ count, totalPages: Math.max(1, Math.ceil(count / 30)) });
    }
    // The filtered count alone, from the copies of `filter`.
    const before = stats(s);
    const counted = ok(
      await call<{ totalCount: number }>(s.t.server, 'POST', `/api/tables/StaticTable/${s.table.id}/data/count`, {
        cookie: s.cookie,
        body: { filterGroups: filter },
      }),
    );
    expect(counted.totalCount).toBe(await plainCount(s, filter));
    expect(counted.totalCount).toBeGreaterThan(0);
    expect(stats(s).hits).toBe(before.hits + 1);
    // ORDERED_COPY_MAX defaults to 4: all four copies are kept.
    expect(s.executor().orderedCopies.list()).toHaveLength(4);
    expect(await copyTables(s)).toHaveLength(4);
  });

  it('a filtered count with no copy asks for one, and answers from it afterwards', async () => {
    const s = await setup();
    const filter = [{ filters: [{ columnKey: keyOf(s.table, 'qty'), operator: 'GreaterThan', value: 10 }] }];
    const count = async () =>
      ok(
        await call<{ totalCount: number }>(s.t.server, 'POST', `/api/tables/StaticTable/${s.table.id}/data/count`, {
          cookie: s.cookie,
          body: { filterGroups: filter },
        }),
      ).totalCount;
    const expected = await plainCount(s, filter as FilterGroup[]);
    expect(await count()).toBe(expected);
    expect(stats(s)).toMatchObject({ misses: 1, hits: 0 });
    await settle(s);
    expect(await count()).toBe(expected);
    expect(stats(s)).toMatchObject({ misses: 1, hits: 1, builds: 1 });
    // The copy is in the default order, so the filtered first page comes from it too.
    await expectPage(s, { filterGroups: filter as FilterGroup[] }, 'hit');
  });

  it('leaves small tables and cheap pages to plain SQL', async () => {
    const s = await setup({ ORDERED_COPY_MIN_ROWS: String(ROWS + 1) });
    const amount = keyOf(s.table, 'amount');
    await expectPage(s, { sorting: [{ columnKey: amount, direction: 'Ascending' }] }, 'plain');
    await settle(s);
    expect(stats(s).builds).toBe(0);

    const big = await setup();
    // The first pages in the default order: cheap, no copy made for them.
    await expectPage(big, { page: 1, pageSize: 100 }, 'plain');
    await expectPage(big, { page: 3, pageSize: 100 }, 'plain');
    await settle(big);
    expect(await copyTables(big)).toEqual([]);
  });

  it('shows every kind of write on the very next page, then copies the new rows', async () => {
    const s = await setup();
    const amount = keyOf(s.table, 'amount');
    const sorted: Body = { sorting: [{ columnKey: amount, direction: 'Descending' }], pageSize: 100 };
    const warm = async () => {
      await apiPage(s, sorted);
      await settle(s);
      await expectPage(s, sorted, 'hit');
    };
    const firstId = async () => Number((await plainPage(s, sorted))[0]?._row_id);

    await warm();
    const top = await firstId();
    await change(s, [{ kind: 'cells', edits: [{ rowId: top, columnKey: amount, value: -5 }] }]);
    let rows = await expectPage(s, sorted, 'miss');
    expect(rows.map((r) => r._row_id)).not.toContain(top);

    await warm();
    await change(s, [{ kind: 'addRows', count: 3 }]);
    const added = await plainPage(s, { ...sorted, page: 5 });
    expect(await expectPage(s, { ...sorted, page: 5 }, 'miss')).toEqual(added);
    expect(added.filter((r) => r[amount] === null).length).toBeGreaterThanOrEqual(3);

    await warm();
    const doomed = await firstId();
    await change(s, [{ kind: 'deleteRows', rowIds: [doomed] }]);
    rows = await expectPage(s, sorted, 'miss');
    expect(rows.map((r) => r._row_id)).not.toContain(doomed);

    await warm();
    await change(s, [{ kind: 'addColumn', column: { displayName: 'Extra', columnKey: 'extra' } }]);
    rows = await expectPage(s, sorted, 'miss');
    expect(rows[0]).toHaveProperty('extra', null);

    await warm();
    await change(s, [{ kind: 'deleteColumn', columnKey: 'extra' }]);
    rows = await expectPage(s, sorted, 'miss');
    expect(rows[0]).not.toHaveProperty('extra');

    await warm();
    ok(await uploadCsv(s.t, s.cookie, s.table.id, csvOf(ROWS, 1000)));
    s.table = await getTable(s.t, s.cookie, s.table.id);
    const newAmount = keyOf(s.table, 'amount');
    await expectPage(s, { sorting: [{ columnKey: newAmount, direction: 'Descending' }], pageSize: 100 }, 'miss');
    // Every write dropped the copies it made stale: none is left but the newest.
    await settle(s);
    expect(await copyTables(s)).toHaveLength(1);
    expect(s.executor().orderedCopies.list()).toHaveLength(1);
  });

  it.each(['before', 'after'] as const)(
    'never serves a copy whose build raced a write (write %s the copy statement)',
    async (when) => {
      const s = await setup();
      const amount = keyOf(s.table, 'amount');
      const sorted: Body = { sorting: [{ columnKey: amount, direction: 'Ascending' }], pageSize: 20 };
      const top = Number((await plainPage(s, sorted))[0]?._row_id);
      const write = () => change(s, [{ kind: 'cells', edits: [{ rowId: top, columnKey: amount, value: 999 }] }]);
      const { warehouse } = s.t.deps;
      const forAccount = warehouse.forAccount.bind(warehouse);
      let raced = false;
      const racing = (session: WarehouseSession): WarehouseSession =>
        new Proxy(session, {
          get(target, prop, receiver) {
            if (prop !== 'run') return Reflect.get(target, prop, receiver) as unknown;
            return async (sql: string, parameters?: Parameters<WarehouseSession['run']>[1]) => {
              const isCopy = !raced && sql.startsWith('CREATE TABLE "ordered_copies"');
              raced ||= isCopy;
              if (isCopy && when === 'before') await write();
              const result = await target.run(sql, parameters);
              if (isCopy && when === 'after') await write();
              return result;
            };
          },
        });
      const spy = vi.spyOn(warehouse, 'forAccount').mockImplementation((accountId) => {
        const executor = forAccount(accountId);
        return new Proxy(executor, {
          get(target, prop, receiver) {
            if (prop !== 'session') return Reflect.get(target, prop, receiver) as unknown;
            return <T>(work: (session: WarehouseSession) => Promise<T>) =>
              target.session((session) => work(racing(session)));
          },
        });
      });
      try {
        await expectPage(s, sorted, 'miss');
        await settle(s);
      } finally {
        spy.mockRestore();
      }
      expect(raced).toBe(true);
      expect(stats(s)).toMatchObject({ builds: 1, discarded: 1 });
      const rows = await expectPage(s, sorted, 'miss');
      expect(rows.map((r) => r._row_id)).not.toContain(top);
      await settle(s);
      const all = await expectPage(s, { ...sorted, pageSize: 1000 }, 'hit');
      expect(all.find((r) => r._row_id === top)).toMatchObject({ [amount]: 999 });
    },
  );

  it('keeps at most ORDERED_COPY_MAX copies, dropping the least recently used', async () => {
    const s = await setup({ ORDERED_COPY_MAX: '2' });
    const sortBy = (name: string): Body => ({ sorting: [{ columnKey: keyOf(s.table, name), direction: 'Ascending' }] });
    for (const name of ['amount', 'qty']) {
      await expectPage(s, sortBy(name), 'miss');
      await settle(s);
    }
    await expectPage(s, sortBy('amount'), 'hit');
    await expectPage(s, sortBy('day'), 'miss');
    await settle(s);
    expect(await copyTables(s)).toHaveLength(2);
    expect(stats(s).evicted).toBe(1);
    // qty was the least recently used.
    await expectPage(s, sortBy('amount'), 'hit');
    await expectPage(s, sortBy('day'), 'hit');
    await expectPage(s, sortBy('qty'), 'miss');
  });

  it('keeps copies to their account: another account sees none of them', async () => {
    const a = await setup();
    const b = await onApp(a.t, 'other@example.com');
    expect(b.accountId).not.toBe(a.accountId);
    const sortA: Body = { sorting: [{ columnKey: keyOf(a.table, 'amount'), direction: 'Ascending' }] };
    await expectPage(a, sortA, 'miss');
    await settle(a);
    await expectPage(a, sortA, 'hit');
    const [copy] = a.executor().orderedCopies.list();
    expect(copy).toBeDefined();

    expect(await copyTables(b)).toEqual([]);
    expect(b.executor().orderedCopies.list()).toEqual([]);
    await expect(
      b.executor().all({ sql: `SELECT * FROM ordered_copies."${copy?.name}"`, parameters: [] }),
    ).rejects.toThrow();
    // B's own table, sorted alike, is B's rows; A's table is not found for B.
    await expectPage(b, { sorting: [{ columnKey: keyOf(b.table, 'amount'), direction: 'Ascending' }] }, 'miss');
    expect((await infiniteScroll(a.t, b.cookie, a.table.id, sortA)).status).toBe(404);
  });
});
