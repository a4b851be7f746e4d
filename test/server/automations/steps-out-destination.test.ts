/**
 * The Write to a destination step against a real PostgreSQL (initdb) and a real SFTP server:
 * modes, types, exactly-once after a simulated crash (marker row / deterministic file name), a
 * half file never under the final name, cancellation.
 */
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyStepError } from '../../../src/server/modules/automations/step-errors';
import { makeApp, signIn } from '../helpers';
import { ok, tableFromCsv } from '../static-tables/helpers';
import { createIntegration, definitionNamed } from '../integrations/helpers';
import { adminClient, findPostgresBin, startPostgres, type PostgresPeer } from '../integrations/peers/postgres';
import { startSftp } from '../integrations/peers/sftp';
import { kindOf, stepHarness } from './steps-out-helpers';

const OWNER = 'owner@example.com';
const CSV = 'id,name,amount,joined\n1,Ann,12.5,2024-01-02\n2,Bob,7.25,2024-02-03\n3,Cy,0.1,2024-03-04\n';
const write = kindOf('WriteDestination');

async function appWithSource(env: Record<string, string> = {}) {
  const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true', ...env });
  const cookie = await signIn(t, OWNER);
  const table = await tableFromCsv(t, cookie, CSV, 'Orders');
  const harness = await stepHarness(t, OWNER);
  return { t, cookie, source: `StaticTable:${table.id}`, harness, table };
}

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return classifyStepError(error);
  }
  throw new Error('The step did not fail');
}

const bin = findPostgresBin();
describe.skipIf(!bin)('Write to a destination: PostgreSQL', () => {
  let peer: PostgresPeer;
  let admin: pg.Client;
  beforeAll(async () => {
    peer = await startPostgres();
    admin = await adminClient(peer);
  }, 120_000);
  afterAll(async () => {
    await admin?.end();
    await peer?.stop();
  });

  async function setUp() {
    const app = await appWithSource();
    const definition = await definitionNamed(app.t, app.cookie, 'PostgreSQL');
    const integration = ok(
      await createIntegration(app.t, app.cookie, {
        integrationDefinitionId: definition.id,
        name: 'Warehouse DB',
        schemaName: 'warehouse_db',
        configuration: {
          host: peer.host,
          port: peer.port,
          database: peer.database,
          username: peer.user,
          password: peer.password,
        },
      }),
      201,
    );
    await app.t.services.integrations.idle();
    return { ...app, integrationId: integration.id };
  }

  const rowsOf = async (table: string) =>
    (await admin.query(`SELECT * FROM ${table} ORDER BY id`)).rows as Record<string, unknown>[];

  it('appends with exact types, exactly once after a crash; previews without writing', async () => {
    const { t, harness, source, integrationId } = await setUp();
    const step = harness.step('WriteDestination', { source, table: 'appended', mode: 'append' }, integrationId);
    expect(write.validate(step)).toBeNull();

    const preview = await write.preview(harness.previewEnv, step);
    expect(preview.summary).toBe('append 3 rows of Orders into public.appended (Warehouse DB)');
    expect(preview.table?.rows[0]).toEqual([1, 'Ann', 12.5, '2024-01-02']);
    expect((await admin.query("SELECT to_regclass('public.appended') AS t")).rows[0].t).toBeNull();

    const env = harness.env();
    expect(await write.run(env, step)).toEqual({ destination: 'public.appended', rows: 3, mode: 'append' });
    const types = await admin.query(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'appended' ORDER BY ordinal_position",
    );
    expect(types.rows.map((r: { column_name: string; data_type: string }) => [r.column_name, r.data_type])).toEqual([
      ['id', 'bigint'],
      ['name', 'text'],
      ['amount', 'double precision'],
      ['joined', 'date'],
    ]);
    expect((await rowsOf('appended')).map((r) => [Number(r.id), r.name, r.amount])).toEqual([
      [1, 'Ann', 12.5],
      [2, 'Bob', 7.25],
      [3, 'Cy', 0.1],
    ]);

    // The server died after the commit, before Done was recorded: the resumed attempt writes nothing.
    await t.deps.db
      .updateTable('automation_side_effects')
      .set({ state: 'Started', result: null })
      .where('key', '=', `${env.idempotencyKey}:write`)
      .execute();
    const resumed = harness.env();
    expect(await write.run(resumed, step)).toMatchObject({ rows: 3 });
    expect(resumed.logs.join('\n')).toMatch(/^WARN .*run again/m);
    expect(resumed.logs.join('\n')).toContain('not written again');
    expect(await rowsOf('appended')).toHaveLength(3);
    // A new attempt (a retry) appends again: it is another write.
    await write.run(harness.env({ attempt: 2 }), step);
    expect(await rowsOf('appended')).toHaveLength(6);
  });

  it('writes nanoseconds as their exact text, since a PostgreSQL timestamp would round them', async () => {
    const { t, cookie, harness, integrationId } = await setUp();
    const times = await tableFromCsv(
      t,
      cookie,
      'id,at\n1,2024-01-05 10:00:00.123456789\n2,2024-01-06 10:00:00\n',
      'Times',
    );
    const step = harness.step(
      'WriteDestination',
      { source: `StaticTable:${times.id}`, table: 'nanos', mode: 'create' },
      integrationId,
    );
    await write.run(harness.env(), step);
    const types = await admin.query(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'nanos' ORDER BY ordinal_position",
    );
    expect(types.rows.map((r: { column_name: string; data_type: string }) => [r.column_name, r.data_type])).toEqual([
      ['id', 'bigint'],
      ['at', 'text'],
    ]);
    expect((await rowsOf('nanos')).map((r) => r.at)).toEqual(['2024-01-05 10:00:00.123456789', '2024-01-06 10:00:00']);
  });

  it('replace, create and upsert; cancellation rolls the write back', async () => {
    const { harness, source, integrationId } = await setUp();
    await admin.query(
      "CREATE SCHEMA IF NOT EXISTS sales; CREATE TABLE sales.kept (id bigint, name text, amount numeric(10,2), joined date, extra text DEFAULT 'x')",
    );
    await admin.query("INSERT INTO sales.kept VALUES (99, 'Old', 1, '2020-01-01', 'y')");
    const run = (inputs: Record<string, unknown>, attempt: number) =>
      write.run(
        harness.env({ attempt }),
        harness.step('WriteDestination', { source, ...inputs } as never, integrationId),
      );

    // Replace keeps the table (its own column types and defaults) and swaps its rows in one transaction.
    await run({ table: 'sales.kept', mode: 'replace' }, 1);
    const kept = await rowsOf('sales.kept');
    expect(kept.map((r) => [Number(r.id), r.amount, r.extra])).toEqual([
      [1, '12.50', 'x'],
      [2, '7.25', 'x'],
      [3, '0.10', 'x'],
    ]);
    await run({ table: 'sales.kept', mode: 'replace' }, 2);
    expect(await rowsOf('sales.kept')).toHaveLength(3);

    const exists = await failureOf(run({ table: 'sales.kept', mode: 'create' }, 3));
    expect(exists).toMatchObject({ type: 'ConfigError' });
    expect(exists.message).toContain('already exists');

    // Upsert on id: a second run updates instead of adding.
    await run({ table: '"Upserted"', mode: 'upsert', keyColumns: ['id'] }, 4);
    await admin.query(`UPDATE "Upserted" SET name = 'changed'`);
    await run({ table: '"Upserted"', mode: 'upsert', keyColumns: ['id'] }, 5);
    expect((await rowsOf('"Upserted"')).map((r) => r.name)).toEqual(['Ann', 'Bob', 'Cy']);

    // Cancelled mid-way: nothing of the write is committed, no marker.
    const controller = new AbortController();
    const running = write.run(
      harness.env({ attempt: 6, signal: controller.signal }),
      harness.step('WriteDestination', { source, table: 'cancelled', mode: 'create' }, integrationId),
    );
    controller.abort(new Error('Cancelled by a user.'));
    await expect(running).rejects.toThrow();
    expect((await admin.query("SELECT to_regclass('public.cancelled') AS t")).rows[0].t).toBeNull();
    const markers = await admin.query(`SELECT key FROM workspace_automation_writes WHERE key LIKE '%:6'`);
    expect(markers.rows).toEqual([]);
  });
});

describe('Write to a destination: SFTP', () => {
  it('uploads under a temporary name and renames it whole, once per attempt, CSV or Parquet', async () => {
    const peer = await startSftp({ writable: true });
    try {
      fs.mkdirSync(path.join(peer.root, 'out'));
      const { t, cookie, harness, source } = await appWithSource();
      const definition = await definitionNamed(t, cookie, 'SFTP');
      const integration = ok(
        await createIntegration(t, cookie, {
          integrationDefinitionId: definition.id,
          name: 'Drop box',
          schemaName: 'drop_box',
          configuration: {
            host: peer.host,
            port: peer.port,
            username: peer.user,
            authentication: { type: 'password', password: peer.password },
            folder: '/out',
            file_pattern: '*.csv',
            format: 'csv',
          },
        }),
        201,
      );
      await t.services.integrations.idle();
      const step = harness.step('WriteDestination', { source, format: 'csv', fileName: 'orders' }, integration.id);
      const preview = await write.preview(harness.previewEnv, step);
      expect(preview.summary).toBe('3 rows of Orders as CSV to /out/orders-<run>-<step>-<attempt>.csv (Drop box)');

      const env = harness.env();
      const output = await write.run(env, step);
      const name = `orders-${harness.runId}-step1-1.csv`;
      expect(output).toEqual({ destination: `/out/${name}`, rows: 3, format: 'csv' });
      expect(fs.readFileSync(path.join(peer.root, 'out', name), 'utf8')).toBe(CSV);
      expect(peer.renames).toEqual([[`/out/.${name}.part`, `/out/${name}`]]);

      // Resumed after a crash during the upload's bookkeeping: the file is there, nothing is written again.
      await t.deps.db
        .updateTable('automation_side_effects')
        .set({ state: 'Started', result: null })
        .where('key', '=', `${env.idempotencyKey}:write`)
        .execute();
      await write.run(harness.env(), step);
      expect(peer.renames).toHaveLength(1);

      // Cancelled while uploading: no file under the final name.
      let release = () => undefined as void;
      peer.onWrite = () => new Promise<void>((resolve) => (release = resolve));
      const controller = new AbortController();
      const parquet = harness.step('WriteDestination', { source, format: 'parquet' }, integration.id);
      const running = write.run(harness.env({ attempt: 2, signal: controller.signal }), parquet);
      const parquetName = `Orders-${harness.runId}-step1-2.parquet`;
      await expect
        .poll(() => fs.existsSync(path.join(peer.root, 'out', `.${parquetName}.part`)), { timeout: 15_000 })
        .toBe(true);
      controller.abort(new Error('Cancelled by a user.'));
      await expect(running).rejects.toThrow();
      release();
      peer.onWrite = null;
      expect(fs.existsSync(path.join(peer.root, 'out', parquetName))).toBe(false);

      // The same attempt resumed: the leftover part is replaced and the whole file appears.
      await write.run(harness.env({ attempt: 2 }), parquet);
      const bytes = fs.readFileSync(path.join(peer.root, 'out', parquetName));
      expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
      expect(fs.existsSync(path.join(peer.root, 'out', `.${parquetName}.part`))).toBe(false);
    } finally {
      await peer.close();
    }
  });

  it('validates its inputs', () => {
    const check = (inputs: Record<string, unknown>, integrationId: string | null = 'i1') =>
      write.validate({ id: 's', name: 'w', kind: 'WriteDestination', integrationId, inputs: inputs as never });
    expect(check({ source: 'StaticTable:x' }, null)).toBe('Choose a PostgreSQL or SFTP integration.');
    expect(check({})).toBe('Choose the table or model to write.');
    expect(check({ source: 'StaticTable:x', mode: 'upsert' })).toBe('Upsert needs key columns.');
    expect(check({ source: 'StaticTable:x', mode: 'merge' })).toContain('Mode must be one of');
    expect(check({ source: 'StaticTable:x', table: 'a.b.c' })).toContain('is not a table name');
    expect(check({ source: 'StaticTable:x', table: '"my.schema".t', mode: 'append' })).toBeNull();
  });
});
