/**
 * SFTP file fidelity through the app: a Parquet file with decimals (up to 38 digits), timestamps of every unit and zone, dates, floats, lists and structs, and a CSV whose
 * decimals a double would change and whose '' differs from an empty field. Every value read back
 * through the tables API and the CSV and Parquet downloads equals the file's own value (as a
 * DuckDB of the test's own reads it); a later Parquet file declaring a wider type widens the column.
 */
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../../../src/server/exact-values/json';
import { openTestDuckDb } from '../../../engine/duckdb';
import { makeApp, signIn, type TestApp } from '../../helpers';
import { api, expectCompleted, ok, selectDatasets, syncNow, type Integration } from '../helpers';
import { startSftp, type SftpPeer } from '../peers/sftp';
import { sftpIntegration as sftpFolderIntegration } from './sftp-integration';
import { apiRows, downloadRows, warehouseTypes, type Row } from './exports';
import { canonical, type Kind } from './renderings';

/** Columns of the Parquet file: DuckDB's SQL for row i, the stored type, the kind compared. */
const PARQUET: { name: string; sql: string; stored: string; kind: Kind | 'list' }[] = [
  { name: 'id', sql: 'i::BIGINT', stored: 'BIGINT', kind: 'int' },
  {
    name: 'dec38',
    sql: `CAST('1234567890123456789012345678.' || lpad(i::VARCHAR, 10, '0') AS DECIMAL(38,10))`,
    stored: 'DECIMAL(38,10)',
    kind: 'decimal',
  },
  { name: 'money', sql: `CAST(99999999999999.999999 - i AS DECIMAL(20,6))`, stored: 'DECIMAL(20,6)', kind: 'decimal' },
  { name: 'small', sql: `CAST(i / 100 AS DECIMAL(5,2))`, stored: 'DECIMAL(5,2)', kind: 'decimal' },
  {
    name: 'whole38',
    sql: `CAST('9999999999999999999999999999999999999' || (i % 10)::VARCHAR AS DECIMAL(38,0))`,
    stored: 'DECIMAL(38,0)',
    kind: 'decimal',
  },
  {
    name: 'ts',
    sql: `TIMESTAMP '2024-01-01 10:00:00.123456' + to_microseconds(i)`,
    stored: 'TIMESTAMP',
    kind: 'timestamp',
  },
  // Parquet's millisecond timestamps read back as DuckDB's TIMESTAMP (microseconds): exact.
  {
    name: 'ts_ms',
    sql: `CAST(TIMESTAMP '2024-01-01 10:00:00.123' AS TIMESTAMP_MS)`,
    stored: 'TIMESTAMP',
    kind: 'timestamp',
  },
  {
    name: 'ts_ns',
    sql: `CAST('2024-01-01 10:00:00.123456789' AS TIMESTAMP_NS)`,
    stored: 'TIMESTAMP_NS',
    kind: 'timestamp',
  },
  {
    name: 'tstz',
    sql: `TIMESTAMPTZ '2024-01-01 10:00:00.654321+02'`,
    stored: 'TIMESTAMP WITH TIME ZONE',
    kind: 'timestamptz',
  },
  {
    name: 'day',
    sql: `CASE WHEN i = 1 THEN DATE '-0043-03-15' ELSE DATE '2024-02-29' END`,
    stored: 'DATE',
    kind: 'date',
  },
  { name: 'f', sql: `CAST(0.1 * i AS FLOAT)`, stored: 'FLOAT', kind: 'float' },
  { name: 'dbl', sql: `0.1 * i + 1e300 * (i % 2)`, stored: 'DOUBLE', kind: 'double' },
  { name: 'flag', sql: `i % 2 = 0`, stored: 'BOOLEAN', kind: 'boolean' },
  {
    name: 'label',
    sql: `CASE WHEN i % 3 = 0 THEN '' WHEN i % 3 = 1 THEN NULL ELSE 'x' || i END`,
    stored: 'VARCHAR',
    kind: 'text',
  },
  { name: 'clock', sql: `TIME '10:00:00.5'`, stored: 'TIME', kind: 'time' },
  { name: 'uid', sql: `UUID 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'`, stored: 'UUID', kind: 'uuid' },
  { name: 'ints', sql: `[1, NULL, 9223372036854775807, i]::BIGINT[]`, stored: 'BIGINT[]', kind: 'list' },
  { name: 'obj', sql: `{'a': i, 'b': 'text'}`, stored: 'JSON', kind: 'json' },
];

const ROWS = 20;

describe('SFTP file type fidelity through the app', () => {
  let peer: SftpPeer;
  let dataDir: string;

  beforeAll(async () => {
    peer = await startSftp();
    dataDir = path.join(peer.root, 'data');
    await mkdir(dataDir);
    const db = await openTestDuckDb();
    try {
      const select = PARQUET.map((c) => `${c.sql} AS ${c.name}`).join(', ');
      await db.exec(
        `COPY (SELECT ${select} FROM range(${ROWS}) t(i)) TO '${path.join(dataDir, 'exact-001.parquet')}' (FORMAT parquet)`,
      );
    } finally {
      db.close();
    }
    await utimes(path.join(dataDir, 'exact-001.parquet'), 1_700_000_000, 1_700_000_000);
    // "" is an empty text, an empty field is no value (NULL).
    await writeFile(
      path.join(dataDir, 'numbers.csv'),
      'id,amount,big,label,other\n1,99999999999999.999999,12345678901234567890,"",x\n2,204142800000.079190,7,,y\n',
    );
    // Dates and times DuckDB's casts change: nanoseconds in a column sniffed as microseconds, and the era
    // of a date after the rows discovery samples (within them, the sniffer keeps such a column text).
    const times = Array.from(
      { length: 21_000 },
      (_, i) => `${i + 1},2024-01-05,2024-01-05 10:00:00,2024-01-05 10:00:00`,
    );
    times[1] = '2,2024-01-05,2024-01-05 10:00:00.123456789,2024-01-05 10:00:00';
    await writeFile(
      path.join(dataDir, 'times.csv'),
      `id,day,at,era\n${times.join('\n')}\n21001,0044-03-15 BC,,0044-03-15 10:00:00 BC\n`,
    );
    // Headers a warehouse table cannot hold as they are: the table's own row number, and a repeat in other case.
    await writeFile(path.join(dataDir, 'headers.csv'), 'id,_row_id,Name,name\n1,own,Upper,lower\n2,,U2,l2\n');
    // One column whose values hold what DuckDB's own dialect guess takes for a delimiter or a quote.
    await writeFile(path.join(dataDir, 'links.csv'), "link\nhttps://x.test/?a=1;b=2\nk|v\n'quoted'\n");
  });
  afterAll(() => peer?.close());

  const sftpIntegration = (t: TestApp, cookie: string, schema: string, pattern: string, format: string) =>
    sftpFolderIntegration(t, cookie, peer, { name: schema, folder: '/data', pattern, format });

  async function accountOf(t: TestApp, integrationId: string): Promise<string> {
    const row = await t.deps.db
      .selectFrom('integrations')
      .select('account_id')
      .where('id', '=', integrationId)
      .executeTakeFirstOrThrow();
    return String(row.account_id);
  }

  /** The file's own values, as a DuckDB of the test's reads them. */
  async function fileRows(file: string): Promise<Row[]> {
    const db = await openTestDuckDb();
    try {
      const cells = PARQUET.map((c) =>
        c.kind === 'list' || c.kind === 'json'
          ? `CAST(to_json(${c.name}) AS VARCHAR) AS ${c.name}`
          : `CAST(${c.name} AS VARCHAR) AS ${c.name}`,
      );
      return await db.rows(`SELECT ${cells.join(', ')} FROM read_parquet('${file}') ORDER BY CAST(id AS BIGINT)`);
    } finally {
      db.close();
    }
  }

  function expectSame(source: Row[], seen: Row[], printer: 'api' | 'duckdb', how: string) {
    expect(seen.length, how).toBe(source.length);
    source.forEach((row, i) => {
      for (const column of PARQUET) {
        const where = `${how}: row ${i} ${column.name}`;
        const value = seen[i]?.[column.name];
        if (column.kind === 'list') {
          const items = (v: unknown) => (typeof v === 'string' ? (parseJsonExact(v) as unknown[]) : (v as unknown[]));
          expect(
            items(value).map((x) => (x === null ? null : String(x))),
            where,
          ).toEqual(items(row[column.name]).map((x) => (x === null ? null : String(x))));
          continue;
        }
        expect(canonical(column.kind, value, printer), where).toBe(canonical(column.kind, row[column.name], 'duckdb'));
      }
    });
  }

  it('Parquet: decimals of up to 38 digits and timestamps of every unit land exactly', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await sftpIntegration(t, cookie, 'files', '*.parquet', 'parquet');
    await selectDatasets(t, cookie, created.id, { exact: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } });
    const run = await syncNow(t, cookie, created.id);
    expectCompleted(run);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([]);
    const types = await warehouseTypes(t, await accountOf(t, created.id), 'files', 'exact');
    expect(types).toEqual(Object.fromEntries(PARQUET.map((c) => [c.name, c.stored])));
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const datasetId = detail.datasets[0]!.id;
    const source = await fileRows(path.join(dataDir, 'exact-001.parquet'));
    expectSame(source, await apiRows(t, cookie, datasetId, 'id'), 'api', 'tables API');
    for (const format of ['csv', 'parquet'] as const) {
      expectSame(source, await downloadRows(t, cookie, datasetId, format, 'id', types), 'duckdb', `${format} download`);
    }
  });

  it('CSV: decimals stay exact, a 20-digit integer too, and "" is text while an empty field is null', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await sftpIntegration(t, cookie, 'csvfiles', 'numbers.csv', 'csv');
    await selectDatasets(t, cookie, created.id, {
      numbers: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    expectCompleted(await syncNow(t, cookie, created.id));
    const types = await warehouseTypes(t, await accountOf(t, created.id), 'csvfiles', 'numbers');
    expect(types).toMatchObject({ id: 'BIGINT', amount: 'DECIMAL(38,6)', big: 'DECIMAL(38,0)', label: 'VARCHAR' });
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const rows = await apiRows(t, cookie, detail.datasets[0]!.id, 'id');
    expect(rows.map((r) => [r.id, String(r.amount), String(r.big), r.label])).toEqual([
      [1, '99999999999999.999999', '12345678901234567890', ''],
      // The nearest double prints as 204142800000.0792: the API sends the exact text.
      [2, '204142800000.079190', '7', null],
    ]);
  });

  it('CSV: a later BC date and time keeps its era, and nanoseconds in a column of microseconds keep it as text, with a warning', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await sftpIntegration(t, cookie, 'timefiles', 'times.csv', 'csv');
    await selectDatasets(t, cookie, created.id, { times: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } });
    const run = await syncNow(t, cookie, created.id);
    expectCompleted(run);
    const types = await warehouseTypes(t, await accountOf(t, created.id), 'timefiles', 'times');
    expect(types).toMatchObject({ day: 'VARCHAR', at: 'VARCHAR', era: 'TIMESTAMP' });
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      '[WARN] times: Column day: 1 value does not fit date; it is stored as exact text (discovered as date).',
      '[WARN] times: Column at: 1 value does not fit timestamp; it is stored as exact text (discovered as timestamp).',
    ]);
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const rows = await apiRows(t, cookie, detail.datasets[0]!.id, 'id');
    expect([rows[1], rows.at(-1)].map((r) => [r?.id, r?.day, r?.at, r?.era])).toEqual([
      [2, '2024-01-05', '2024-01-05 10:00:00.123456789', '2024-01-05T10:00:00.000Z'],
      [21001, '0044-03-15 BC', null, '-000043-03-15T10:00:00.000Z'],
    ]);
  });

  it('CSV: a one-column file whose values hold ; | or single quotes keeps every row and every character', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await sftpIntegration(t, cookie, 'linkfiles', 'links.csv', 'csv');
    await selectDatasets(t, cookie, created.id, { links: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } });
    expectCompleted(await syncNow(t, cookie, created.id));
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const rows = await apiRows(t, cookie, detail.datasets[0]!.id, 'link');
    expect(rows.map((r) => r.link)).toEqual(["'quoted'", 'https://x.test/?a=1;b=2', 'k|v']);
  });

  it('CSV: a _row_id header and headers repeating in other case keep their values under free names', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await sftpIntegration(t, cookie, 'headerfiles', 'headers.csv', 'csv');
    await selectDatasets(t, cookie, created.id, {
      headers: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' },
    });
    const run = await syncNow(t, cookie, created.id);
    expectCompleted(run);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([
      `[WARN] headers: Property "_row_id" is stored as column "_row_id_2": _row_id is the name of the table's own row number.`,
    ]);
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${created.id}`));
    const rows = await apiRows(t, cookie, detail.datasets[0]!.id, 'id');
    // DuckDB reads the second "name" as name_1 when it discovers the file: that is its column.
    expect(rows.map((r) => [r.id, r._row_id_2, r.Name, r.name_1])).toEqual([
      [1, 'own', 'Upper', 'lower'],
      [2, null, 'U2', 'l2'],
    ]);
  });
});
