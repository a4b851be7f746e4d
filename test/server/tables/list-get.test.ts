import { describe, expect, it } from 'vitest';
import { call, expectError, makeApp, signIn } from '../helpers';
import { createTable, ok, type TableSummary } from '../static-tables/helpers';

async function withTables() {
  const t = await makeApp();
  const cookie = await signIn(t, 'owner@example.com');
  const sales = await createTable(t, cookie, {
    name: 'Sales',
    columns: [{ displayName: 'Region', columnKey: 'region', description: 'Where' }, { displayName: 'Total' }],
  });
  const costs = await createTable(t, cookie, { name: 'Costs' });
  return { t, cookie, sales, costs };
}

describe('GET /api/tables', () => {
  it('lists the static tables as table summaries, by name', async () => {
    const { t, cookie, sales, costs } = await withTables();
    const list = ok(
      await call<TableSummary[]>(t.server, 'GET', '/api/tables?types=StaticTable&flatten=true', { cookie }),
    );
    expect(list).toEqual([
      {
        id: costs.id,
        type: 'StaticTable',
        groupId: 'static',
        groupName: 'Tables',
        name: 'Costs',
        columns: [],
        status: 'Active',
      },
      {
        id: sales.id,
        type: 'StaticTable',
        groupId: 'static',
        groupName: 'Tables',
        name: 'Sales',
        columns: sales.columns,
        status: 'Active',
      },
    ]);
    expect(ok(await call(t.server, 'GET', '/api/tables', { cookie }))).toEqual(list);
    expect(ok(await call(t.server, 'GET', '/api/tables?flatten=false', { cookie }))).toEqual(list);
    expect(ok(await call(t.server, 'GET', '/api/tables?flatten=', { cookie }))).toEqual(list);
    const repeated = '/api/tables?types=StaticTable&types=IntegrationDataset';
    expect(ok(await call(t.server, 'GET', repeated, { cookie }))).toEqual(list);
  });

  it('lists nothing for the types that have no tables yet, and refuses an unknown type', async () => {
    const { t, cookie } = await withTables();
    expect(ok(await call(t.server, 'GET', '/api/tables?types=IntegrationDataset', { cookie }))).toEqual([]);
    expect(ok(await call(t.server, 'GET', '/api/tables?types=ModelVersion', { cookie }))).toEqual([]);
    expect(expectError(await call(t.server, 'GET', '/api/tables?types=Spreadsheet', { cookie }), 400)).toMatch(
      /^types\.0: /,
    );
  });

  it('answers 401 to a caller who is not signed in', async () => {
    const { t } = await withTables();
    expectError(await call(t.server, 'GET', '/api/tables'), 401);
  });
});

describe('GET /api/tables/{type}/{id}', () => {
  it('answers one table summary', async () => {
    const { t, cookie, sales } = await withTables();
    const got = ok(await call<TableSummary>(t.server, 'GET', `/api/tables/StaticTable/${sales.id}`, { cookie }));
    expect(got).toEqual({
      id: sales.id,
      type: 'StaticTable',
      groupId: 'static',
      groupName: 'Tables',
      name: 'Sales',
      columns: sales.columns,
      status: 'Active',
    });
  });

  it('answers 404 for a missing id or a type without tables, and 400 for an unknown type', async () => {
    const { t, cookie, sales } = await withTables();
    const get = (path: string) => call(t.server, 'GET', path, { cookie });
    expect(expectError(await get('/api/tables/StaticTable/missing'), 404)).toBe('Table not found.');
    expect(expectError(await get(`/api/tables/IntegrationDataset/${sales.id}`), 404)).toBe('Table not found.');
    expectError(await get(`/api/tables/ModelVersion/${sales.id}`), 404);
    expectError(await get(`/api/tables/staticTable/${sales.id}`), 400);
  });
});
