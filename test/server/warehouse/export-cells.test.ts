import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimalTextSql, doubleTextSql, exportCellSql } from '../../../src/server/warehouse/export-cells';
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
  it('writes every digit that carries a value and none of the scale’s trailing zeros', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }),
        fc.integer({ min: 1, max: 37 }),
        async (unscaled, scale) => {
          const negative = unscaled < 0n;
          const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
          const text = `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
          const [row] = await duckdb.rows(`SELECT ${decimalTextSql(`'${text}'::DECIMAL(38,${scale})`)} AS t`);
          const expected = text.replace(/\.?0+$/, '');
          expect(row!.t).toBe(expected === '-0' ? '0' : expected);
        },
      ),
      { numRuns: 200 },
    );
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

  it('leaves integers, dates and text as DuckDB writes them; 128-bit integers become DECIMAL(38,0) in Parquet', () => {
    for (const type of ['BIGINT', 'HUGEINT', 'DECIMAL(18,0)', 'DATE', 'VARCHAR', 'TIMESTAMP']) {
      expect(exportCellSql('c', type, 'csv')).toBeNull();
    }
    expect(exportCellSql('c', 'HUGEINT', 'parquet')).toBe('CAST(c AS DECIMAL(38,0))');
    expect(exportCellSql('c', 'UHUGEINT[]', 'parquet')).toBe('CAST(c AS DECIMAL(38,0)[])');
    expect(exportCellSql('c', 'DOUBLE', 'parquet')).toBeNull();
  });
});
