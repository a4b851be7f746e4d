/**
 * The small table the engine's tests query: every column type, with nulls, empty values, unicode,
 * quotes and SQL-looking text. Expected row ids in the tests refer to the `_row_id` values here.
 */
import type { FilterGroupSpec, FilterSpec, RelationColumn, TableQuery } from '../../src/engine/ir';
import type { TestDuckDb } from './duckdb';

export const COLUMNS: RelationColumn[] = [
  { columnKey: 'name', type: 'Text', displayName: 'Name' },
  { columnKey: 'amount', type: 'Number' },
  { columnKey: 'qty', type: 'Number' },
  { columnKey: 'active', type: 'Boolean' },
  { columnKey: 'born', type: 'Date' },
  { columnKey: 'seen', type: 'DateTime' },
  { columnKey: 'tags', type: 'Array' },
  { columnKey: 'meta', type: 'Json' },
  { columnKey: 'point', type: 'Json' },
  { columnKey: 'ref', type: 'Text' },
];

export const ALL_IDS = [1, 2, 3, 4, 5, 6, 7, 8];

const FIXTURE_SQL = `
CREATE SCHEMA IF NOT EXISTS static;
CREATE TABLE static.t_fixture (
  _row_id INTEGER, name VARCHAR, amount DOUBLE, qty BIGINT, active BOOLEAN, born DATE, seen TIMESTAMP,
  tags VARCHAR[], meta JSON, point STRUCT(x INTEGER, label VARCHAR), ref UUID
);
INSERT INTO static.t_fixture VALUES
  (1, 'Alice', 10.5, 3, true, '1990-01-15', '2024-03-01 10:00:00', ['red', 'blue'], '{"city":"Paris"}',
   {'x': 1, 'label': 'Home'}, '00000000-0000-0000-0000-000000000001'),
  (2, 'bob', -3, 7, false, '1985-12-31', '2024-03-01 23:59:59.999', [], '[1,2]',
   NULL, '00000000-0000-0000-0000-000000000002'),
  (3, 'Ünïcödé 漢字 😀', 0, 0, NULL, '2000-02-29', '2024-03-02 00:00:00', ['Green'], 'null',
   {'x': 3, 'label': NULL}, NULL),
  (4, '', NULL, NULL, true, NULL, NULL, NULL, NULL, NULL, '00000000-0000-0000-0000-000000000004'),
  (5, NULL, 1000000, 4000000000, false, '2024-03-01', '2024-02-29 23:00:00', ['red'], '{"note":"it''s"}',
   NULL, '00000000-0000-0000-0000-000000000005'),
  (6, 'O''Brien; DROP TABLE static.t_fixture; --', 2.25, 100, true, '1970-01-01', '2023-12-31 12:30:00.123456',
   ['it''s', 'a;b'], '{"nested":{"Deep":true}}', NULL, '00000000-0000-0000-0000-000000000006'),
  (7, '100% _sure_', 100, -5, false, '2024-02-29', '2024-03-01 00:00:00', ['100%'], '"text"',
   NULL, '00000000-0000-0000-0000-000000000007'),
  (8, 'ALICE', 7, 12, true, '2099-12-31', '2025-01-01 00:00:00', ['ALICE', 'bob'], '{}',
   NULL, '00000000-0000-0000-0000-000000000008');
`;

export async function createFixture(db: TestDuckDb): Promise<void> {
  await db.exec(FIXTURE_SQL);
}

export function tableQuery(overrides: Partial<TableQuery> = {}): TableQuery {
  return {
    source: { kind: 'table', schema: 'static', name: 't_fixture' },
    columns: COLUMNS,
    rowKey: '_row_id',
    select: ['_row_id'],
    filterGroups: [],
    sorting: [],
    page: { page: 1, pageSize: 50 },
    ...overrides,
  };
}

/** A query with one filter group. */
export function withFilters(...filters: FilterSpec[]): TableQuery {
  return tableQuery({ filterGroups: [{ filters }] });
}

export function withGroups(...groups: FilterGroupSpec[]): TableQuery {
  return tableQuery({ filterGroups: groups });
}

/** The `_row_id`s of result rows, as numbers. */
export function ids(rows: readonly Record<string, unknown>[]): number[] {
  return rows.map((row) => Number(row['_row_id']));
}
