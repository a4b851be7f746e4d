/**
 * Small sources for the model tests: customers (an integration dataset), orders and countries
 * (static tables), notes (a model version), with nulls, an order of an unknown customer and a customer without
 * orders, so every join type keeps different rows.
 */
import type { ColumnType } from '../../src/shared/tables';
import type {
  JoinConditionSpec,
  JoinSpec,
  ModelColumnSpec,
  ModelJoinType,
  ModelSourceSpec,
  ModelSpec,
  SourceRef,
} from '../../src/engine/model';
import type { TestDuckDb } from './duckdb';

export const CUSTOMERS: SourceRef = { sourceId: 'cust', sourceType: 'IntegrationDataset' };
export const ORDERS: SourceRef = { sourceId: 'ord', sourceType: 'StaticTable' };
export const COUNTRIES: SourceRef = { sourceId: 'ctry', sourceType: 'StaticTable' };
export const NOTES: SourceRef = { sourceId: 'notes', sourceType: 'ModelVersion' };

const columns = (entries: Record<string, ColumnType>): ModelSourceSpec['columns'] =>
  Object.entries(entries).map(([columnKey, type]) => ({ columnKey, type }));

export const SOURCES: ModelSourceSpec[] = [
  {
    ...CUSTOMERS,
    displayName: 'Customers',
    relation: { kind: 'table', schema: 'data', name: 'customers' },
    columns: columns({ id: 'Number', name: 'Text', country: 'Text', signup: 'Date', score: 'Number' }),
  },
  {
    ...ORDERS,
    displayName: 'Orders',
    relation: { kind: 'table', schema: 'data', name: 'orders' },
    columns: columns({ order_id: 'Number', customer_id: 'Number', amount: 'Number', placed: 'DateTime', code: 'Text' }),
  },
  {
    ...COUNTRIES,
    displayName: 'Countries',
    relation: { kind: 'table', schema: 'data', name: 'countries' },
    columns: columns({ code: 'Text', label: 'Text' }),
  },
  {
    ...NOTES,
    displayName: 'Notes',
    relation: { kind: 'table', schema: 'data', name: 'notes' },
    columns: columns({ order_id: 'Number', note: 'Text' }),
  },
];

const FIXTURE_SQL = `
CREATE SCHEMA IF NOT EXISTS data;
CREATE TABLE data.customers (id BIGINT, name VARCHAR, country VARCHAR, signup DATE, score DOUBLE);
INSERT INTO data.customers VALUES
  (1, 'Alice', 'FR', '2024-01-15', 10.0),
  (2, 'Bob', 'DE', '2024-02-01', 20.5),
  (3, 'Chloé', 'FR', NULL, NULL),
  (4, 'Dan', NULL, '2024-02-20', 5);
CREATE TABLE data.orders (order_id BIGINT, customer_id BIGINT, amount DOUBLE, placed TIMESTAMP, code VARCHAR);
INSERT INTO data.orders VALUES
  (100, 1, 50.0, '2024-01-15 10:00:00', 'A1'),
  (101, 1, 25.5, '2024-02-03 12:00:00', '12'),
  (102, 2, 10.0, '2024-02-01 23:00:00', 'x'),
  (103, 5, 99.0, '2024-03-01 00:00:00', NULL),
  (104, NULL, 1.0, NULL, '7.5');
CREATE TABLE data.countries (code VARCHAR, label VARCHAR);
INSERT INTO data.countries VALUES ('FR', 'France'), ('DE', 'Germany'), ('IT', 'Italy');
CREATE TABLE data.notes (order_id BIGINT, note VARCHAR);
INSERT INTO data.notes VALUES (100, 'rush'), (102, 'gift');
`;

export async function createModelFixture(db: TestDuckDb): Promise<void> {
  await db.exec(FIXTURE_SQL);
}

let order = 0;

/** A raw model column reading `columnKey` of `source`, its model key `key`. */
export function raw(
  key: string,
  source: SourceRef,
  columnKey: string,
  extra: Partial<ModelColumnSpec> = {},
): ModelColumnSpec {
  return { columnKey: key, displayName: key, order: order++, sourceColumn: { ...source, columnKey }, ...extra };
}

export function fn(key: string, formula: string, extra: Partial<ModelColumnSpec> = {}): ModelColumnSpec {
  return { columnKey: key, displayName: key, order: order++, function: formula, ...extra };
}

export const on = (...conditions: JoinConditionSpec[]): JoinSpec['joinGroups'] => [{ conditions }];

export const eq = (leftColumnKey: string, rightColumnKey: string): JoinConditionSpec => ({
  leftColumnKey,
  operator: 'Equals',
  rightColumnKey,
});

export function join(
  leftTable: SourceRef,
  rightTable: SourceRef,
  joinType: ModelJoinType,
  joinGroups: JoinSpec['joinGroups'],
): JoinSpec {
  return { leftTable, rightTable, joinType, joinGroups };
}

export function model(overrides: Partial<ModelSpec>): ModelSpec {
  return { sources: SOURCES, columns: [], joins: [], filterGroups: [], sort: [], ...overrides };
}

/** Rows sorted by their JSON text, for comparing results whose order SQL does not fix. */
export function sorted<T>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}
