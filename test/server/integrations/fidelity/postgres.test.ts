/**
 * PostgreSQL type fidelity through the app: a real server (initdb) holds a table with every type
 * the connector maps (NULLs, '', BC dates, ±infinity, big keys and numerics, mixed-case and
 * reserved-word column names, a domain, an enum, arrays); after a sync, each value read back
 * through the tables API, the CSV download and the Parquet download equals PostgreSQL's own
 * rendering of it (renderings.ts), and each column has its exact warehouse type.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../../../src/server/exact-values/json';
import { makeApp, signIn, type TestApp } from '../../helpers';
import { api, expectCompleted, ok, selectDatasets, syncNow, type Integration } from '../helpers';
import { adminClient, findPostgresBin, startPostgres, type PostgresPeer } from '../peers/postgres';
import { postgresIntegration } from './postgres-integration';
import { apiRows, downloadRows, tableOf, warehouseTypes, type Row } from './exports';
import { canonical, canonicalElement, type Kind } from './renderings';

const bin = findPostgresBin();
if (!bin) console.warn('SKIPPED: PostgreSQL fidelity tests need initdb/pg_ctl (apt-get install postgresql)');

interface Spec {
  name: string;
  sql: string;
  kind: Kind;
  list?: boolean;
  /** DuckDB's type name of the stored column, and the grid's column type. */
  stored: string;
  grid: string;
  values: (i: number, random: () => number) => string | null;
}

/** Deterministic randomness (mulberry32), so a failure names the same row every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const digits = (random: () => number, n: number) =>
  Array.from({ length: n }, (_, k) => String(Math.floor(random() * 10) || (k === 0 ? 1 : 0))).join('');
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const nullEvery = (i: number) => i % 50 === 7;

const TEXTS = [
  'plain',
  'with "quotes", commas',
  'line\nbreak',
  'tab\there',
  'NULL',
  ' spaced ',
  'ünïcødé ✓',
  'back\\slash',
  "it's",
];
const DATES = [
  '0044-03-15 BC',
  '4713-01-01 BC',
  '0001-01-01 BC',
  '0001-01-01',
  'infinity',
  '-infinity',
  '9999-12-31',
  '1970-01-01',
];
const STAMPS = [
  '0044-03-15 10:00:00.5 BC',
  'infinity',
  '-infinity',
  '1970-01-01 00:00:00',
  '2024-02-29 23:59:59.999999',
];

const SPECS: Spec[] = [
  {
    name: 'Order',
    sql: 'int4',
    kind: 'int',
    stored: 'INTEGER',
    grid: 'Number',
    values: (i, r) => (i === 2 ? '-2147483648' : i === 3 ? '2147483647' : String(Math.floor(r() * 2e9) - 1e9)),
  },
  {
    name: 'select',
    sql: 'int2',
    kind: 'int',
    stored: 'SMALLINT',
    grid: 'Number',
    values: (i, r) => (i === 2 ? '-32768' : String(Math.floor(r() * 65535) - 32768)),
  },
  {
    name: 'MixedCase',
    sql: 'text',
    kind: 'text',
    stored: 'VARCHAR',
    grid: 'Text',
    values: (i, r) => (i % 10 === 0 ? '' : i % 10 === 1 ? null : `${pick(r, TEXTS)} ${i}`),
  },
  {
    name: 'user',
    sql: 'varchar(12)',
    kind: 'text',
    stored: 'VARCHAR',
    grid: 'Text',
    values: (i, r) => (i % 9 === 0 ? '' : pick(r, TEXTS).slice(0, 12)),
  },
  {
    name: 'from',
    sql: 'char(3)',
    kind: 'text',
    stored: 'VARCHAR',
    grid: 'Text',
    values: (i) => ['a', 'ab', 'abc', ''][i % 4] ?? null,
  },
  {
    name: 'n_small',
    sql: 'numeric(5,2)',
    kind: 'decimal',
    stored: 'DECIMAL(5,2)',
    grid: 'Number',
    values: (_, r) => `${r() < 0.5 ? '-' : ''}${digits(r, 3)}.${digits(r, 2)}`,
  },
  {
    name: 'n_money',
    sql: 'numeric(20,6)',
    kind: 'decimal',
    stored: 'DECIMAL(20,6)',
    grid: 'Number',
    values: (i, r) =>
      i === 2
        ? '99999999999999.999999'
        : i === 3
          ? '204142800000.079190'
          : `${digits(r, 1 + Math.floor(r() * 14))}.${digits(r, 6)}`,
  },
  {
    name: 'n_big',
    sql: 'numeric(38,0)',
    kind: 'decimal',
    stored: 'DECIMAL(38,0)',
    grid: 'Number',
    values: (i, r) => (i === 2 ? `-${'9'.repeat(38)}` : digits(r, 1 + Math.floor(r() * 38))),
  },
  {
    name: 'n_wide',
    sql: 'numeric(50,10)',
    kind: 'decimal',
    stored: 'DECIMAL(38,10)',
    grid: 'Number',
    values: (_, r) => `${digits(r, 1 + Math.floor(r() * 28))}.${digits(r, 10)}`,
  },
  {
    name: 'n_free',
    sql: 'numeric',
    kind: 'decimal',
    stored: 'DECIMAL(38,20)',
    grid: 'Number',
    values: (i, r) =>
      i === 2
        ? '0.30000000000000000001'
        : i === 3
          ? '9007199254740993'
          : `${r() < 0.3 ? '-' : ''}${digits(r, 1 + Math.floor(r() * 17))}.${digits(r, Math.floor(r() * 21))}`.replace(
              /\.$/,
              '',
            ),
  },
  {
    name: 'r',
    sql: 'real',
    kind: 'float',
    stored: 'FLOAT',
    grid: 'Number',
    values: (i, r) =>
      ['NaN', 'Infinity', '-Infinity', '3.4028235e+38', '1e-45', '0.1'][i % 12] ??
      String(Math.fround((r() - 0.5) * 10 ** Math.floor(r() * 20))),
  },
  {
    name: 'd',
    sql: 'double precision',
    kind: 'double',
    stored: 'DOUBLE',
    grid: 'Number',
    values: (i, r) =>
      ['NaN', 'Infinity', '-Infinity', '1e+300', '5e-324', '0.1', '3'][i % 14] ??
      String((r() - 0.5) * 10 ** Math.floor(r() * 30)),
  },
  {
    name: 'flag',
    sql: 'boolean',
    kind: 'boolean',
    stored: 'BOOLEAN',
    grid: 'Boolean',
    values: (_, r) => (r() < 0.5 ? 'true' : 'false'),
  },
  {
    name: 'day',
    sql: 'date',
    kind: 'date',
    stored: 'DATE',
    grid: 'Date',
    values: (i, r) =>
      DATES[i % 16] ?? `${1000 + Math.floor(r() * 9000)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`,
  },
  {
    name: 'at',
    sql: 'timestamp',
    kind: 'timestamp',
    stored: 'TIMESTAMP',
    grid: 'DateTime',
    values: (i, r) =>
      STAMPS[i % 10] ??
      new Date(Math.floor(r() * 4e12)).toISOString().replace('T', ' ').replace('Z', '') + digits(r, 3),
  },
  {
    name: 'at_tz',
    sql: 'timestamptz',
    kind: 'timestamptz',
    stored: 'TIMESTAMP WITH TIME ZONE',
    grid: 'DateTime',
    values: (i, r) =>
      i % 11 === 0
        ? '0044-03-15 10:00:00+00 BC'
        : i % 11 === 1
          ? 'infinity'
          : `${new Date(Math.floor(r() * 4e12)).toISOString().replace('Z', '')}${digits(r, 3)}+05:30`,
  },
  {
    name: 't',
    sql: 'time',
    kind: 'time',
    stored: 'TIME',
    grid: 'Text',
    values: (i, r) =>
      i % 13 === 0
        ? '24:00:00'
        : `${10 + Math.floor(r() * 13)}:${10 + Math.floor(r() * 49)}:${10 + Math.floor(r() * 49)}.${digits(r, 6)}`,
  },
  {
    name: 'ttz',
    sql: 'timetz',
    kind: 'timetz',
    stored: 'TIME WITH TIME ZONE',
    grid: 'Text',
    values: (_, r) => `${10 + Math.floor(r() * 13)}:30:00${pick(r, ['+05:30', '-14:00', '+00', '+15:59'])}`,
  },
  {
    name: 'span',
    sql: 'interval',
    kind: 'interval',
    stored: 'INTERVAL',
    grid: 'Text',
    values: (i, r) =>
      i === 2
        ? '-178000000 years'
        : i === 3
          ? '0'
          : `${Math.floor(r() * 40) - 20} years ${Math.floor(r() * 24) - 12} mons ${Math.floor(r() * 60) - 30} days ${Math.floor(r() * 100)}:${10 + Math.floor(r() * 49)}:0${Math.floor(r() * 9)}.${digits(r, 6)}`,
  },
  {
    name: 'uid',
    sql: 'uuid',
    kind: 'uuid',
    stored: 'UUID',
    grid: 'Text',
    values: (_, r) => `${digits(r, 8)}-${digits(r, 4)}-4${digits(r, 3)}-8${digits(r, 3)}-${digits(r, 12)}`,
  },
  {
    name: 'raw',
    sql: 'bytea',
    kind: 'bytes',
    stored: 'BLOB',
    grid: 'Text',
    values: (i, r) =>
      i % 7 === 0
        ? '\\x'
        : `\\x${Buffer.from(Array.from({ length: 1 + Math.floor(r() * 12) }, () => Math.floor(r() * 256))).toString('hex')}`,
  },
  {
    name: 'doc',
    sql: 'json',
    kind: 'json',
    stored: 'JSON',
    grid: 'Json',
    values: (i) =>
      `{"a": 12345678901234567890123, "b": 0.30000000000000000001, "c": [1, "x", null, ${i}], "d": "t\\"ext", "e": 1.50}`,
  },
  {
    name: 'docb',
    sql: 'jsonb',
    kind: 'json',
    stored: 'JSON',
    grid: 'Json',
    values: (i) =>
      i % 5 === 0
        ? '"just a string"'
        : i % 5 === 1
          ? '[]'
          : `{"big": 9007199254740993${i}, "n": -0.000000012345678901234567890, "nested": {"x": [true, false]}}`,
  },
  {
    name: 'ints',
    sql: 'int8[]',
    kind: 'int',
    list: true,
    stored: 'BIGINT[]',
    grid: 'Array',
    values: (i) => (i % 6 === 0 ? '{}' : `{1,NULL,9007199254740993,${i},-9223372036854775808}`),
  },
  {
    name: 'texts',
    sql: 'text[]',
    kind: 'text',
    list: true,
    stored: 'VARCHAR[]',
    grid: 'Array',
    values: (i) => (i % 6 === 0 ? '{}' : `{"a","","NULL",NULL,"with \\"q\\", comma","${i}"}`),
  },
  {
    name: 'nums',
    sql: 'numeric(10,2)[]',
    kind: 'decimal',
    list: true,
    stored: 'DECIMAL(10,2)[]',
    grid: 'Array',
    values: (i) => `{12345678.90,-0.01,NULL,${i}.50}`,
  },
  {
    name: 'days',
    sql: 'date[]',
    kind: 'date',
    list: true,
    stored: 'DATE[]',
    grid: 'Array',
    values: () => '{"0044-03-15 BC","2024-02-29",NULL,infinity}',
  },
  {
    name: 'stamps',
    sql: 'timestamptz[]',
    kind: 'timestamptz',
    list: true,
    stored: 'TIMESTAMP WITH TIME ZONE[]',
    grid: 'Array',
    values: () => '{"2024-01-01 10:00:00.123456+02","0100-01-01 00:00:00+00 BC"}',
  },
  {
    name: 'flags',
    sql: 'boolean[]',
    kind: 'boolean',
    list: true,
    stored: 'BOOLEAN[]',
    grid: 'Array',
    values: () => '{t,f,NULL}',
  },
  {
    name: 'feeling',
    sql: 'mood',
    kind: 'text',
    stored: 'VARCHAR',
    grid: 'Text',
    values: (_, r) => pick(r, ['sad', 'ok', 'happy']),
  },
  {
    name: 'amount',
    sql: 'positive_amount',
    kind: 'decimal',
    stored: 'DECIMAL(12,3)',
    grid: 'Number',
    values: (_, r) => `${digits(r, 9)}.${digits(r, 3)}`,
  },
  {
    name: 'label',
    sql: 'short_text',
    kind: 'text',
    stored: 'VARCHAR',
    grid: 'Text',
    values: (i) => (i % 3 === 0 ? '' : `label ${i}`),
  },
];

const ROWS = 600;
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Keys that differ only past 2^53, and the extremes of bigint. */
function keyOf(i: number): string {
  if (i === 0) return '-9223372036854775808';
  if (i === 1) return '9223372036854775807';
  return String(9007199254740992n + BigInt(i));
}

describe.skipIf(!bin)('PostgreSQL type fidelity through the app', () => {
  let peer: PostgresPeer;
  let admin: pg.Client;
  beforeAll(async () => {
    peer = await startPostgres();
    admin = await adminClient(peer);
    await admin.query(`SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'iso_8601'`);
    await admin.query(`
      CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
      CREATE DOMAIN positive_amount AS numeric(12,3) CHECK (VALUE > 0);
      CREATE DOMAIN short_text AS varchar(20);
      CREATE TABLE "Awkward Types" (id bigint PRIMARY KEY, ${SPECS.map((s) => `${ident(s.name)} ${s.sql}`).join(', ')},
        updated_at timestamptz NOT NULL DEFAULT '2024-01-01 00:00:00+00')`);
    await admin.query(
      `CREATE VIEW awkward_for_parquet AS SELECT id, ${SPECS.filter((s) => s.name !== 'span' && s.name !== 'ttz')
        .map((s) => ident(s.name))
        .join(', ')} FROM "Awkward Types"`,
    );
    const random = seeded(12);
    for (let i = 0; i < ROWS; i++) {
      const values = [keyOf(i), ...SPECS.map((s) => (nullEvery(i) ? null : s.values(i, random)))];
      const placeholders = values.map((_, k) => `$${k + 1}::${k === 0 ? 'bigint' : (SPECS[k - 1] as Spec).sql}`);
      await admin.query(
        `INSERT INTO "Awkward Types" (id, ${SPECS.map((s) => ident(s.name)).join(', ')}) VALUES (${placeholders.join(', ')})`,
        values,
      );
    }
  }, 120_000);

  afterAll(async () => {
    await admin?.end();
    await peer?.stop();
  });

  async function syncedDataset(t: TestApp, cookie: string, dataset: string, schema: string) {
    const integration = await postgresIntegration(t, cookie, peer, { name: schema });
    await selectDatasets(t, cookie, integration.id, {
      [dataset]: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const run = await syncNow(t, cookie, integration.id);
    expectCompleted(run);
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integration.id}`));
    const found = detail.datasets.find((d) => d.name === dataset);
    if (!found) throw new Error(`no dataset ${dataset}`);
    return { integration, datasetId: found.id, run };
  }

  /** PostgreSQL's own rendering of every cell: its output text for scalars, to_json for arrays. */
  async function sourceRows(table: string, specs: Spec[]): Promise<Row[]> {
    const cells = specs.map((s) => (s.list ? `to_json(${ident(s.name)})::text AS ${ident(s.name)}` : ident(s.name)));
    const { rows } = await admin.query({
      text: `SELECT id::text AS id, ${cells.join(', ')} FROM ${table} ORDER BY id`,
      types: { getTypeParser: () => (v: string) => v },
    });
    return rows as Row[];
  }

  function expectSameList(spec: Spec, source: unknown, seen: unknown, printer: 'api' | 'duckdb', where: string) {
    const parse = (v: unknown) => (typeof v === 'string' ? parseJsonExact(v) : v);
    const a = parse(source) as unknown[] | null;
    const b = parse(seen) as unknown[] | null;
    if (a === null || b === null) return expect(b, where).toEqual(a);
    expect(b.length, where).toBe(a.length);
    a.forEach((item, k) =>
      expect(canonicalElement(spec.kind, b[k], printer), `${where}[${k}]`).toBe(
        canonicalElement(spec.kind, item, 'source'),
      ),
    );
  }

  function expectSameRows(source: Row[], seen: Row[], printer: 'api' | 'duckdb', how: string, specs = SPECS) {
    expect(seen.length, how).toBe(source.length);
    source.forEach((row, i) => {
      const other = seen[i] as Row;
      expect(canonical('int', other.id, printer), `${how} row ${i} id`).toBe(row.id);
      for (const spec of specs) {
        const where = `${how}: row ${i} (id ${String(row.id)}) column ${spec.name}`;
        if (spec.list) expectSameList(spec, row[spec.name], other[spec.name], printer, where);
        else
          expect(canonical(spec.kind, other[spec.name], printer), where).toBe(
            canonical(spec.kind, row[spec.name], 'source'),
          );
      }
    });
  }

  it('stores every type exactly: the tables API, CSV and Parquet downloads equal PostgreSQL, types per column', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const { integration, datasetId, run } = await syncedDataset(t, cookie, 'Awkward Types', 'awkward');
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([]);
    const accountId = String(
      (
        await t.deps.db
          .selectFrom('integrations')
          .select('account_id')
          .where('id', '=', integration.id)
          .executeTakeFirstOrThrow()
      ).account_id,
    );

    const types = await warehouseTypes(t, accountId, 'awkward', 'awkward_types');
    expect(types).toEqual({
      id: 'BIGINT',
      ...Object.fromEntries(SPECS.map((s) => [s.name, s.stored])),
      updated_at: 'TIMESTAMP WITH TIME ZONE',
    });
    const table = await tableOf(t, cookie, datasetId);
    expect(Object.fromEntries(table.columns.map((c) => [c.columnKey, c.type]))).toEqual({
      id: 'Number',
      ...Object.fromEntries(SPECS.map((s) => [s.name, s.grid])),
      updated_at: 'DateTime',
    });

    const source = await sourceRows('"Awkward Types"', SPECS);
    expect(source.filter((r) => r.MixedCase === '').length).toBe(ROWS / 10);
    const viaApi = await apiRows(t, cookie, datasetId, 'id');
    expectSameRows(source, viaApi, 'api', 'tables API');
    // Floats (4 bytes) print as PostgreSQL prints them: the shortest decimal of the float.
    source.forEach((row, i) => {
      if (row.r === null || !/^-?\d/.test(String(row.r))) return;
      expect(canonical('decimal', String(viaApi[i]?.r), 'api'), `row ${i}`).toBe(canonical('decimal', row.r, 'source'));
    });
    expectSameRows(source, await downloadRows(t, cookie, datasetId, 'csv', 'id', types), 'duckdb', 'csv download');

    // Parquet has no negative interval (DuckDB refuses to write one) and keeps a time of day's zone
    // only as UTC: how those two are written there is the export's (export-cells.ts). The view
    // leaves them out; every other column goes through a Parquet download.
    const parquet = await syncedDataset(t, cookie, 'awkward_for_parquet', 'awkward_parquet');
    const parquetSpecs = SPECS.filter((s) => s.name !== 'span' && s.name !== 'ttz');
    const parquetTypes = await warehouseTypes(t, accountId, 'awkward_parquet', 'awkward_for_parquet');
    expectSameRows(
      await sourceRows('awkward_for_parquet', parquetSpecs),
      await downloadRows(t, cookie, parquet.datasetId, 'parquet', 'id', parquetTypes),
      'duckdb',
      'parquet download',
      parquetSpecs,
    );
  }, 120_000);

  it("a timestamp beyond the warehouse's range stops the sync, naming the column and the count", async () => {
    await admin.query(`
      CREATE TABLE far_future (id int PRIMARY KEY, at timestamp);
      INSERT INTO far_future VALUES (1, '2024-01-01 00:00:00'), (2, '294270-01-01 00:00:00');`);
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const integration = await postgresIntegration(t, cookie, peer, { name: 'far' });
    await selectDatasets(t, cookie, integration.id, {
      far_future: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const run = await syncNow(t, cookie, integration.id);
    expect(run.status).toBe('Failed');
    expect(run.logs).toContain(
      '[WARN] far_future: Column at (timestamp): 1 value does not fit; the sync stops and the dataset keeps its previous data.',
    );
    expect(run.logs.join('\n')).toMatch(
      /\[ERROR\] far_future: SystemError: A record does not fit the dataset's columns: column at \(timestamp\): 1 value does not fit/,
    );
  });

  it('numbers no decimal of 38 digits holds keep their column as exact text, with a warning naming column and count', async () => {
    await admin.query(`
      CREATE TABLE wide_numbers (id int PRIMARY KEY, n numeric, m numeric(10,2), big numeric(60,0));
      INSERT INTO wide_numbers VALUES
        (1, 1234567890123456789012345678901234567890.5, 'NaN', 123456789012345678901234567890123456789012345678901234567890),
        (2, 0.1, 12.50, 1),
        (3, NULL, NULL, NULL),
        (4, 'Infinity', -0.01, 2);`);
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const { integration, datasetId, run } = await syncedDataset(t, cookie, 'wide_numbers', 'wide');
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] wide_numbers: Column n: 1 value is not a decimal number (e.g. NaN or Infinity); it is stored as exact text (discovered as decimal).',
      '[WARN] wide_numbers: Column m: 1 value is not a decimal number (e.g. NaN or Infinity); it is stored as exact text (discovered as decimal(10,2)).',
      '[WARN] wide_numbers: Column big: 1 value has more than 38 digits; it is stored as exact text (discovered as decimal).',
    ]);
    const accountId = String(
      (
        await t.deps.db
          .selectFrom('integrations')
          .select('account_id')
          .where('id', '=', integration.id)
          .executeTakeFirstOrThrow()
      ).account_id,
    );
    expect(await warehouseTypes(t, accountId, 'wide', 'wide_numbers')).toEqual({
      id: 'INTEGER',
      n: 'VARCHAR',
      m: 'VARCHAR',
      big: 'VARCHAR',
    });
    const source = await admin.query({
      text: 'SELECT id, n::text AS n, m::text AS m, big::text AS big FROM wide_numbers ORDER BY id',
      types: { getTypeParser: () => (v: string) => v },
    });
    const rows = await apiRows(t, cookie, datasetId, 'id');
    expect(rows.map((r) => [String(r.id), r.n, r.m, r.big])).toEqual(
      source.rows.map((r: Row) => [r.id, r.n, r.m, r.big]),
    );
  });
  it('numeric array elements without a precision, or wider than 38 digits, keep their exact digits', async () => {
    await admin.query(`
      CREATE DOMAIN free_number AS numeric;
      CREATE TABLE free_arrays (id int PRIMARY KEY, nf numeric[], nw numeric(50,10)[], nd free_number[]);
      INSERT INTO free_arrays VALUES
        (1, '{12345678901234567890.123456789,0.30000000000000000001,0.0000001,1e-7,NULL,NaN}',
            '{1234567890123456789012345678901234567890.0123456789,0.1000000000,-1}',
            '{9007199254740993,0.1,100000000000000000000000000000000000000000}'),
        (2, '{}', NULL, '{-0.000000000000000000000000000000000000001}');`);
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const { datasetId, run } = await syncedDataset(t, cookie, 'free_arrays', 'free_arrays');
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([]);
    // PostgreSQL's own text of each element.
    const columns = ['nf', 'nw', 'nd'];
    const source = await admin.query({
      text: `SELECT id::text AS id, ${columns.map((c) => `array_to_json(${c}::text[])::text AS ${c}`).join(', ')} FROM free_arrays ORDER BY id`,
      types: { getTypeParser: () => (v: string) => v },
    });
    const expected = source.rows.map((row: Row): Row => ({
      id: row.id,
      ...Object.fromEntries(columns.map((c) => [c, row[c] === null ? null : JSON.parse(String(row[c]))])),
    }));
    expect(expected[0]?.nf).toEqual([
      '12345678901234567890.123456789',
      '0.30000000000000000001',
      '0.0000001',
      '0.0000001',
      null,
      'NaN',
    ]);
    const viaApi = await apiRows(t, cookie, datasetId, 'id');
    expect(viaApi.map((r) => ({ id: String(r.id), ...Object.fromEntries(columns.map((c) => [c, r[c]])) }))).toEqual(
      expected,
    );
    const types = { id: 'INTEGER', nf: 'VARCHAR[]', nw: 'VARCHAR[]', nd: 'VARCHAR[]' };
    const csv = await downloadRows(t, cookie, datasetId, 'csv', 'id', types);
    expect(
      csv.map((r) => ({
        id: r.id,
        ...Object.fromEntries(columns.map((c) => [c, r[c] === null ? null : JSON.parse(String(r[c]))])),
      })),
    ).toEqual(expected);
  });
  it('arrays whose indexes do not start at 1 keep their elements, with a warning naming column and count', async () => {
    await admin.query(`
      CREATE TABLE shifted_arrays (id int PRIMARY KEY, a int[], t text[]);
      INSERT INTO shifted_arrays VALUES
        (1, '[0:1]={1,2}', '{x}'), (2, '{3}', '[-1:-1]={y}'), (3, '[5:6]={4,5}', NULL), (4, '{}', '{}');`);
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const { datasetId, run } = await syncedDataset(t, cookie, 'shifted_arrays', 'shifted');
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      "[WARN] shifted_arrays: Column a: 2 arrays do not start at index 1 (e.g. '[0:1]={1,2}'); the elements are stored in their order, without their indexes.",
      "[WARN] shifted_arrays: Column t: 1 array does not start at index 1 (e.g. '[0:1]={1,2}'); the elements are stored in their order, without their indexes.",
    ]);
    const source = await admin.query({
      text: 'SELECT id, array_to_json(a)::text AS a, array_to_json(t)::text AS t FROM shifted_arrays ORDER BY id',
      types: { getTypeParser: () => (v: string) => v },
    });
    const parsed = (v: unknown) => (v === null ? null : (JSON.parse(String(v)) as unknown));
    const viaApi = await apiRows(t, cookie, datasetId, 'id');
    const expected = source.rows.map((r: Row) => [parsed(r.a), parsed(r.t)]);
    expect(viaApi.map((r) => [r.a, r.t])).toEqual(expected);
    const csv = await downloadRows(t, cookie, datasetId, 'csv', 'id', {
      id: 'INTEGER',
      a: 'INTEGER[]',
      t: 'VARCHAR[]',
    });
    expect(csv.map((r) => [parsed(r.a), parsed(r.t)])).toEqual(expected);
  });
  it('a multi-dimensional array of text-like elements keeps its column as JSON, with a warning naming column and count', async () => {
    await admin.query(`
      CREATE TABLE nested_text_arrays (id int PRIMARY KEY, t text[], n numeric[], e mood[], ip inet[], vc varchar(5)[]);
      INSERT INTO nested_text_arrays VALUES
        (1, '{a,"b,c",NULL}', '{1.5,NULL}', '{sad}', '{::1}', '{x}'),
        (2, '{{"a,b"},{"[c]"}}', '{{1.5,2}}', '{{ok,happy}}', '{{10.0.0.1/8}}', '{{y}}'),
        (3, '{}', '{{{1}}}', NULL, '{}', '{{"{}"}}');`);
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const { datasetId, run } = await syncedDataset(t, cookie, 'nested_text_arrays', 'nested_text');
    const columns = ['t', 'n', 'e', 'ip', 'vc'];
    const counts: Record<string, number> = { t: 1, n: 2, e: 1, ip: 1, vc: 2 };
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual(
      columns.map((c) => {
        const values = counts[c] === 1 ? '1 value does' : `${counts[c]} values do`;
        return `[WARN] nested_text_arrays: Column ${c}: ${values} not fit list<text>; it is stored as JSON (discovered as list<text>).`;
      }),
    );
    // PostgreSQL's own text of each element (numbers' too), nested as the array is.
    const json = (c: string) => (c === 'n' ? `to_json(${c}::text[])` : `to_json(${c})`);
    const source = await admin.query({
      text: `SELECT id::text AS id, ${columns.map((c) => `${json(c)}::text AS ${c}`).join(', ')} FROM nested_text_arrays ORDER BY id`,
      types: { getTypeParser: () => (v: string) => v },
    });
    const expected = source.rows.map((row: Row): Row => ({
      id: row.id,
      ...Object.fromEntries(columns.map((c) => [c, row[c] === null ? null : JSON.parse(String(row[c]))])),
    }));
    expect(expected[1]?.t).toEqual([['a,b'], ['[c]']]);
    const viaApi = await apiRows(t, cookie, datasetId, 'id');
    expect(viaApi.map((r) => ({ id: String(r.id), ...Object.fromEntries(columns.map((c) => [c, r[c]])) }))).toEqual(
      expected,
    );
    const types = { id: 'INTEGER', t: 'JSON', n: 'JSON', e: 'JSON', ip: 'JSON', vc: 'JSON' };
    const csv = await downloadRows(t, cookie, datasetId, 'csv', 'id', types);
    expect(
      csv.map((r) => ({
        id: r.id,
        ...Object.fromEntries(columns.map((c) => [c, r[c] === null ? null : JSON.parse(String(r[c]))])),
      })),
    ).toEqual(expected);
  });
});
