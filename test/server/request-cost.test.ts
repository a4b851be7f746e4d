/**
 * Per-request cost where the contract sits: the session, the user and the account membership are
 * read once per HTTP request (a tRPC batch's calls share them); a published model version's pages
 * and counts do not load, check and compile the model again until something it reads changes; a
 * static table's unfiltered count is its recorded row count, equal to the warehouse's after every
 * kind of write. Statements are counted on the real SQLite connection.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Model } from '../../src/shared/models';
import { call, makeApp, me, signIn, type TestApp } from './helpers';
import { api, addColumn, createModel, modelKey, rawColumn } from './models/helpers';
import { infiniteScroll, keyOf, ok, tableFromCsv, uploadCsv, type StaticTable } from './static-tables/helpers';

/** Every SQLite statement run while `work` runs, as text. */
let statements: string[] | null = null;
const methods = ['all', 'get', 'run', 'iterate'] as const;
const proto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1')) as Record<string, unknown>;
const originals = new Map(methods.map((m) => [m, proto[m] as (...args: unknown[]) => unknown]));

beforeAll(() => {
  for (const [name, original] of originals) {
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      statements?.push(this.source.replace(/\s+/g, ' '));
      return original.apply(this, args);
    };
  }
});
afterAll(() => {
  for (const [name, original] of originals) proto[name] = original;
});

async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  statements = [];
  try {
    await work();
    return statements;
  } finally {
    statements = null;
  }
}

/** Statements reading `table`, from it or joined to it. */
const reads = (all: string[], table: string) => all.filter((s) => new RegExp(`(from|join) "${table}"`).test(s)).length;

const CSV = 'id,region,amount\n1,North,10\n2,South,25\n3,North,4\n';

async function tableWithModel(): Promise<{ t: TestApp; cookie: string; table: StaticTable; model: Model }> {
  const t = await makeApp();
  const cookie = await signIn(t, 'owner@example.com');
  const table = await tableFromCsv(t, cookie, CSV, 'Sales');
  const created = await createModel(t, cookie, 'Sales model');
  await addColumn(t, cookie, created.id, rawColumn(table, 'region', 'Region'));
  const withAmount = await addColumn(t, cookie, created.id, rawColumn(table, 'amount', 'Amount'));
  await addColumn(t, cookie, created.id, {
    displayName: 'Doubled',
    function: `[${modelKey(withAmount, 'Amount')}] * 2`,
  });
  const model = ok(await api<Model>(t, cookie, 'POST', `/api/models/${created.id}/publish`));
  return { t, cookie, table, model };
}

describe('one read of the caller per request', () => {
  it('reads the session with its user and current membership once, on REST and in a tRPC batch', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const table = await tableFromCsv(t, cookie, CSV, 'Sales');

    const meCall = await statementsOf(() => call(t.server, 'GET', '/api/me', { cookie }));
    expect(reads(meCall, 'sessions')).toBe(1);
    // The user came with the session: not read again.
    expect(reads(meCall, 'users')).toBe(1);

    const page = await statementsOf(() => infiniteScroll(t, cookie, table.id, { withCount: false }));
    expect(reads(page, 'sessions')).toBe(1);
    // The membership of the current account is read with the session, in the same statement.
    expect(reads(page, 'memberships')).toBe(1);
    expect(page.filter((s) => s.includes('"memberships"') && !s.includes('"sessions"'))).toEqual([]);

    const input = encodeURIComponent(
      JSON.stringify({
        0: { type: 'StaticTable', id: table.id },
        1: { type: 'StaticTable', id: table.id, withCount: false },
        2: { types: ['StaticTable'] },
      }),
    );
    const batch = await statementsOf(async () => {
      const res = await call(t.server, 'GET', `/trpc/tables.count,tables.page,tables.list?batch=1&input=${input}`, {
        cookie,
      });
      expect(res.status).toBe(200);
    });
    expect(reads(batch, 'sessions')).toBe(1);
    expect(reads(batch, 'memberships')).toBe(1);
    expect(reads(batch, 'users')).toBe(1);
  });
});

describe('a published model version', () => {
  it('is not loaded, checked and compiled again for each page and count', async () => {
    const { t, cookie, model } = await tableWithModel();
    const url = `/api/tables/ModelVersion/${model.versionId}/data`;
    const first = await statementsOf(() => api(t, cookie, 'POST', `${url}/infinite-scroll`, { withCount: false }));
    expect(reads(first, 'static_table_columns')).toBeGreaterThan(0);
    for (const [path, body] of [
      ['infinite-scroll', { withCount: false }],
      ['infinite-scroll', { page: 1, pageSize: 2 }],
      ['count', {}],
    ] as const) {
      const again = await statementsOf(async () => ok(await api(t, cookie, 'POST', `${url}/${path}`, body)));
      // Only the version itself (its status and model, for the caller's account) is read again.
      expect(reads(again, 'static_tables'), path).toBe(0);
      expect(reads(again, 'static_table_columns'), path).toBe(0);
      expect(reads(again, 'model_versions'), path).toBe(1);
    }
  });

  it('is read afresh once a table it reads changes: new rows, a removed column, the model renamed', async () => {
    const { t, cookie, table, model } = await tableWithModel();
    const page = async () =>
      api<{ data: Record<string, unknown>[]; count: number }>(
        t,
        cookie,
        'POST',
        `/api/tables/ModelVersion/${model.versionId}/data/infinite-scroll`,
        {},
      );
    expect(ok(await page()).count).toBe(3);
    ok(
      await api(t, cookie, 'POST', `/api/static-tables/${table.id}/changes`, {
        changes: [{ kind: 'addRows', count: 2 }],
      }),
    );
    expect(ok(await page()).count).toBe(5);
    ok(await api(t, cookie, 'PUT', `/api/models/${model.id}`, { name: 'Renamed' }));
    const summary = ok(await api<{ name: string }>(t, cookie, 'GET', `/api/tables/ModelVersion/${model.versionId}`));
    expect(summary.name).toBe('Renamed');
    // A re-import without the amount column: the model's own removed-column problem, not stale rows.
    ok(await uploadCsv(t, cookie, table.id, 'id,region\n1,North\n'));
    const broken = await page();
    expect(broken.status).toBe(400);
    expect(JSON.stringify(broken.body)).toContain('A column has been removed from the model');
  });
});

describe("a static table's unfiltered count", () => {
  it('is its recorded row count, equal to the warehouse count after every kind of write', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const accountId = (await me(t, cookie)).currentAccountId as string;
    let table = await tableFromCsv(t, cookie, CSV, 'Sales');
    const counts = async () => {
      const api_ = ok(
        await api<{ totalCount: number }>(t, cookie, 'POST', `/api/tables/StaticTable/${table.id}/data/count`, {}),
      ).totalCount;
      const paged = ok(await infiniteScroll(t, cookie, table.id, { pageSize: 2 })) as { count: number };
      const [row] = await t.deps.warehouse
        .forAccount(accountId)
        .all({ sql: `SELECT count(*)::INTEGER AS n FROM "static"."t_${table.id.replace(/-/g, '')}"`, parameters: [] });
      return [api_, paged.count, Number(row?.n)];
    };
    expect(await counts()).toEqual([3, 3, 3]);
    const amount = keyOf(table, 'amount');
    const noDb = await statementsOf(() => api(t, cookie, 'POST', `/api/tables/StaticTable/${table.id}/data/count`, {}));
    expect(noDb.filter((s) => /static_table/.test(s))).toEqual([]);
    ok(
      await api(t, cookie, 'POST', `/api/static-tables/${table.id}/changes`, {
        changes: [{ kind: 'addRows', count: 4 }],
      }),
    );
    expect(await counts()).toEqual([7, 7, 7]);
    ok(
      await api(t, cookie, 'POST', `/api/static-tables/${table.id}/changes`, {
        changes: [{ kind: 'deleteRows', rowIds: [1, 2] }],
      }),
    );
    expect(await counts()).toEqual([5, 5, 5]);
    ok(await uploadCsv(t, cookie, table.id, `${CSV}4,East,1\n`));
    expect(await counts()).toEqual([4, 4, 4]);
    table = ok(
      await api<StaticTable>(t, cookie, 'PUT', `/api/static-tables/${table.id}/data`, {
        columns: [{ displayName: 'A' }],
        rows: [['x'], ['y']],
      }),
    );
    expect(await counts()).toEqual([2, 2, 2]);
    // A filtered count still counts in the warehouse.
    const filtered = ok(
      await api<{ totalCount: number }>(t, cookie, 'POST', `/api/tables/StaticTable/${table.id}/data/count`, {
        filterGroups: [{ filters: [{ columnKey: keyOf(table, 'A'), operator: 'Equals', value: 'x' }] }],
      }),
    );
    expect(filtered.totalCount).toBe(1);
    expect(amount).toBeTruthy();
  });
});
