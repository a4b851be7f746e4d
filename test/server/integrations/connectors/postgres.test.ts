import { readFile } from 'node:fs/promises';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresConnector } from '../../../../src/server/modules/integrations/connectors/postgres';
import { createOutboundPolicy } from '../../../../src/server/net/outbound-policy';
import { ConnectorError, type ReadRequest } from '../../../../src/server/modules/integrations/connectors/types';
import { openTestDuckDb } from '../../../engine/duckdb';
import { collect, filesOf, makeContext, statesOf, type TestContext } from '../peers/context';
import { adminClient, findPostgresBin, startPostgres, type PostgresPeer } from '../peers/postgres';

/** The peer listens on 127.0.0.1: private networks allowed, as with the default SIGNUP=invite. */
const postgresConnector = createPostgresConnector(createOutboundPolicy({ allowPrivateNetworks: true }));

const bin = findPostgresBin();
if (!bin) console.warn('SKIPPED: PostgreSQL connector tests need initdb/pg_ctl (apt-get install postgresql)');

/** Text that breaks naive CSV splitting: quotes, commas and newlines inside fields. */
const tricky = (i: number) =>
  i % 3 === 0 ? `line one\nline "two", ${i}` : i % 3 === 1 ? `"quoted",\n\n` : `plain ${i}`;

describe.skipIf(!bin)('PostgreSQL connector against a real server', () => {
  let peer: PostgresPeer;
  let admin: pg.Client;
  let ctx: TestContext;
  let config: Record<string, unknown>;

  beforeAll(async () => {
    peer = await startPostgres();
    config = {
      host: peer.host,
      port: peer.port,
      database: peer.database,
      username: peer.user,
      password: peer.password,
      rows_per_file: 10,
    };
    admin = await adminClient(peer);
    await admin.query(`
      CREATE TABLE customers (
        id serial PRIMARY KEY, name text NOT NULL, vip boolean, tags text[], meta jsonb, joined date,
        updated_at timestamptz NOT NULL, note text, balance numeric(12,2));
      COMMENT ON COLUMN customers.name IS 'Full name';
      CREATE SCHEMA sales;
      CREATE TABLE sales.orders (region text, id int, amount numeric(10,2), PRIMARY KEY (region, id));
      CREATE VIEW vip_customers AS SELECT id, name FROM customers WHERE vip;
      CREATE TABLE events (id int, at date) PARTITION BY RANGE (at);
      CREATE TABLE events_2024 PARTITION OF events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');`);
    for (let i = 1; i <= 25; i++) {
      await admin.query(
        `INSERT INTO customers (name, vip, tags, meta, joined, updated_at, note, balance)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          `Customer ${i}`,
          i % 2 === 0,
          ['a', `t${i}`],
          { n: i },
          `2024-01-${String(i).padStart(2, '0')}`,
          new Date(Date.UTC(2024, 1, 1, 0, i)),
          i === 5 ? null : tricky(i),
          i * 10.5,
        ],
      );
    }
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await peer?.stop();
  });
  beforeEach(async () => {
    ctx = await makeContext();
  });
  afterEach(() => ctx.cleanup());

  const request = (over: Partial<ReadRequest> = {}): ReadRequest => ({
    dataset: 'customers',
    properties: [],
    syncType: 'FullRefresh',
    cursorField: null,
    state: null,
    ...over,
  });

  it('checks the connection and names what is wrong', async () => {
    expect(await postgresConnector.check(config, ctx)).toEqual({ ok: true });
    const badPassword = await postgresConnector.check({ ...config, password: 'nope' }, ctx);
    expect(badPassword).toMatchObject({ ok: false, message: expect.stringContaining('Authentication failed') });
    const badDb = await postgresConnector.check({ ...config, database: 'missing' }, ctx);
    expect(badDb).toMatchObject({ ok: false, message: expect.stringContaining('does not exist') });
    const ssl = await postgresConnector.check({ ...config, ssl_mode: 'require' }, ctx);
    expect(ssl).toMatchObject({ ok: false, message: expect.stringContaining('does not support SSL') });
  });

  it('discovers tables of user schemas with types and primary keys', async () => {
    const datasets = await postgresConnector.discover(config, ctx);
    expect(datasets.map((d) => d.name).sort()).toEqual(['customers', 'events', 'sales.orders', 'vip_customers']);
    const customers = datasets.find((d) => d.name === 'customers');
    expect(Object.fromEntries(customers?.properties.map((p) => [p.name, p.type]) ?? [])).toEqual({
      id: 'Number',
      name: 'Text',
      vip: 'Boolean',
      tags: 'Array',
      meta: 'Json',
      joined: 'Date',
      updated_at: 'DateTime',
      note: 'Text',
      balance: 'Number',
    });
    expect(customers?.primaryKey).toEqual(['id']);
    expect(customers?.cursorField).toBe('updated_at');
    expect(customers?.properties.find((p) => p.name === 'name')?.description).toBe('Full name');
    expect(customers?.supportedIngestionTypes).toContain('AppendDedup');
    expect(datasets.find((d) => d.name === 'sales.orders')?.primaryKey).toEqual(['region', 'id']);
    expect(datasets.find((d) => d.name === 'vip_customers')?.supportedIngestionTypes).toEqual(['Overwrite', 'Append']);
  });

  it('copies a full table into CSV files of at most rows_per_file rows that DuckDB loads intact', async () => {
    const items = await collect(postgresConnector.read(config, request(), ctx));
    const files = filesOf(items);
    expect(files.map((f) => f.rows)).toEqual([10, 10, 5]);
    for (const f of files) expect((await readFile(f.path, 'utf8')).startsWith('id,name,vip,tags')).toBe(true);

    const db = await openTestDuckDb();
    try {
      const list = files.map((f) => `'${f.path}'`).join(', ');
      const rows =
        await db.rows(`SELECT id, note, vip, tags::JSON::VARCHAR[] AS tags, meta->>'n' AS n, balance, updated_at
        FROM read_csv([${list}], header = true, all_varchar = false) ORDER BY id`);
      const expected = await admin.query(`SELECT id, note FROM customers ORDER BY id`);
      expect(rows.map((r) => [Number(r.id), r.note])).toEqual(expected.rows.map((r) => [r.id, r.note]));
      expect(rows[1]).toMatchObject({ vip: true, tags: ['a', 't2'], n: '2', balance: 21 });
      expect(String(rows[0]?.updated_at)).toContain('2024-02-01');
    } finally {
      db.close();
    }
  });

  it('reads only the selected columns of a table in another schema', async () => {
    await admin.query(`INSERT INTO sales.orders VALUES ('eu', 1, 9.99), ('us', 1, 5)`);
    const items = await collect(
      postgresConnector.read(config, request({ dataset: 'sales.orders', properties: ['region', 'amount'] }), ctx),
    );
    const [file] = filesOf(items);
    expect(await readFile(file?.path ?? '', 'utf8')).toBe('region,amount\neu,9.99\nus,5.00\n');
  });

  it('syncs incrementally on a cursor column, keeping the max cursor as state', async () => {
    const incremental = (state: unknown) =>
      request({ syncType: 'Incremental', cursorField: 'updated_at', state, properties: ['id', 'name', 'updated_at'] });
    const first = await collect(postgresConnector.read(config, incremental(null), ctx));
    expect(filesOf(first).reduce((n, f) => n + (f.rows ?? 0), 0)).toBe(25);
    const state = statesOf(first).at(-1) as { cursor: string };
    expect(state.cursor).toMatch(/^2024-02-01 00:25:00\+00/);

    await admin.query(`UPDATE customers SET name = 'Changed', updated_at = '2024-03-01T00:00:00Z' WHERE id = 3`);
    await admin.query(`INSERT INTO customers (name, updated_at) VALUES ('New', '2024-03-02T00:00:00Z')`);
    const second = await collect(postgresConnector.read(config, incremental(state), ctx));
    const [file] = filesOf(second);
    const lines = (await readFile(file?.path ?? '', 'utf8')).trim().split('\n');
    // The lower bound is inclusive: the row at the saved cursor (25) is read again with the changes.
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual([
      '25,Customer 25',
      '3,Changed',
      '26,New',
    ]);
    const next = statesOf(second).at(-1) as { cursor: string };
    expect(next.cursor).toMatch(/^2024-03-02 00:00:00\+00/);

    const third = await collect(postgresConnector.read(config, incremental(next), ctx));
    expect(filesOf(third).map((f) => f.rows)).toEqual([1]);
    expect(statesOf(third)).toEqual([next]);
  });

  it('refuses an unknown table or a non-cursor column with a ConfigError', async () => {
    const missing = await collect(postgresConnector.read(config, request({ dataset: 'nope' }), ctx)).catch(
      (e: unknown) => e,
    );
    expect((missing as ConnectorError).type).toBe('ConfigError');
    const badCursor = await collect(
      postgresConnector.read(config, request({ syncType: 'Incremental', cursorField: 'name' }), ctx),
    ).catch((e: unknown) => e);
    expect(badCursor).toBeInstanceOf(ConnectorError);
    expect((badCursor as ConnectorError).type).toBe('ConfigError');
  });

  it('fails with a TransientError when the server goes away mid-read', async () => {
    const items = postgresConnector.read(config, request(), ctx)[Symbol.asyncIterator]();
    await items.next(); // first file copied; the COPY is still open
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'workspace-integration'`,
    );
    const error = await (async () => {
      for (;;) if ((await items.next()).done) return null;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).type).toBe('TransientError');
  });
});
