/**
 * Hostile text where a pivot can take it: column keys of the relation (row, column and value
 * fields) and the values that become column keys and row keys. Every pivot must run (also in its
 * Show SQL form) and give exactly the plain TypeScript pivot's result, and nothing else may change.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { duckdbDialect } from '../../src/engine/dialects/duckdb';
import { renderForDisplay } from '../../src/engine/display';
import type { RelationColumn } from '../../src/engine/ir';
import {
  compilePivotColumnKeys,
  compilePivotQuery,
  readPivotColumnKeys,
  shapePivotRows,
  type PivotSpec,
} from '../../src/engine/pivot';
import type { CompiledQuery } from '../../src/engine/sql';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { grid } from './pivot-fixture';
import { referencePivot, type DataRow } from './pivot-reference';

const PIECES = [
  "'",
  '"',
  ';',
  '--',
  '/*',
  '*/',
  '\\',
  '%',
  '_',
  '$1',
  '$$',
  '?',
  ')',
  '(',
  'a',
  'B',
  'é',
  '漢',
  '😀',
  '\n',
  '\t',
  '\0',
  ' ',
  '\u202e',
  "'; DROP TABLE guard.canary; --",
  '" OR 1=1 --',
  'chr(0)',
];
const nasty = fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 6 });
/** Column names may hold anything but NUL (refused, as the table tests check) and be any case. */
const nastyName = fc.string({ unit: fc.constantFrom(...PIECES.filter((piece) => piece !== '\0')), maxLength: 6 });

const q = (name: string): string => duckdbDialect.quoteIdentifier(name);
const TIMEOUT = 60_000;

let db: TestDuckDb;
beforeAll(async () => {
  db = await openTestDuckDb();
  await db.exec('CREATE SCHEMA static; CREATE SCHEMA guard; CREATE TABLE guard.canary AS SELECT * FROM range(3) r(i)');
});
afterEach(async () => {
  expect(await db.rows('SELECT count(*)::INTEGER AS n FROM guard.canary')).toEqual([{ n: 3 }]);
});
afterAll(() => db.close());

/** Runs a query and its Show SQL form; both must give the same rows. */
async function runBoth(query: CompiledQuery) {
  const rows = await db.all(query);
  expect(await db.all({ sql: renderForDisplay(query), parameters: [] })).toEqual(rows);
  return rows;
}

describe('hostile text in pivots', () => {
  let table = 0;
  it(
    'stays in quoted identifiers and parameters, and pivots exactly',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          nastyName,
          nastyName,
          nastyName,
          fc.array(
            fc.record({
              r: fc.option(nasty, { nil: null }),
              c: fc.option(nasty, { nil: null }),
              n: fc.integer({ min: -3, max: 3 }),
            }),
            {
              maxLength: 8,
            },
          ),
          fc.boolean(),
          async (rowName, columnName, numberName, records, descending) => {
            // Prefixes keep the three names apart (DuckDB compares identifiers case-insensitively).
            const [r, c, n] = [`r${rowName}`, `c${columnName}`, `n${numberName}`];
            const name = `t_hostile_${(table += 1)}`;
            await db.exec(`CREATE TABLE static.${name} (${q(r)} VARCHAR, ${q(c)} VARCHAR, ${q(n)} INTEGER)`);
            if (records.length > 0) {
              const rows = records.map((_, index) => `($${index * 3 + 1}, $${index * 3 + 2}, $${index * 3 + 3})`);
              const values = records.flatMap((record) => [record.r, record.c, record.n]);
              await db.exec(`INSERT INTO static.${name} VALUES ${rows.join(', ')}`, values);
            }
            const columns: RelationColumn[] = [
              { columnKey: r, type: 'Text' },
              { columnKey: c, type: 'Text' },
              { columnKey: n, type: 'Number' },
            ];
            const pivot: PivotSpec = {
              rows: [{ column: r, sort: { direction: descending ? 'Descending' : 'Ascending' } }],
              columns: [{ column: c }],
              values: [{ column: n }, { column: c, function: 'CountUnique', showAs: 'PercentOfColumn' }],
              showRowTotals: true,
              showColumnTotals: true,
            };
            const relation = { kind: 'table' as const, schema: 'static', name };
            const keyRows = await runBoth(compilePivotColumnKeys({ relation, columns, pivot, limit: 200 }));
            const columnKeys = readPivotColumnKeys({ columns, pivot, rows: keyRows, limit: 200 });
            const { compiled, layout } = compilePivotQuery({
              relation,
              columns,
              pivot,
              columnKeys,
              page: { offset: 0, limit: 100 },
            });
            const rows = shapePivotRows(layout, await runBoth(compiled));

            const data: DataRow[] = records.map((record) => ({ [r]: record.r, [c]: record.c, [n]: record.n }));
            const expected = referencePivot(data, pivot);
            expect(columnKeys).toEqual(expected.columnKeys);
            expect(grid({ layout, rows })).toEqual(expected.grid);
            await db.exec(`DROP TABLE static.${name}`);
          },
        ),
        { numRuns: 60 },
      );
    },
    TIMEOUT,
  );
});
