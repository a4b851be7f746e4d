import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBDateValue } from '@duckdb/node-api';
import { fitsDouble } from '../../../src/server/exact-values/decimal-text';
import { doubleTextSql, exportCellSql } from '../../../src/server/warehouse/export-cells';
import { dateText, timestampText } from '../../../src/server/warehouse/temporal-text';
import { openTestDuckDb, type TestDuckDb } from '../../engine/duckdb';

let duckdb: TestDuckDb;
beforeAll(async () => {
  duckdb = await openTestDuckDb();
});
afterAll(() => duckdb.close());

/** A double as a SQL literal DuckDB parses to exactly that double. */
function doubleLiteral(n: number): string {
  if (Number.isNaN(n)) return `'nan'::DOUBLE`;
  if (!Number.isFinite(n)) return n > 0 ? `'inf'::DOUBLE` : `'-inf'::DOUBLE`;
  return `'${Object.is(n, -0) ? '-0.0' : String(n)}'::DOUBLE`;
}

/** Each value through `doubleTextSql` in DuckDB, in order. */
async function doubleTexts(values: number[]): Promise<unknown[]> {
  const rows = values.map((n, i) => `(${i}, ${doubleLiteral(n)})`).join(', ');
  const result = await duckdb.rows(`SELECT ${doubleTextSql('x')} AS text FROM (VALUES ${rows}) AS v(i, x) ORDER BY i`);
  return result.map((row) => row.text);
}

describe('export cells: doubles in CSV as the grid writes numbers', () => {
  it('writes integers without .0, and every double as JavaScript prints it', async () => {
    const cases = [
      3804,
      -3804,
      0,
      -0,
      1.5,
      0.1,
      0.1 + 0.2,
      1e17,
      -1e17,
      1e21,
      1e-7,
      1.2345e-6,
      0.000001,
      0.00001234,
      123456789012345680000,
      2 ** 53 + 2,
      2 ** 53,
      1e15,
      1e16,
      Number('12345678901234567'),
      5e-324,
      Number.MAX_VALUE,
      -Number.MIN_VALUE,
      1.5e300,
      123.456,
      NaN,
      Infinity,
      -Infinity,
    ];
    expect(await doubleTexts(cases)).toEqual(cases.map((n) => String(n)));
  });

  it('agrees with String(n) for any double (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.double(),
            // Everyday magnitudes and the edges of each way of writing: 1e-7..1e-4, 1e15..1e22.
            fc.double({ min: -1e6, max: 1e6 }),
            fc.double({ min: 1e-7, max: 1e-3 }),
            fc.double({ min: 1e14, max: 1e22 }),
            fc.integer().map((n) => n / 1000),
          ),
          { minLength: 1, maxLength: 200 },
        ),
        async (values) => {
          expect(await doubleTexts(values)).toEqual(values.map((n) => String(n)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps NULL as NULL and writes FLOAT by its own shortest digits (what the grid shows)', async () => {
    const [row] = await duckdb.rows(
      `SELECT ${doubleTextSql('NULL::DOUBLE')} AS a, ${exportCellSql('f', 'FLOAT', 'csv')} AS b
       FROM (SELECT 0.1::FLOAT AS f)`,
    );
    expect(row).toEqual({ a: null, b: '0.1' });
  });
});

describe('export cells: decimals in CSV', () => {
  /** A DECIMAL(precision, scale) of `unscaled` as DuckDB's value prints (the text the grid reads). */
  function decimalText(unscaled: bigint, scale: number): string {
    const negative = unscaled < 0n;
    const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
    const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    return `${negative ? '-' : ''}${text}`;
  }

  it('writes a decimal as the grid has it: a number a double holds as JavaScript writes it, else every digit', async () => {
    const decimals = fc
      .record({
        precision: fc.constantFrom(4, 9, 15, 16, 18, 19, 38),
        digits: fc.integer({ min: 1, max: 38 }),
        at: fc.integer({ min: 0, max: 38 }),
        negative: fc.boolean(),
        // Significant digits: few (a double holds them), or many; trailing zeros often.
        few: fc.boolean(),
      })
      .chain(({ precision, digits, at, negative, few }) => {
        const scale = at % (precision + 1);
        const length = Math.min(digits, precision);
        const significant = few ? Math.min(length, 1 + (digits % 15)) : length;
        return fc
          .bigInt({ min: 0n, max: 10n ** BigInt(significant) - 1n })
          .map((n) => n * 10n ** BigInt(length - significant) * (negative ? -1n : 1n))
          .map((unscaled) => ({ precision, scale, unscaled }));
      });
    await fc.assert(
      fc.asyncProperty(fc.array(decimals, { minLength: 1, maxLength: 30 }), async (values) => {
        const selects = values.map(
          ({ precision, scale, unscaled }, i) =>
            `SELECT ${i} AS i, ${exportCellSql('x', `DECIMAL(${precision},${scale})`, 'csv')} AS t ` +
            `FROM (SELECT CAST('${decimalText(unscaled, scale)}' AS DECIMAL(${precision},${scale})) AS x)`,
        );
        const rows = await duckdb.rows(`${selects.join(' UNION ALL ')} ORDER BY i`);
        expect(rows.map((row) => row.t)).toEqual(
          values.map(({ scale, unscaled }) => {
            const text = decimalText(unscaled, scale);
            return fitsDouble(text) ? String(Number(text)) : text;
          }),
        );
      }),
      { numRuns: 40 },
    );
    const edges = ['12345678.1234567890', '0.0000000010', '3804.0000000000', '99999999999999999999999999.9999999999'];
    const rows = await duckdb.rows(
      `SELECT ${exportCellSql('x', 'DECIMAL(38,10)', 'csv')} AS t FROM (VALUES ${edges.map((e, i) => `(${i}, '${e}'::DECIMAL(38,10))`).join(', ')}) AS v(i, x) ORDER BY i`,
    );
    expect(rows.map((row) => row.t)).toEqual([
      '12345678.1234567890',
      '1e-9',
      '3804',
      '99999999999999999999999999.9999999999',
    ]);
  });

  it('writes a decimal that is all fraction with its zero before the point, and zero as 0', async () => {
    for (const type of ['DECIMAL(4,4)', 'DECIMAL(5,5)', 'DECIMAL(18,18)', 'DECIMAL(38,38)']) {
      const rows = await duckdb.rows(
        `SELECT ${exportCellSql('x', type, 'csv')} AS t FROM (
           SELECT i, CAST(text AS ${type}) AS x FROM (VALUES (1, '0'), (2, '0.5'), (3, '-0.5'), (4, '0.00001'), (5, NULL)) AS v(i, text)
         ) ORDER BY i`,
      );
      const expected =
        type === 'DECIMAL(4,4)' ? ['0', '0.5', '-0.5', '0', null] : ['0', '0.5', '-0.5', '0.00001', null];
      expect(
        rows.map((row) => row.t),
        type,
      ).toEqual(expected);
    }
  });

  it('leaves integers and text as DuckDB writes them; 128-bit integers become DECIMAL(38,0) in Parquet', () => {
    for (const type of ['BIGINT', 'HUGEINT', 'VARCHAR', 'TIMESTAMP_NS']) {
      expect(exportCellSql('c', type, 'csv')).toBeNull();
    }
    expect(exportCellSql('c', 'HUGEINT', 'parquet')).toBe('CAST(c AS DECIMAL(38,0))');
    expect(exportCellSql('c', 'UHUGEINT[]', 'parquet')).toBe('CAST(c AS DECIMAL(38,0)[])');
    expect(exportCellSql('c', 'DOUBLE', 'parquet')).toBeNull();
  });
});

describe('export cells: dates and date-times in CSV as the grid writes them', () => {
  /** Each value (SQL of a DATE or TIMESTAMP of its type) through the CSV cell SQL of `type`, in order. */
  async function cellTexts(type: string, values: string[]): Promise<unknown[]> {
    const rows = values.map((v, i) => `(${i}, ${v})`).join(', ');
    const result = await duckdb.rows(
      `SELECT ${exportCellSql('x', type, 'csv')} AS text FROM (VALUES ${rows}) AS v(i, x) ORDER BY i`,
    );
    return result.map((row) => row.text);
  }

  // Years 0001-9999 as DuckDB writes them; others as the grid, in ISO's years. Days 0001-01-01 and
  // 10000-01-01 from the epoch: -719162 and 2932897.
  const days = fc.oneof(
    fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }),
    fc.integer({ min: -1_500_000, max: 4_000_000 }),
    fc.integer({ min: -719_162 - 400, max: -719_162 + 400 }),
    fc.integer({ min: 2_932_897 - 400, max: 2_932_897 + 400 }),
  );

  it('writes dates outside the years 0001-9999 as the grid does (0000-06-15, -000043-03-15, +010000-01-01)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(days, { minLength: 1, maxLength: 100 }), async (values) => {
        const texts = await cellTexts(
          'DATE',
          values.map((d) => `DATE '1970-01-01' + ${d}`),
        );
        expect(texts).toEqual(
          values.map((d) => {
            const text = dateText(new DuckDBDateValue(d));
            // DuckDB's own text for the years 0001-9999 is the grid's.
            return text;
          }),
        );
      }),
      { numRuns: 40 },
    );
    expect(await cellTexts('DATE', [`'infinity'::DATE`, `'-infinity'::DATE`, 'NULL::DATE'])).toEqual([
      'infinity',
      '-infinity',
      null,
    ]);
  });

  const DAY = 86_400_000_000n;
  const micros = fc.oneof(
    fc.bigInt({ min: -9_000_000_000_000_000_000n, max: 9_000_000_000_000_000_000n }),
    fc.bigInt({ min: -719_162n * DAY - 400n * DAY, max: -719_162n * DAY + 400n * DAY }),
    fc.bigInt({ min: 2_932_897n * DAY - 400n * DAY, max: 2_932_897n * DAY + 400n * DAY }),
  );

  for (const [type, unit, cast] of [
    ['TIMESTAMP', 1n, (sql: string) => sql],
    ['TIMESTAMP_S', 1_000_000n, (sql: string) => `CAST(${sql} AS TIMESTAMP_S)`],
    ['TIMESTAMP_MS', 1000n, (sql: string) => `CAST(${sql} AS TIMESTAMP_MS)`],
    ['TIMESTAMP WITH TIME ZONE', 1n, (sql: string) => `CAST(${sql} AS TIMESTAMPTZ)`],
  ] as const) {
    it(`writes a ${type} as DuckDB's same instant in every year, those outside 0001-9999 in the grid's ISO years`, async () => {
      await duckdb.exec(`SET TimeZone = 'UTC'`);
      await fc.assert(
        fc.asyncProperty(fc.array(micros, { minLength: 1, maxLength: 100 }), async (values) => {
          const whole = values.map((m) => m - (((m % unit) + unit) % unit));
          const texts = await cellTexts(
            type,
            whole.map((m) => cast(`make_timestamp(${m})`)),
          );
          texts.forEach((text, i) => {
            const grid = timestampText(whole[i]!);
            // The same instant, in DuckDB's layout, in every year: `2024-01-31 10:00:00.5` (`+00` for
            // a time zone); the grid's ISO years outside 0001-9999 (`-000043-03-15 10:00:00.5`).
            const [day, time] = grid.slice(0, -1).split('T') as [string, string];
            const clock = time.replace(/\.?0+$/, '');
            expect(text, grid).toBe(`${day} ${clock}${type.endsWith('ZONE') ? '+00' : ''}`);
          });
        }),
        { numRuns: 30 },
      );
    });
  }
});
