/**
 * Date and DateTime fields grouped by a time grain, run on a real DuckDB: labels (`2024-W01`,
 * `2024-Q1`), ISO weeks from Monday (a Sunday belongs to the week before, the first days of January
 * may belong to the previous ISO year), quarter boundaries to the microsecond, nulls as their own
 * group sorted last, chronological order in both directions, and every sum checked against
 * DuckDB's own GROUP BY of `date_trunc`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../src/engine/errors';
import type { RelationColumn, TableRelation } from '../../src/engine/ir';
import { compilePivotQuery, type PivotSpec } from '../../src/engine/pivot';
import { PIVOT_TIME_GRAINS, type PivotTimeGrain } from '../../src/shared/pivots';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { grid, pivotSpec, runPivot } from './pivot-fixture';

const EVENTS: TableRelation = { kind: 'table', schema: 'static', name: 't_events' };
const COLUMNS: RelationColumn[] = [
  { columnKey: 'day', type: 'Date', displayName: 'Day' },
  { columnKey: 'at', type: 'DateTime', displayName: 'At' },
  { columnKey: 'amount', type: 'Number', displayName: 'Amount' },
  { columnKey: 'kind', type: 'Text', displayName: 'Kind' },
];
const source = { relation: EVENTS, columns: COLUMNS };

// Weekdays: 2021-01-03 Sun, 2023-12-31 Sun, 2024-01-01 Mon, 2024-01-07 Sun, 2024-01-08 Mon.
const EVENTS_SQL = `
CREATE SCHEMA IF NOT EXISTS static;
CREATE TABLE static.t_events (day DATE, "at" TIMESTAMP, amount DOUBLE, kind VARCHAR);
INSERT INTO static.t_events VALUES
  ('2021-01-03', '2021-01-03 12:00:00', 1, 'a'),
  ('2023-12-31', '2023-12-31 23:59:59.999999', 2, 'a'),
  ('2024-01-01', '2024-01-01 00:00:00', 4, 'b'),
  ('2024-01-07', '2024-01-07 23:30:00', 8, 'a'),
  ('2024-01-08', '2024-01-08 00:00:00', 16, 'b'),
  ('2024-03-31', '2024-03-31 23:59:59.999999', 32, 'a'),
  ('2024-04-01', '2024-04-01 00:00:00', 64, 'b'),
  (NULL, NULL, 128, 'a');
`;

let db: TestDuckDb;
beforeAll(async () => {
  db = await openTestDuckDb();
  await db.exec(EVENTS_SQL);
});
afterAll(() => db.close());

const byGrain = (column: string, grain: PivotTimeGrain, overrides: Partial<PivotSpec> = {}) =>
  pivotSpec({ rows: [{ column, grain }], values: [{ column: 'amount' }], ...overrides });

/** DuckDB's own answer: sum of amount per truncated value, labelled, in time order, nulls last. */
async function reference(column: string, grain: PivotTimeGrain): Promise<[string | null, number][]> {
  const start = `CAST(date_trunc('${grain}', "${column}") AS DATE)`;
  const label =
    grain === 'quarter'
      ? `strftime(${start}, '%Y') || '-Q' || quarter(${start})`
      : `strftime(${start}, '${{ day: '%Y-%m-%d', week: '%G-W%V', month: '%Y-%m', year: '%Y' }[grain]}')`;
  const rows = await db.rows(
    `SELECT ${label} AS label, sum(amount) AS total FROM static.t_events GROUP BY ${start} ORDER BY ${start} NULLS LAST`,
  );
  return rows.map((row) => [row.label as string | null, Number(row.total)]);
}

describe('pivot fields grouped by a time grain', () => {
  it('groups a Date row field by month: labels, time order, the null group last, the total', async () => {
    const run = await runPivot(db, byGrain('day', 'month', { showColumnTotals: true }), undefined, source);
    expect(run.layout.rowFields).toEqual([{ column: 'day', label: 'Day (Month)', grain: 'month' }]);
    expect(run.layout.columns[0]!.path).toEqual(['Day (Month)']);
    expect(grid(run)).toEqual([
      ['2021-01', 1],
      ['2023-12', 2],
      ['2024-01', 28],
      ['2024-03', 32],
      ['2024-04', 64],
      [null, 128],
      [null, 255],
    ]);
    expect(run.rows.map((row) => row.isTotal)).toEqual([false, false, false, false, false, false, true]);
  });

  it('groups by ISO week from Monday: a Sunday is in the week before, early January may be last year', async () => {
    const run = await runPivot(db, byGrain('day', 'week'), undefined, source);
    expect(grid(run)).toEqual([
      ['2020-W53', 1],
      ['2023-W52', 2],
      ['2024-W01', 12],
      ['2024-W02', 16],
      ['2024-W13', 32],
      ['2024-W14', 64],
      [null, 128],
    ]);
  });

  it('groups a DateTime (TIMESTAMP) column by quarter and week at the last microsecond of a boundary', async () => {
    const quarters = await runPivot(db, byGrain('at', 'quarter'), undefined, source);
    expect(grid(quarters)).toEqual([
      ['2021-Q1', 1],
      ['2023-Q4', 2],
      ['2024-Q1', 60],
      ['2024-Q2', 64],
      [null, 128],
    ]);
    const weeks = await runPivot(db, byGrain('at', 'week'), undefined, source);
    expect(grid(weeks).slice(2, 4)).toEqual([
      ['2024-W01', 12],
      ['2024-W02', 16],
    ]);
  });

  it.each(PIVOT_TIME_GRAINS.flatMap((grain) => [['day', grain] as const, ['at', grain] as const]))(
    'agrees with DuckDB grouping %s by %s',
    async (column, grain) => {
      const run = await runPivot(db, byGrain(column, grain), undefined, source);
      expect(grid(run)).toEqual(await reference(column, grain));
    },
  );

  it('sorts groups by time descending too, the null group still last', async () => {
    const pivot = pivotSpec({
      rows: [{ column: 'day', grain: 'year', sort: { direction: 'Descending' } }],
      values: [{ column: 'amount' }],
    });
    const run = await runPivot(db, pivot, undefined, source);
    expect(grid(run)).toEqual([
      ['2024', 124],
      ['2023', 2],
      ['2021', 1],
      [null, 128],
    ]);
  });

  it('makes column keys of a grained column field, in time order, each cell matching its label', async () => {
    const pivot = pivotSpec({
      rows: [{ column: 'kind' }],
      columns: [{ column: 'at', grain: 'quarter' }],
      values: [{ column: 'amount' }],
      showRowTotals: true,
    });
    const run = await runPivot(db, pivot, undefined, source);
    expect(run.layout.columnKeys).toEqual([['2021-Q1'], ['2023-Q4'], ['2024-Q1'], ['2024-Q2'], [null]]);
    expect(run.layout.columnFields).toEqual([{ column: 'at', label: 'At (Quarter)', grain: 'quarter' }]);
    expect(grid(run)).toEqual([
      ['a', 1, 2, 40, null, 128, 171],
      ['b', null, null, 20, 64, null, 84],
    ]);
  });

  it('nests a grained field under another and subtotals each group', async () => {
    const pivot = pivotSpec({
      rows: [
        { column: 'day', grain: 'year' },
        { column: 'day', grain: 'quarter' },
      ],
      values: [{ column: 'amount' }],
      showColumnTotals: true,
      filters: [{ column: 'day', operator: 'Exists' }],
    });
    const run = await runPivot(db, pivot, undefined, source);
    expect(grid(run)).toEqual([
      ['2021', '2021-Q1', 1],
      ['2021', null, 1],
      ['2023', '2023-Q4', 2],
      ['2023', null, 2],
      ['2024', '2024-Q1', 60],
      ['2024', '2024-Q2', 64],
      ['2024', null, 124],
      [null, null, 127],
    ]);
  });

  it('compiles the grain with date_trunc and binds nothing for it', () => {
    const { compiled } = compilePivotQuery({
      ...source,
      pivot: byGrain('day', 'week'),
      columnKeys: [],
      page: { offset: 0, limit: 10 },
    });
    expect(compiled.sql).toContain(`CAST(date_trunc('week', "day") AS DATE) AS "d0"`);
    expect(compiled.sql).toContain(`strftime(CAST(date_trunc('week', "day") AS DATE), '%G-W%V') AS "r0"`);
    expect(compiled.parameters).toEqual([]);
  });

  it('refuses a grain on a column that is not a date, and an unknown grain', () => {
    const attempt = (pivot: PivotSpec) => {
      try {
        compilePivotQuery({ ...source, pivot, columnKeys: [], page: { offset: 0, limit: 10 } });
      } catch (error) {
        if (error instanceof ModelError) return error;
        throw error;
      }
      throw new Error('compiled');
    };
    const onText = attempt(byGrain('kind', 'month'));
    expect(onText.code).toBe('grain_not_applicable');
    expect(onText.location).toEqual(['rows', 0, 'grain']);
    expect(onText.message).toBe('Rows: "Kind" is a Text column; only Date and DateTime fields group by month');
    const unknown = attempt(
      pivotSpec({ columns: [{ column: 'day', grain: 'hour' as PivotTimeGrain }], values: [{ column: 'amount' }] }),
    );
    expect(unknown.code).toBe('invalid_pivot');
    expect(unknown.location).toEqual(['columns', 0, 'grain']);
  });
});
