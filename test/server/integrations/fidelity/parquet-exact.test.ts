/**
 * Parquet columns DuckDB's own reader rounds, through an SFTP sync and an e-mail attachment: a
 * DECIMAL of more than 38 digits (DuckDB reads a DOUBLE), a nanosecond timestamp or time adjusted
 * to UTC and INT96 timestamps, Spark's (DuckDB reads microseconds). The files are written as other writers write them (footers edited, see
 * parquet-footers.ts); every value read back through the tables API and the downloads is the
 * value written, and a column the warehouse's decimals cannot hold is exact text with a [WARN].
 */
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactParquet } from '../../../../src/server/modules/integrations/connectors/parquet/exact-parquet';
import { openTestDuckDb } from '../../../engine/duckdb';
import { makeApp, signIn, type TestApp } from '../../helpers';
import {
  api,
  createIntegration,
  definitionNamed,
  expectCompleted,
  logsOf,
  ok,
  selectDatasets,
  syncNow,
  type Integration,
  type Job,
} from '../helpers';
import { startSftp, type SftpPeer } from '../peers/sftp';
import { sftpIntegration } from './sftp-integration';
import { apiRows, downloadRows, warehouseTypes, type Row } from './exports';
import { canonical } from './renderings';
import { adjustToUtc, declareDecimal, declareInt96, int96Interval, twosComplementHex } from './parquet-footers';

/** Unscaled values of DECIMAL(50,10) (one past 38 digits) and DECIMAL(45,4) (all within 38). */
const WIDE = [12345678901234567890123456789012345678901234567890n, -1n, 0n, null];
const WIDE_FITS = [123456789012345678901234n, -15000n, null, 7n];
/** A DECIMAL(38,12) as DuckDB writes it (16 fixed bytes), declared DECIMAL(50,12) as a wider writer would. */
const FIXED = ['12345678901234567890123456.123456789012', '-0.000000000001', '0', null];
/** TIME(NANOS) adjusted to UTC: DuckDB would read TIMETZ, microseconds. */
const CLOCK = ['10:00:00.123456789', '23:59:59.999999999', '00:00:00', null];
const NANOS = ['2024-01-01 10:00:00.123456789', '1969-12-31 23:59:59.999999999', null, '2262-04-11 23:47:16.854775'];

/**
 * INT96 timestamps as [Julian day, nanoseconds of the day] and their text; DuckDB would read
 * microseconds. `spark_old` has a value before 1677, which TIMESTAMP_NS cannot hold: exact text.
 */
type Int96 = [number, bigint, string] | null;
const SPARK_AT: Int96[] = [
  [2_460_311, 45_296_123_456_789n, '2024-01-01 12:34:56.123456789'],
  [2_440_588, 1n, '1970-01-01 00:00:00.000000001'],
  null,
  [2_460_311, 0n, '2024-01-01 00:00:00'],
];
const SPARK_OLD: Int96[] = [[2_268_924, 1n, '1500-01-01 00:00:00.000000001'], SPARK_AT[0]!, null, null];
const int96Sql = (value: Int96) => (value === null ? 'NULL::INTERVAL' : int96Interval(value[0], value[1]));

const WIDE_WARNING =
  '[WARN] wide: Column wide: 1 value has more than 38 digits; it is stored as exact text (discovered as decimal).';

function decimalText(unscaled: bigint | null, scale: number): string | null {
  if (unscaled === null) return null;
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  return `${unscaled < 0n ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

describe('Parquet values DuckDB would round arrive exactly', () => {
  let peer: SftpPeer;

  beforeAll(async () => {
    peer = await startSftp();
    const dir = path.join(peer.root, 'data');
    await mkdir(dir);
    const file = path.join(dir, 'wide.parquet');
    const rows = WIDE.map((wide, i) => {
      const fits = WIDE_FITS[i] ?? null;
      const nanos = NANOS[i] ?? null;
      return (
        `(${i}, ${wide === null ? 'NULL' : `from_hex('${twosComplementHex(wide, 21)}')`}, ` +
        `${fits === null ? 'NULL' : `from_hex('${twosComplementHex(fits, 19)}')`}, ` +
        `${nanos === null ? 'NULL' : `'${nanos}'::TIMESTAMP_NS`}, ` +
        `${FIXED[i] === null ? 'NULL' : `'${FIXED[i]}'`}::DECIMAL(38,12), ` +
        `${CLOCK[i] === null ? 'NULL' : `'${CLOCK[i]}'`}::TIME_NS, ` +
        `${int96Sql(SPARK_AT[i] ?? null)}, ${int96Sql(SPARK_OLD[i] ?? null)})`
      );
    });
    const db = await openTestDuckDb();
    const plain = path.join(peer.root, 'plain.parquet');
    try {
      // A file DuckDB reads exactly as it is is left byte for byte.
      await db.exec(
        `COPY (SELECT 1.5::DECIMAL(38,12) AS d, TIMESTAMP_NS '2024-01-01 10:00:00.123456789' AS ns, [1, 2] AS l, ` +
          `{'a': 1} AS s) TO '${plain}' (FORMAT parquet)`,
      );
      const before = await readFile(plain);
      expect(await exactParquet(plain)).toEqual([]);
      expect((await readFile(plain)).equals(before)).toBe(true);
      await db.exec(
        `COPY (SELECT * FROM (VALUES ${rows.join(', ')}) t(id, wide, wide_fits, at_ns, fixed, clock_ns, spark_at, spark_old)) TO '${file}' (FORMAT parquet)`,
      );
    } finally {
      db.close();
    }
    await declareDecimal(file, 'wide', 50, 10);
    await declareDecimal(file, 'wide_fits', 45, 4);
    await declareDecimal(file, 'fixed', 50, 12);
    await adjustToUtc(file, 'at_ns');
    await adjustToUtc(file, 'clock_ns');
    await declareInt96(file, 'spark_at');
    await declareInt96(file, 'spark_old');
  });
  afterAll(() => peer?.close());

  /** The dataset's warehouse types and every value through the tables API and both downloads. */
  async function expectExact(t: TestApp, cookie: string, integrationId: string, schema: string) {
    const { account_id: accountId } = await t.deps.db
      .selectFrom('integrations')
      .select('account_id')
      .where('id', '=', integrationId)
      .executeTakeFirstOrThrow();
    const types = await warehouseTypes(t, String(accountId), schema, 'wide');
    expect(types).toEqual({
      id: 'INTEGER',
      wide: 'VARCHAR',
      wide_fits: 'DECIMAL(38,4)',
      at_ns: 'TIMESTAMP_NS',
      fixed: 'DECIMAL(38,12)',
      // TIME_NS has no warehouse format of its own: exact text (a time is a Text column either way).
      clock_ns: 'VARCHAR',
      spark_at: 'TIMESTAMP_NS',
      spark_old: 'VARCHAR',
    });
    const detail = ok(await api<Integration>(t, cookie, 'GET', `/api/integrations/${integrationId}`));
    const datasetId = detail.datasets[0]!.id;
    // Each value as written, compared in one spelling (renderings.ts): decimals exactly, instants in UTC.
    const COLUMNS = {
      id: 'int',
      wide: 'text',
      wide_fits: 'decimal',
      at_ns: 'timestamp',
      fixed: 'decimal',
      clock_ns: 'time',
      spark_at: 'timestamp',
      spark_old: 'timestamp',
    } as const;
    const expected = WIDE.map((wide, i) => ({
      id: String(i),
      wide: decimalText(wide, 10),
      wide_fits: canonical('decimal', decimalText(WIDE_FITS[i] ?? null, 4), 'source'),
      at_ns: canonical('timestamp', NANOS[i] ?? null, 'source'),
      fixed: canonical('decimal', FIXED[i] ?? null, 'source'),
      clock_ns: canonical('time', CLOCK[i] ?? null, 'source'),
      spark_at: canonical('timestamp', SPARK_AT[i]?.[2] ?? null, 'source'),
      spark_old: canonical('timestamp', SPARK_OLD[i]?.[2] ?? null, 'source'),
    }));
    const seen = (rows: Row[], printer: 'api' | 'duckdb') =>
      rows.map((r) =>
        Object.fromEntries(Object.entries(COLUMNS).map(([k, kind]) => [k, canonical(kind, r[k], printer)])),
      );
    expect(seen(await apiRows(t, cookie, datasetId, 'id'), 'api')).toEqual(expected);
    for (const format of ['csv', 'parquet'] as const) {
      expect(seen(await downloadRows(t, cookie, datasetId, format, 'id', types), 'duckdb'), format).toEqual(expected);
    }
  }

  it('wide decimals, UTC nanoseconds and INT96, through the tables API and the downloads', async () => {
    const t = await makeApp({ CONNECTOR_PRIVATE_NETWORKS: 'true' });
    const cookie = await signIn(t, 'owner@example.com');
    const created = await sftpIntegration(t, cookie, peer, {
      name: 'wide',
      folder: '/data',
      pattern: '*.parquet',
      format: 'parquet',
    });
    await selectDatasets(t, cookie, created.id, { wide: { syncType: 'FullRefresh', dataIngestionType: 'Overwrite' } });
    const run = await syncNow(t, cookie, created.id);
    expectCompleted(run);
    expect(run.logs.filter((l) => l.startsWith('[WARN]'))).toEqual([WIDE_WARNING]);
    await expectExact(t, cookie, created.id, 'wide');
  });

  it('the same file as an e-mail attachment', async () => {
    const t = await makeApp();
    const cookie = await signIn(t, 'owner@example.com');
    const definition = await definitionNamed(t, cookie, 'Incoming e-mail');
    const inbox = ok(
      await createIntegration(t, cookie, {
        integrationDefinitionId: definition.id,
        name: 'inbox',
        schemaName: 'inbox',
      }),
      201,
    );
    const attachment = path.join(t.dataDir, 'wide.parquet');
    await copyFile(path.join(peer.root, 'data', 'wide.parquet'), attachment);
    expect(
      await t.services.integrations.receiveAttachment({
        address: inbox.emailAddress!,
        fileName: 'wide.parquet',
        contentType: 'application/octet-stream',
        path: attachment,
      }),
    ).toEqual({ stored: true, dataset: 'wide', rows: 4 });
    const jobs = ok(await api<{ data: Job[] }>(t, cookie, 'GET', `/api/integrations/${inbox.id}/jobs`)).data;
    const lines = (await logsOf(t, cookie, inbox.id, jobs[0]!.id)).map((l) => l.line);
    expect(lines.filter((l) => l.startsWith('[WARN]'))).toEqual([WIDE_WARNING]);
    await expectExact(t, cookie, inbox.id, 'inbox');
  });
});
