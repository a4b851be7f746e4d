/**
 * Differential: random small tables and random pivots (fields, aggregations, show-as, sorts,
 * totals, a filter), run on DuckDB and computed in plain TypeScript (pivot-reference.ts), compared
 * column key by column key and cell by cell, in order.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelationColumn } from '../../src/engine/ir';
import type { PivotFieldSpec, PivotSpec, PivotValueSpec } from '../../src/engine/pivot';
import { duckdbDialect } from '../../src/engine/dialects/duckdb';
import { AGGREGATIONS_BY_TYPE, PIVOT_SHOW_AS } from '../../src/shared/pivots';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { grid, runPivot } from './pivot-fixture';
import { referencePivot, type DataRow, type Value } from './pivot-reference';

const COLUMNS: RelationColumn[] = [
  { columnKey: 'a', type: 'Text' },
  { columnKey: 'b', type: 'Number' },
  { columnKey: 'c', type: 'Boolean' },
  { columnKey: 'd', type: 'Date' },
  { columnKey: 'x', type: 'Number' },
  { columnKey: 't', type: 'Text' },
];
const SQL_TYPES = 'a VARCHAR, b INTEGER, c BOOLEAN, d DATE, x DOUBLE, t VARCHAR';
const FIELD_KEYS = ['a', 'b', 'c', 'd'];

const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null, freq: 4 });
const rowArbitrary: fc.Arbitrary<DataRow> = fc.record({
  a: nullable(fc.constantFrom('x', 'y', 'Z', "it's")),
  b: nullable(fc.integer({ min: -2, max: 2 })),
  c: nullable(fc.boolean()),
  d: nullable(fc.constantFrom('2024-01-01', '2023-12-31', '1999-06-15')),
  // Quarters add up exactly in any order, so sums compare exactly.
  x: nullable(fc.integer({ min: -8, max: 8 }).map((n) => n / 4)),
  t: nullable(fc.constantFrom('p', 'q', 'R')),
});

const valueArbitrary: fc.Arbitrary<PivotValueSpec> = fc
  .constantFrom(...COLUMNS)
  .chain((column) =>
    fc.record({
      column: fc.constant(column.columnKey),
      function: fc.constantFrom(...AGGREGATIONS_BY_TYPE[column.type]),
      showAs: fc.constantFrom(...PIVOT_SHOW_AS),
    }),
  )
  .map((value) => {
    const numeric = value.function.startsWith('Count') || ['b', 'x'].includes(value.column);
    return numeric ? value : { ...value, showAs: 'Default' as const };
  });

const pivotArbitrary: fc.Arbitrary<{ pivot: PivotSpec; threshold: number | null }> = fc
  .record({
    fields: fc.shuffledSubarray(FIELD_KEYS, { maxLength: 4 }),
    split: fc.nat(4),
    values: fc.array(valueArbitrary, { maxLength: 3 }),
    sorts: fc.array(fc.record({ descending: fc.boolean(), byValue: fc.option(fc.nat(2), { nil: null }) }), {
      minLength: 4,
      maxLength: 4,
    }),
    showRowTotals: fc.boolean(),
    showColumnTotals: fc.boolean(),
    threshold: fc.option(
      fc.integer({ min: -8, max: 8 }).map((n) => n / 4),
      { nil: null },
    ),
  })
  .map(({ fields, split, values, sorts, showRowTotals, showColumnTotals, threshold }) => {
    const field = (column: string, index: number): PivotFieldSpec => {
      const sort = sorts[index]!;
      const valueIndex = sort.byValue !== null && sort.byValue < values.length ? sort.byValue : null;
      return { column, sort: { direction: sort.descending ? 'Descending' : 'Ascending', valueIndex } };
    };
    const at = Math.min(split, fields.length, 2);
    const pivot: PivotSpec = {
      rows: fields.slice(0, at).map(field),
      columns: fields.slice(at, at + 2).map((column, index) => field(column, index + 2)),
      values,
      filters: threshold === null ? [] : [{ column: 'x', operator: 'GreaterThan', value: threshold }],
      showRowTotals,
      showColumnTotals,
    };
    return { pivot, threshold };
  });

let db: TestDuckDb;
beforeAll(async () => {
  db = await openTestDuckDb();
  await db.exec('CREATE SCHEMA IF NOT EXISTS static');
});
afterAll(() => db.close());

/** Numbers from DuckDB's JSON (big integers arrive as text) and rounding noise of divisions aside. */
function normalise(cells: unknown[][]): unknown[][] {
  return cells.map((row) =>
    row.map((cell) => {
      const number = typeof cell === 'string' && /^-?\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell;
      return typeof number === 'number' ? Math.round(number * 1e9) / 1e9 : number;
    }),
  );
}

describe('pivots on DuckDB agree with a plain TypeScript pivot', () => {
  it('for random tables and pivots', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArbitrary, { maxLength: 12 }),
        pivotArbitrary,
        async (data, { pivot, threshold }) => {
          run += 1;
          const name = `t_gen_${run}`;
          const literal = (value: Value) => duckdbDialect.literal(value);
          const inserts = data.map(
            (row) => `(${COLUMNS.map((column) => literal(row[column.columnKey] ?? null)).join(', ')})`,
          );
          await db.exec(
            `CREATE TABLE static.${name} (${SQL_TYPES});` +
              (inserts.length > 0 ? `INSERT INTO static.${name} VALUES ${inserts.join(', ')};` : ''),
          );
          try {
            const result = await runPivot(
              db,
              pivot,
              { offset: 0, limit: 1000 },
              {
                relation: { kind: 'table', schema: 'static', name },
                columns: COLUMNS,
              },
            );
            const filtered =
              threshold === null ? data : data.filter((row) => row.x !== null && Number(row.x) > threshold);
            const expected = referencePivot(filtered, pivot);
            expect(result.layout.columnKeys).toEqual(expected.columnKeys);
            expect(normalise(grid(result))).toEqual(normalise(expected.grid));
          } finally {
            await db.exec(`DROP TABLE static.${name}`);
          }
        },
      ),
      { numRuns: 120 },
    );
  }, 60_000);
});
