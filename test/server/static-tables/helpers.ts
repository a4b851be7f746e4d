import fs from 'node:fs';
import path from 'node:path';
import { expect, vi } from 'vitest';
import type { WarehouseSession } from '../../../src/server/warehouse/types';
import type { Paged, Column } from '../../../src/shared/tables';
import type { StaticTableSummary } from '../../../src/shared/static-tables';
import {
  call,
  makeApp,
  makeTeam,
  me,
  signIn,
  trpcMutation,
  trpcQuery,
  type CallResult,
  type Team,
  type TestApp,
  type TrpcData,
} from '../helpers';

export type Row = Record<string, unknown>;

/** What GET /api/static-tables/{id} answers. */
export interface StaticTable {
  id: string;
  name: string;
  modifiedAt: string;
  rowCount: number;
  columns: (Column & { format?: unknown })[];
  rows: Row[];
  /** The copy an import or a type change kept for Undo. */
  keptToken?: string | null;
}

export type StaticTableList = Paged<StaticTableSummary>;

/** The tables API's table summary. */
export interface TableSummary {
  id: string;
  type: string;
  groupId: string;
  groupName: string;
  name: string;
  columns: Column[];
  status: string;
}

/**
 * An app whose first user (the global admin) is outside the team, so the team's owner, admin and
 * read_only member are plain users and only their member roles count.
 */
export async function appWithTeam(): Promise<{ t: TestApp; team: Team }> {
  const t = await makeApp({ SIGNUP: 'open' });
  await signIn(t, 'root@example.com');
  return { t, team: await makeTeam(t) };
}

/** Two separate teams of plain users. */
export async function appWithTwoTeams(): Promise<{ t: TestApp; a: Team; b: Team }> {
  const t = await makeApp({ SIGNUP: 'open' });
  await signIn(t, 'root@example.com');
  const a = await makeTeam(t, 'a-');
  const b = await makeTeam(t, 'b-');
  return { t, a, b };
}

/** Checks the status (showing the body when it differs) and returns the body. */
export function ok<T>(res: CallResult<T>, status = 200): T {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}

/** The data of a successful tRPC answer. */
export function trpcOk<T>(res: CallResult<TrpcData<T>>): T {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.data;
}

export function query<T>(t: TestApp, procedure: string, input: unknown, cookie: string) {
  return trpcQuery<TrpcData<T>>(t, procedure, input, cookie);
}

export function mutation<T>(t: TestApp, procedure: string, input: unknown, cookie: string) {
  return trpcMutation<TrpcData<T>>(t, procedure, input, cookie);
}

export interface NewTable {
  name: string;
  columns?: { displayName: string; columnKey?: string; description?: string | null }[];
  rows?: (Record<string, string | number | boolean | null> | (string | number | boolean | null)[])[];
}

/** POST /api/static-tables, expecting 201 and the created table with its rows. */
export async function createTable(t: TestApp, cookie: string, body: NewTable): Promise<StaticTable> {
  return ok(await call<StaticTable>(t.server, 'POST', '/api/static-tables', { cookie, body }), 201);
}

export async function getTable(t: TestApp, cookie: string, id: string): Promise<StaticTable> {
  return ok(await call<StaticTable>(t.server, 'GET', `/api/static-tables/${id}`, { cookie }));
}

/** The key of the column shown as `displayName`; fails when there is none. */
export function keyOf(table: { columns: Column[] }, displayName: string): string {
  const column = table.columns.find((c) => c.displayName === displayName);
  if (!column) throw new Error(`No column "${displayName}" in ${table.columns.map((c) => c.displayName).join(', ')}`);
  return column.columnKey;
}

/** Rows as objects keyed by display name (row ids dropped), for readable comparisons. */
export function byName(table: { columns: Column[] }, rows: Row[]): Row[] {
  return rows.map((row) => Object.fromEntries(table.columns.map((c) => [c.displayName, row[c.columnKey]])));
}

/** The table's rows keyed by display name, read back from the server. */
export async function rowsByName(t: TestApp, cookie: string, id: string): Promise<Row[]> {
  const table = await getTable(t, cookie, id);
  return byName(table, table.rows);
}

export interface UploadOptions {
  contentType?: string;
  fileName?: string;
  field?: string;
}

/** PUT /api/static-tables/{id}/upload with a hand-built multipart body holding one file. */
export function uploadCsv(
  t: TestApp,
  cookie: string,
  id: string,
  content: string | Buffer,
  options: UploadOptions = {},
): Promise<CallResult> {
  const boundary = '----ws-static-tables-boundary';
  const { contentType = 'text/csv', fileName = 'data.csv', field = 'file' } = options;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
    typeof content === 'string' ? Buffer.from(content) : content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return call(t.server, 'PUT', `/api/static-tables/${id}/upload`, {
    cookie,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: payload,
  });
}

/** A table filled from a CSV upload (types detected by DuckDB). */
export async function tableFromCsv(t: TestApp, cookie: string, csv: string, name = 'Imported'): Promise<StaticTable> {
  const table = await createTable(t, cookie, { name });
  ok(await uploadCsv(t, cookie, table.id, csv));
  return getTable(t, cookie, table.id);
}

/** The grid's page call of the tables API. */
export function infiniteScroll(t: TestApp, cookie: string, id: string, body: unknown) {
  return call<Paged<Row>>(t.server, 'POST', `/api/tables/StaticTable/${id}/data/infinite-scroll`, { cookie, body });
}

async function accountOf(t: TestApp, cookie: string): Promise<string> {
  const accountId = (await me(t, cookie)).currentAccountId;
  if (!accountId) throw new Error('The caller has no current account');
  return accountId;
}

/** Every table in the `static` schema of the caller's warehouse, read straight from DuckDB. */
export async function allWarehouseTables(t: TestApp, cookie: string): Promise<string[]> {
  const warehouse = t.deps.warehouse.forAccount(await accountOf(t, cookie));
  const rows = await warehouse.all({
    sql: "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'static' ORDER BY table_name",
    parameters: [],
  });
  return rows.map((r) => String(r.table_name));
}

/**
 * Names of the tables in the `static` schema of the caller's warehouse, without the `__kept` copies
 * an import or type change keeps for Undo (kept-copy.ts): what is left is the tables and any leftover.
 */
export async function warehouseTables(t: TestApp, cookie: string): Promise<string[]> {
  return (await allWarehouseTables(t, cookie)).filter((name) => !name.endsWith('__kept'));
}

/** Files left in the caller's account upload folder (uploads are scratch files, removed after use). */
export async function uploadFiles(t: TestApp, cookie: string): Promise<string[]> {
  const dir = path.join(t.dataDir, 'accounts', await accountOf(t, cookie), 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/**
 * Makes the warehouse fail a statement matching `statement` inside a transaction, as a crash or a
 * full disk would, to check that the earlier statements of that transaction are rolled back. Returns
 * a function that ends the failures.
 */
export function failStatementsLike(t: TestApp, statement: RegExp): () => void {
  const { warehouse } = t.deps;
  const forAccount = warehouse.forAccount.bind(warehouse);
  const failing = (session: WarehouseSession): WarehouseSession =>
    new Proxy(session, {
      get(target, prop, receiver) {
        if (prop !== 'run') return Reflect.get(target, prop, receiver) as unknown;
        return (sql: string, parameters?: Parameters<WarehouseSession['run']>[1]) => {
          if (statement.test(sql)) return Promise.reject(new Error(`Simulated failure of: ${sql}`));
          return target.run(sql, parameters);
        };
      },
    });
  const spy = vi.spyOn(warehouse, 'forAccount').mockImplementation((accountId) => {
    const executor = forAccount(accountId);
    return new Proxy(executor, {
      get(target, prop, receiver) {
        if (prop !== 'transaction') return Reflect.get(target, prop, receiver) as unknown;
        return <T>(work: (session: WarehouseSession) => Promise<T>) =>
          target.transaction((session) => work(failing(session)));
      },
    });
  });
  return () => spy.mockRestore();
}
