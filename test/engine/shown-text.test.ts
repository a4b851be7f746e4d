/**
 * The text a filter compares and a pivot groups by for intervals, BLOBs and times with a zone is
 * the text the tables API shows (server/warehouse/json-values.ts): the DuckDB dialect's SQL gives
 * the very same string for each value, NULL for NULL.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duckdbDialect } from '../../src/engine/dialects/duckdb';
import { toJsonValue } from '../../src/server/warehouse/json-values';

describe('text shown for intervals, BLOBs and times with a zone', () => {
  let instance: DuckDBInstance;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  });
  afterAll(() => instance.closeSync());

  /** Each value (SQL) as the API shows it and as the dialect's text SQL gives it. */
  async function both(values: string[], toText: (sql: string) => string): Promise<[unknown, unknown][]> {
    const connection = await instance.connect();
    try {
      const rows = values.map((v, i) => `SELECT ${i} AS i, ${v} AS v`).join(' UNION ALL ');
      const reader = await connection.runAndReadAll(`SELECT v, ${toText('v')} AS t FROM (${rows}) ORDER BY i`);
      const types = reader.columnTypes();
      return reader.getRows().map((row) => [toJsonValue(row[0] ?? null, types[0]), row[1] ?? null]);
    } finally {
      connection.closeSync();
    }
  }

  const expectSame = (pairs: [unknown, unknown][]) => pairs.forEach(([shown, text]) => expect(text).toBe(shown));

  it('intervals as ISO 8601 durations', async () => {
    expectSame(
      await both(
        [
          `INTERVAL '1 day'`,
          `INTERVAL '1 year 2 months 3 days 04:05:06.789'`,
          `INTERVAL '0 seconds'`,
          `to_months(-14) + to_days(-3) + to_microseconds(-90061500001)`,
          `to_days(-1) + to_microseconds(1000000)`,
          `to_months(-2136000000)`,
          `to_microseconds(9223372036854775807)`,
          `to_microseconds(-1)`,
          `CAST(NULL AS INTERVAL)`,
        ],
        (sql) => duckdbDialect.intervalToText(sql),
      ),
    );
    const part = (max: number) => fc.integer({ min: -max, max });
    await fc.assert(
      fc.asyncProperty(
        part(100_000),
        part(100_000),
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        async (m, d, us) => {
          expectSame(
            await both([`to_months(${m}) + to_days(${d}) + to_microseconds(${us})`], (sql) =>
              duckdbDialect.intervalToText(sql),
            ),
          );
        },
      ),
      { numRuns: 50 },
    );
  });

  it('BLOBs as base64, times with a zone with their full offset', async () => {
    expectSame(
      await both([`'\\x00\\xFF\\x10'::BLOB`, `''::BLOB`, `'abc'::BLOB`, `CAST(NULL AS BLOB)`], (sql) =>
        duckdbDialect.blobToText(sql),
      ),
    );
    expectSame(
      await both(
        [
          `TIMETZ '10:00:00+05'`,
          `TIMETZ '10:00:00+05:30'`,
          `TIMETZ '23:59:59.999999-15:59'`,
          `TIMETZ '24:00:00+00'`,
          `TIMETZ '12:30:00.5-03'`,
          `CAST(NULL AS TIMETZ)`,
        ],
        (sql) => duckdbDialect.timeTzToText(sql),
      ),
    );
  });
});
