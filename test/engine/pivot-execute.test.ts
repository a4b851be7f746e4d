/** Pivots run on a real DuckDB over the sales fixture, with every number checked by hand. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Expr, SelectStatement } from '../../src/engine/sql-ast';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { createSales, grid, pivotSpec, runPivot } from './pivot-fixture';

let db: TestDuckDb;
beforeAll(async () => {
  db = await openTestDuckDb();
  await createSales(db);
});
afterAll(() => db.close());

const byRegionAndYear = pivotSpec({
  rows: [{ column: 'region' }],
  columns: [{ column: 'year' }],
  values: [{ column: 'amount' }],
});

describe('pivot grid on DuckDB', () => {
  it('makes a cell per column key and value, with both totals', async () => {
    const run = await runPivot(db, { ...byRegionAndYear, showRowTotals: true, showColumnTotals: true });
    expect(run.layout.columnKeys).toEqual([['2023'], ['2024'], [null]]);
    expect(run.layout.columns.map((column) => column.key)).toEqual(['r0', 'c0_v0', 'c1_v0', 'c2_v0', 'total_v0']);
    expect(run.layout.columns.map((column) => column.path)).toEqual([
      ['Region'],
      ['2023', 'Sum of Amount'],
      ['2024', 'Sum of Amount'],
      [null, 'Sum of Amount'],
      ['Total', 'Sum of Amount'],
    ]);
    expect(grid(run)).toEqual([
      ['East', null, -4, null, -4],
      ['North', 10, 25, null, 35],
      ['South', 10, null, null, 10],
      [null, null, null, 8, 8],
      [null, 20, 21, 8, 49],
    ]);
    expect(run.rows.map((row) => [row.level, row.isTotal])).toEqual([
      [1, false],
      [1, false],
      [1, false],
      [1, false],
      [0, true],
    ]);
  });

  it('leaves out the total column and the total row when they are off', async () => {
    const run = await runPivot(db, byRegionAndYear);
    expect(grid(run)).toEqual([
      ['East', null, -4, null],
      ['North', 10, 25, null],
      ['South', 10, null, null],
      [null, null, null, 8],
    ]);
  });

  it('adds a subtotal row after each group of an outer row field, and the grand total last', async () => {
    const run = await runPivot(
      db,
      pivotSpec({
        rows: [{ column: 'region' }, { column: 'city' }],
        values: [{ column: 'qty' }],
        showColumnTotals: true,
      }),
    );
    expect(grid(run)).toEqual([
      ['East', "O'Brien; --", null],
      ['East', null, null],
      ['North', 'Bergen', 1],
      ['North', 'Oslo', 3],
      ['North', null, 4],
      ['South', 'Milan', 4],
      ['South', 'Rome', 4],
      ['South', null, 8],
      [null, 'Paris', 2],
      [null, null, 2],
      [null, null, 14],
    ]);
    expect(run.rows.map((row) => row.level)).toEqual([2, 1, 2, 2, 1, 2, 2, 1, 2, 1, 0]);
  });

  it('computes each aggregation', async () => {
    const run = await runPivot(
      db,
      pivotSpec({
        rows: [{ column: 'region' }],
        values: [
          { column: 'amount', function: 'Count' },
          { column: 'product', function: 'CountUnique' },
          { column: 'amount', function: 'Sum' },
          { column: 'amount', function: 'Min' },
          { column: 'amount', function: 'Max' },
          { column: 'amount', function: 'Avg' },
          { column: 'city', function: 'Min' },
          { column: 'day', function: 'Max' },
        ],
        showColumnTotals: true,
      }),
    );
    expect(grid(run)).toEqual([
      ['East', 1, 1, -4, -4, -4, -4, "O'Brien; --", '2024-12-31'],
      ['North', 3, 2, 35, 5, 20, 35 / 3, 'Bergen', '2024-03-10'],
      ['South', 2, 2, 10, 2.5, 7.5, 5, 'Milan', '2024-01-01'],
      [null, 1, 1, 8, 8, 8, 8, 'Paris', null],
      [null, 7, 2, 49, -4, 20, 7, 'Bergen', '2024-12-31'],
    ]);
  });

  it('averages decimals as their exact sum over the count, rounded once', async () => {
    await db.exec(
      'CREATE TABLE static.t_cents (g VARCHAR, amount DECIMAL(38,6), whole BIGINT); ' +
        "INSERT INTO static.t_cents VALUES ('a', 0.1, 1), ('a', 0.2, 2), ('a', 0.3, 2), ('b', -99999999999999.999999, 9007199254740993), ('b', NULL, NULL);",
    );
    const run = await runPivot(
      db,
      pivotSpec({
        rows: [{ column: 'g' }],
        values: [
          { column: 'amount', function: 'Avg' },
          { column: 'whole', function: 'Avg' },
        ],
      }),
      { offset: 0, limit: 200 },
      {
        relation: { kind: 'table', schema: 'static', name: 't_cents' },
        columns: [
          { columnKey: 'g', type: 'Text' },
          { columnKey: 'amount', type: 'Number', sqlType: 'DECIMAL(38,6)' },
          { columnKey: 'whole', type: 'Number', sqlType: 'BIGINT' },
        ],
      },
    );
    // 0.1, 0.2 and 0.3 as doubles first would average 0.19999999999999998.
    expect(grid(run)).toEqual([
      ['a', 0.2, 5 / 3],
      ['b', -100000000000000, 9007199254740992],
    ]);
  });

  it('shows values as percentages of the row, the column and the grand total', async () => {
    const run = await runPivot(
      db,
      pivotSpec({
        rows: [{ column: 'region' }],
        columns: [{ column: 'year' }],
        values: [
          { column: 'amount', showAs: 'PercentOfRow' },
          { column: 'amount', showAs: 'PercentOfColumn' },
          { column: 'amount', showAs: 'PercentOfGrandTotal' },
        ],
        filters: [{ column: 'year', operator: 'Exists' }],
        showRowTotals: true,
      }),
    );
    // Sums: East 2024 -4; North 10 | 25; South 10 | null. Columns 2023: 20, 2024: 21; grand 41.
    expect(grid(run)).toEqual([
      ['East', null, null, null, 1, -4 / 21, -4 / 41, 1, -4 / 41, -4 / 41],
      ['North', 10 / 35, 0.5, 10 / 41, 25 / 35, 25 / 21, 25 / 41, 1, 35 / 41, 35 / 41],
      ['South', 1, 0.5, 10 / 41, null, null, null, 1, 10 / 41, 10 / 41],
    ]);
    expect(run.layout.values.map((value) => value.percent)).toEqual([true, true, true]);
  });

  it('gives null, not an error, when a percentage divides by zero', async () => {
    // Milan's only amount is null: its count is 0, and so are its row total and the grand total.
    const run = await runPivot(
      db,
      pivotSpec({
        rows: [{ column: 'city' }],
        values: [
          { column: 'amount', function: 'Count' },
          { column: 'amount', function: 'Count', showAs: 'PercentOfRow' },
          { column: 'amount', function: 'Count', showAs: 'PercentOfGrandTotal' },
        ],
        filters: [{ column: 'city', operator: 'Equals', value: 'Milan' }],
      }),
    );
    expect(grid(run)).toEqual([['Milan', 0, null, null]]);
  });

  it('applies the pivot filters, all of them', async () => {
    const run = await runPivot(
      db,
      pivotSpec({
        rows: [{ column: 'city' }],
        values: [{ column: 'amount', function: 'Count' }],
        filters: [
          { column: 'paid', operator: 'Equals', value: true },
          { column: 'day', operator: 'GreaterThanOrEquals', value: '2023-06-01' },
        ],
      }),
    );
    expect(grid(run)).toEqual([
      ['Bergen', 1],
      ["O'Brien; --", 1],
      ['Rome', 1],
    ]);
  });

  it('sorts row keys descending and by a value, nulls last, totals after their group', async () => {
    const descending = await runPivot(
      db,
      pivotSpec({ rows: [{ column: 'region', sort: { direction: 'Descending' } }], values: [{ column: 'qty' }] }),
    );
    expect(grid(descending).map((cells) => cells[0])).toEqual(['South', 'North', 'East', null]);

    const byValue = await runPivot(
      db,
      pivotSpec({
        rows: [
          { column: 'region', sort: { direction: 'Descending', valueIndex: 1 } },
          { column: 'city', sort: { direction: 'Ascending', valueIndex: 0 } },
        ],
        values: [{ column: 'amount' }, { column: 'qty', function: 'Count' }],
        showColumnTotals: true,
      }),
    );
    // Count of qty: North 3, South 3 (tie: by key), (null) 1, East 0. Within North by Sum of amount: Bergen 5, Oslo 30.
    expect(grid(byValue)).toEqual([
      ['North', 'Bergen', 5, 1],
      ['North', 'Oslo', 30, 2],
      ['North', null, 35, 3],
      ['South', 'Rome', 10, 2],
      ['South', 'Milan', null, 1],
      ['South', null, 10, 3],
      [null, 'Paris', 8, 1],
      [null, null, 8, 1],
      ['East', "O'Brien; --", -4, 0],
      ['East', null, -4, 0],
      [null, null, 49, 7],
    ]);
  });

  it('sorts column keys by key and by value', async () => {
    const descending = await runPivot(
      db,
      pivotSpec({ columns: [{ column: 'year', sort: { direction: 'Descending' } }], values: [{ column: 'qty' }] }),
    );
    expect(descending.layout.columnKeys).toEqual([['2024'], ['2023'], [null]]);
    expect(grid(descending)).toEqual([[7, 5, 2]]);

    const byValue = await runPivot(
      db,
      pivotSpec({
        columns: [{ column: 'region', sort: { direction: 'Descending', valueIndex: 0 } }, { column: 'paid' }],
        values: [{ column: 'amount' }],
      }),
    );
    expect(byValue.layout.columnKeys).toEqual([
      ['North', 'false'],
      ['North', 'true'],
      ['South', 'false'],
      ['South', 'true'],
      ['South', null],
      [null, 'true'],
      ['East', 'true'],
    ]);
  });

  it('pages the grid in chunks, totals included, never repeating a row', async () => {
    const pivot = pivotSpec({
      rows: [{ column: 'region' }, { column: 'city' }],
      values: [{ column: 'amount' }],
      showColumnTotals: true,
    });
    const all = grid(await runPivot(db, pivot));
    const pages: unknown[][] = [];
    for (let offset = 0; offset < all.length + 3; offset += 3) {
      pages.push(...grid(await runPivot(db, pivot, { offset, limit: 3 })));
    }
    expect(pages).toEqual(all);
  });

  it('lists the row keys of a pivot without values', async () => {
    const run = await runPivot(
      db,
      pivotSpec({
        rows: [{ column: 'product' }],
        columns: [{ column: 'year' }],
        showColumnTotals: true,
        showRowTotals: true,
      }),
    );
    expect(run.layout.columns.map((column) => column.key)).toEqual(['r0']);
    expect(grid(run)).toEqual([['A'], ['B']]);
  });

  it('returns one row of totals without row fields, and nothing for an empty pivot', async () => {
    const run = await runPivot(
      db,
      pivotSpec({ columns: [{ column: 'paid' }], values: [{ column: 'qty' }], showRowTotals: true }),
    );
    expect(run.layout.columnKeys).toEqual([['false'], ['true'], [null]]);
    expect(grid(run)).toEqual([[6, 5, 3, 14]]);
    expect(run.rows[0]).toMatchObject({ level: 0, isTotal: false });

    const empty = await runPivot(db, pivotSpec({ showRowTotals: true, showColumnTotals: true }));
    expect(empty.layout.columns).toEqual([]);
    expect(empty.rows).toEqual([]);
  });
});

describe('pivot over a SELECT relation (a draft model)', () => {
  it('reads the SELECT output columns as the model column keys', async () => {
    const column = (name: string): Expr => ({ kind: 'column', name });
    const statement: SelectStatement = {
      kind: 'select',
      items: [
        { expr: column('region'), alias: 'Area' },
        { expr: column('amount'), alias: 'Money' },
      ],
      from: { kind: 'table', schema: 'static', name: 't_sales' },
      where: { kind: 'is-null', expr: column('year'), negated: true },
      orderBy: [],
      limit: null,
      offset: null,
    };
    const run = await runPivot(
      db,
      pivotSpec({ rows: [{ column: 'Area' }], values: [{ column: 'Money', function: 'Max' }], showColumnTotals: true }),
      { offset: 0, limit: 200 },
      {
        relation: { kind: 'select', statement },
        columns: [
          { columnKey: 'Area', type: 'Text' },
          { columnKey: 'Money', type: 'Number' },
        ],
      },
    );
    expect(grid(run)).toEqual([
      ['East', -4],
      ['North', 20],
      ['South', 7.5],
      [null, 20],
    ]);
  });
});
