import { describe, expect, it } from 'vitest';
import { call, expectError, type CallResult, type Team, type TestApp, type TrpcError } from '../helpers';
import {
  appWithTeam,
  appWithTwoTeams,
  createTable,
  getTable,
  mutation,
  ok,
  query,
  trpcOk,
  uploadCsv,
  uploadFiles,
  warehouseTables,
  type StaticTable,
  type StaticTableList,
  type TableSummary,
} from './helpers';

const READ_ONLY = 'Your role in this account is read only.';

function teamTable(t: TestApp, team: Team): Promise<StaticTable> {
  return createTable(t, team.owner.cookie, {
    name: 'Payroll',
    columns: [{ displayName: 'Name', columnKey: 'name' }],
    rows: [['Ada'], ['Bob']],
  });
}

interface TableCall {
  name: string;
  write: boolean;
  send: () => Promise<CallResult>;
}

/** Every REST call about one table, reads and writes. */
function restCalls(t: TestApp, cookie: string, id: string): TableCall[] {
  const filterGroups = [{ filters: [{ columnKey: 'name', operator: 'Exists' }] }];
  const newData = { columns: [{ displayName: 'X' }], rows: [] };
  const changes = { changes: [{ kind: 'addRows', count: 1 }] };
  const tablePath = `/api/tables/StaticTable/${id}`;
  return [
    {
      name: 'GET static table',
      write: false,
      send: () => call(t.server, 'GET', `/api/static-tables/${id}`, { cookie }),
    },
    {
      name: 'rename',
      write: true,
      send: () => call(t.server, 'PUT', `/api/static-tables/${id}`, { cookie, body: { id, name: 'Hijacked' } }),
    },
    { name: 'delete', write: true, send: () => call(t.server, 'DELETE', `/api/static-tables/${id}`, { cookie }) },
    { name: 'upload', write: true, send: () => uploadCsv(t, cookie, id, 'name\nMallory\n') },
    {
      name: 'query',
      write: false,
      send: () => call(t.server, 'POST', `/api/static-tables/${id}/query`, { cookie, body: { filters: [] } }),
    },
    {
      name: 'replace data',
      write: true,
      send: () => call(t.server, 'PUT', `/api/static-tables/${id}/data`, { cookie, body: newData }),
    },
    {
      name: 'changes',
      write: true,
      send: () => call(t.server, 'POST', `/api/static-tables/${id}/changes`, { cookie, body: changes }),
    },
    { name: 'GET table', write: false, send: () => call(t.server, 'GET', tablePath, { cookie }) },
    {
      name: 'count',
      write: false,
      send: () => call(t.server, 'POST', `${tablePath}/data/count`, { cookie, body: { filterGroups } }),
    },
    {
      name: 'infinite scroll',
      write: false,
      send: () => call(t.server, 'POST', `${tablePath}/data/infinite-scroll`, { cookie, body: { filterGroups } }),
    },
    {
      name: 'CSV download',
      write: false,
      send: () => call(t.server, 'GET', `${tablePath}/download?format=csv`, { cookie }),
    },
    {
      name: 'Parquet download',
      write: false,
      send: () => call(t.server, 'GET', `${tablePath}/download?format=parquet`, { cookie }),
    },
  ];
}

/** Every tRPC call about one table. */
function trpcCalls(t: TestApp, cookie: string, id: string): TableCall[] {
  const changes = [{ kind: 'deleteRows', rowIds: [1] }];
  return [
    { name: 'staticTables.get', write: false, send: () => query(t, 'staticTables.get', { id }, cookie) },
    {
      name: 'staticTables.rename',
      write: true,
      send: () => mutation(t, 'staticTables.rename', { id, name: 'Hijacked' }, cookie),
    },
    { name: 'staticTables.delete', write: true, send: () => mutation(t, 'staticTables.delete', { id }, cookie) },
    {
      name: 'staticTables.change',
      write: true,
      send: () => mutation(t, 'staticTables.change', { id, changes }, cookie),
    },
    { name: 'tables.get', write: false, send: () => query(t, 'tables.get', { type: 'StaticTable', id }, cookie) },
    { name: 'tables.page', write: false, send: () => query(t, 'tables.page', { type: 'StaticTable', id }, cookie) },
    { name: 'tables.count', write: false, send: () => query(t, 'tables.count', { type: 'StaticTable', id }, cookie) },
  ];
}

describe('tables of another account', () => {
  it.each(['owner', 'admin', 'readOnly'] as const)('answer 404 to every call by a member of A (%s)', async (who) => {
    const { t, a, b } = await appWithTwoTeams();
    const table = await teamTable(t, b);
    const { cookie } = a[who];

    for (const { name, send } of restCalls(t, cookie, table.id)) {
      expect(expectError(await send(), 404), name).toBe('Table not found.');
    }
    for (const { name, send } of trpcCalls(t, cookie, table.id)) {
      const res = await send();
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(404);
      expect((res.body as TrpcError).error.message, name).toBe('Table not found.');
    }

    // Lists show only the caller's own tables.
    expect(ok(await call<StaticTableList>(t.server, 'GET', '/api/static-tables', { cookie })).count).toBe(0);
    expect(ok(await call<TableSummary[]>(t.server, 'GET', '/api/tables', { cookie }))).toEqual([]);
    expect(trpcOk(await query<StaticTableList>(t, 'staticTables.list', {}, cookie)).data).toEqual([]);
    expect(trpcOk(await query<TableSummary[]>(t, 'tables.list', {}, cookie))).toEqual([]);

    // B's table is as it was, and nothing was written anywhere.
    expect(await getTable(t, b.owner.cookie, table.id)).toEqual(table);
    expect(await uploadFiles(t, cookie)).toEqual([]);
    expect(await uploadFiles(t, b.owner.cookie)).toEqual([]);
    expect(await warehouseTables(t, cookie)).toEqual([]);
  });
});

describe('read_only members', () => {
  it('get 403 for every write and change nothing', async () => {
    const { t, team } = await appWithTeam();
    const table = await teamTable(t, team);
    const { cookie } = team.readOnly;

    const writes: TableCall[] = [
      {
        name: 'create',
        write: true,
        send: () => call(t.server, 'POST', '/api/static-tables', { cookie, body: { name: 'Mine' } }),
      },
      { name: 'createBlank', write: true, send: () => mutation(t, 'staticTables.createBlank', undefined, cookie) },
      ...restCalls(t, cookie, table.id),
      ...trpcCalls(t, cookie, table.id),
    ].filter((c) => c.write);
    expect(writes.map((c) => c.name)).toEqual([
      'create',
      'createBlank',
      'rename',
      'delete',
      'upload',
      'replace data',
      'changes',
      'staticTables.rename',
      'staticTables.delete',
      'staticTables.change',
    ]);
    for (const { name, send } of writes) {
      const res = await send();
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(403);
      const body = res.body as { message?: string; error?: { message: string } };
      expect(body.message ?? body.error?.message, name).toBe(READ_ONLY);
    }

    expect(await getTable(t, team.owner.cookie, table.id)).toEqual(table);
    expect(ok(await call<StaticTableList>(t.server, 'GET', '/api/static-tables', { cookie })).count).toBe(1);
    expect(await warehouseTables(t, cookie)).toHaveLength(1);
    expect(await uploadFiles(t, cookie)).toEqual([]);
  });

  it('can make every read', async () => {
    const { t, team } = await appWithTeam();
    const table = await teamTable(t, team);
    const { cookie } = team.readOnly;
    const reads = [...restCalls(t, cookie, table.id), ...trpcCalls(t, cookie, table.id)].filter((c) => !c.write);
    expect(reads).toHaveLength(11);
    for (const { name, send } of reads) {
      const res = await send();
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    expect((await getTable(t, cookie, table.id)).rows).toEqual(table.rows);
    expect(trpcOk(await query<StaticTableList>(t, 'staticTables.list', {}, cookie)).count).toBe(1);
    expect(trpcOk(await query<TableSummary[]>(t, 'tables.list', {}, cookie))).toHaveLength(1);
  });
});
