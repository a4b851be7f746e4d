/**
 * The small sales table the pivot tests summarise, and a helper that runs a pivot end to end the
 * way the server does: key query, `readPivotColumnKeys`, pivot query, `shapePivotRows`.
 */
import type { PivotLayout, PivotRow } from '../../src/shared/pivots';
import type { Relation, RelationColumn, TableRelation } from '../../src/engine/ir';
import {
  compilePivotColumnKeys,
  compilePivotQuery,
  readPivotColumnKeys,
  shapePivotRows,
  type PivotSpec,
} from '../../src/engine/pivot';
import type { TestDuckDb } from './duckdb';

export const SALES: TableRelation = { kind: 'table', schema: 'static', name: 't_sales' };

export const SALES_COLUMNS: RelationColumn[] = [
  { columnKey: 'region', type: 'Text', displayName: 'Region' },
  { columnKey: 'city', type: 'Text', displayName: 'City' },
  { columnKey: 'product', type: 'Text' },
  { columnKey: 'year', type: 'Number', displayName: 'Year' },
  { columnKey: 'amount', type: 'Number', displayName: 'Amount' },
  { columnKey: 'qty', type: 'Number' },
  { columnKey: 'day', type: 'Date' },
  { columnKey: 'at', type: 'DateTime' },
  { columnKey: 'paid', type: 'Boolean' },
  { columnKey: 'tags', type: 'Array' },
  { columnKey: 'meta', type: 'Json' },
  { columnKey: 'we"ird; col', type: 'Text', displayName: 'Weird' },
];

/**
 * Sum of amount by region and year (the tests' main example):
 *   region  2023  2024  (null) | total
 *   East      -    -4     -    |  -4
 *   North    10    25     -    |  35
 *   South    10   null    -    |  10
 *   (null)    -     -     8    |   8
 *   total    20    21     8    |  49
 */
const SALES_SQL = `
CREATE SCHEMA IF NOT EXISTS static;
CREATE TABLE static.t_sales (
  region VARCHAR, city VARCHAR, product VARCHAR, year INTEGER, amount DOUBLE, qty BIGINT, day DATE,
  "at" TIMESTAMP, paid BOOLEAN, tags VARCHAR[], meta JSON, "we""ird; col" VARCHAR
);
INSERT INTO static.t_sales VALUES
  ('North', 'Oslo', 'A', 2023, 10, 1, '2023-01-05', '2023-01-05 10:00:00', true, ['x'], '{}', 'a'),
  ('North', 'Oslo', 'B', 2024, 20, 2, '2024-02-01', '2024-02-01 09:30:00.123456', false, [], '{}', 'b'),
  ('North', 'Bergen', 'A', 2024, 5, 1, '2024-03-10', '2024-03-10 00:00:00', true, NULL, NULL, 'a'),
  ('South', 'Rome', 'A', 2023, 7.5, 3, '2023-06-01', '2023-06-01 12:00:00', NULL, ['y'], '[]', 'c'),
  ('South', 'Rome', 'B', 2023, 2.5, 1, '2023-07-01', '2023-07-01 12:00:00', true, ['x'], '1', 'a'),
  ('South', 'Milan', 'B', 2024, NULL, 4, '2024-01-01', NULL, false, NULL, NULL, NULL),
  (NULL, 'Paris', 'A', NULL, 8, 2, NULL, '2022-12-31 23:59:59', true, NULL, NULL, 'b'),
  ('East', 'O''Brien; --', 'A', 2024, -4, NULL, '2024-12-31', '2024-12-31 23:00:00', true, NULL, NULL, 'c');
`;

export async function createSales(db: TestDuckDb): Promise<void> {
  await db.exec(SALES_SQL);
}

/** A pivot with both totals off and nothing else; tests spread what they need over it. */
export function pivotSpec(overrides: Partial<PivotSpec> = {}): PivotSpec {
  return {
    rows: [],
    columns: [],
    values: [],
    filters: [],
    showRowTotals: false,
    showColumnTotals: false,
    ...overrides,
  };
}

export interface PivotRun {
  layout: PivotLayout;
  rows: PivotRow[];
}

export async function runPivot(
  db: TestDuckDb,
  pivot: PivotSpec,
  page = { offset: 0, limit: 200 },
  source: { relation: Relation; columns: RelationColumn[] } = { relation: SALES, columns: SALES_COLUMNS },
): Promise<PivotRun> {
  const keyRows = await db.all(compilePivotColumnKeys({ ...source, pivot, limit: 200 }));
  const columnKeys = readPivotColumnKeys({ columns: source.columns, pivot, rows: keyRows, limit: 200 });
  const { compiled, layout } = compilePivotQuery({ ...source, pivot, columnKeys, page });
  return { layout, rows: shapePivotRows(layout, await db.all(compiled)) };
}

/** Rows as arrays of cells in layout order, numbers made numbers (DuckDB's JSON gives big integers as text). */
export function grid(run: PivotRun): unknown[][] {
  return run.rows.map((row) =>
    run.layout.columns.map((column) => {
      const value = row.cells[column.key];
      const numeric = column.kind !== 'row-field' && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value);
      return numeric ? Number(value) : value;
    }),
  );
}
