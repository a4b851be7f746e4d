/**
 * Whole numbers past 2^53 and exact types elsewhere than table filters: model joins on BIGINT keys
 * and between two different exact types (which DuckDB alone would compare through a conversion
 * that fails on large values), join value sides, model filters on raw columns, sorting and pivot
 * grouping. Keys differ only past 2^53, so a double anywhere would merge them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelationColumn } from '../../src/engine/ir';
import { compileModelView, type ModelSourceSpec, type ModelSpec, type SourceRef } from '../../src/engine/model';
import { compilePageQuery } from '../../src/engine/table-query';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { eq, join, on, raw } from './model-fixture';
import { grid, pivotSpec, runPivot } from './pivot-fixture';

let db: TestDuckDb;

const LEFT: SourceRef = { sourceId: 'left', sourceType: 'StaticTable' };
const RIGHT: SourceRef = { sourceId: 'right', sourceType: 'IntegrationDataset' };

const FIXTURE = `
CREATE SCHEMA data;
CREATE TABLE data.keys (
  name VARCHAR, big BIGINT, huge HUGEINT, uhuge UHUGEINT, dec38 DECIMAL(38,20), dec20 DECIMAL(20,2), ratio DOUBLE, label VARCHAR
);
INSERT INTO data.keys VALUES
  ('a', 9007199254740992, 9007199254740992, 9007199254740992, 1.5, 9007199254740992.00, 100.0, '100'),
  ('b', 9007199254740993, 9007199254740993, 340282366920938463463374607431768211455, 99999999999999999.99999999999999999999, 12.50, 1e17, '100000000000000000'),
  ('c', 9007199254740994, 170141183460469231731687303715884105727, 0, -2.25, -2.25, 0.5, 'x'),
  ('d', 9223372036854775807, NULL, NULL, NULL, NULL, NULL, NULL);
CREATE TABLE data.other (name VARCHAR, big BIGINT, huge HUGEINT, dec20 DECIMAL(20,2), dec38 DECIMAL(38,20), label VARCHAR);
INSERT INTO data.other VALUES
  ('A', 9007199254740993, 9007199254740992, 12.5, 1.5, '100'),
  ('B', 9223372036854775807, -1, -2.25, -2.25, '100000000000000000'),
  ('C', 9007199254740992, 9007199254740993, 9007199254740992, 9007199254740993, 'x');
`;

beforeAll(async () => {
  db = await openTestDuckDb();
  await db.exec(FIXTURE);
});
afterAll(() => db.close());

const number = (columnKey: string, sqlType: string): RelationColumn => ({ columnKey, type: 'Number', sqlType });
const KEYS_COLUMNS: RelationColumn[] = [
  { columnKey: 'name', type: 'Text' },
  number('big', 'BIGINT'),
  number('huge', 'HUGEINT'),
  number('uhuge', 'UHUGEINT'),
  number('dec38', 'DECIMAL(38,20)'),
  number('dec20', 'DECIMAL(20,2)'),
  number('ratio', 'DOUBLE'),
  { columnKey: 'label', type: 'Text' },
];
const OTHER_COLUMNS: RelationColumn[] = [
  { columnKey: 'name', type: 'Text' },
  number('big', 'BIGINT'),
  number('huge', 'HUGEINT'),
  number('dec20', 'DECIMAL(20,2)'),
  number('dec38', 'DECIMAL(38,20)'),
  { columnKey: 'label', type: 'Text' },
];

const SOURCES: ModelSourceSpec[] = [
  { ...LEFT, displayName: 'Keys', relation: { kind: 'table', schema: 'data', name: 'keys' }, columns: KEYS_COLUMNS },
  {
    ...RIGHT,
    displayName: 'Other',
    relation: { kind: 'table', schema: 'data', name: 'other' },
    columns: OTHER_COLUMNS,
  },
];

function spec(overrides: Partial<ModelSpec>): ModelSpec {
  return {
    sources: SOURCES,
    columns: [raw('left', LEFT, 'name'), raw('right', RIGHT, 'name')],
    joins: [],
    filterGroups: [],
    sort: [],
    ...overrides,
  };
}

/** The pairs of names a join makes, sorted. */
async function pairs(model: ModelSpec): Promise<string[]> {
  const view = compileModelView(model);
  const rows = await db.all(view);
  return rows.map((row) => `${String(row['left'])}${String(row['right'])}`).sort();
}

const inner = (...conditions: Parameters<typeof on>) => [join(LEFT, RIGHT, 'Inner', on(...conditions))];

describe('model joins on exact keys', () => {
  it('matches BIGINT keys that differ only past 2^53 one to one', async () => {
    expect(await pairs(spec({ joins: inner(eq('big', 'big')) }))).toEqual(['aC', 'bA', 'dB']);
  });

  it('orders BIGINT keys exactly', async () => {
    const joins = inner({ leftColumnKey: 'big', operator: 'LessThan', rightColumnKey: 'big' });
    expect(await pairs(spec({ joins }))).toEqual(['aA', 'aB', 'bB', 'cB']);
  });

  it('compares a HUGEINT with a DECIMAL(20,2) without a conversion error, exactly', async () => {
    expect(await pairs(spec({ joins: inner(eq('huge', 'dec20')) }))).toEqual(['aC']);
    const joins = inner({ leftColumnKey: 'huge', operator: 'NotEquals', rightColumnKey: 'dec20' });
    expect(await pairs(spec({ joins }))).toEqual(['aA', 'aB', 'bA', 'bB', 'bC', 'cA', 'cB', 'cC']);
  });

  it('compares a BIGINT with a DECIMAL(38,20) holding only 18 whole digits', async () => {
    expect(await pairs(spec({ joins: inner(eq('big', 'dec38')) }))).toEqual(['bC']);
  });

  it('compares a UHUGEINT with a HUGEINT as the whole numbers they are', async () => {
    expect(await pairs(spec({ joins: inner(eq('uhuge', 'huge')) }))).toEqual(['aA']);
    const joins = inner({ leftColumnKey: 'uhuge', operator: 'GreaterThan', rightColumnKey: 'huge' });
    expect(await pairs(spec({ joins }))).toEqual(['aB', 'bA', 'bB', 'bC', 'cB']);
  });

  it('compares DECIMALs of different scales exactly', async () => {
    expect(await pairs(spec({ joins: inner(eq('dec20', 'dec38')) }))).toEqual(['cB']);
    expect(await pairs(spec({ joins: inner(eq('dec38', 'dec20')) }))).toEqual(['cB']);
  });

  it('binds a value side in the column type, with every digit', async () => {
    const joins = [
      join(LEFT, RIGHT, 'Inner', [
        {
          conditions: [eq('big', 'big'), { leftColumnKey: 'big', operator: 'Equals', rightValue: '9007199254740993' }],
        },
      ]),
    ];
    expect(await pairs(spec({ joins }))).toEqual(['bA']);
    const between = [
      join(LEFT, RIGHT, 'Inner', [
        {
          conditions: [
            eq('big', 'big'),
            { leftValue: '9007199254740992.5', operator: 'LessThan', rightColumnKey: 'big' },
          ],
        },
      ]),
    ];
    expect(await pairs(spec({ joins: between }))).toEqual(['bA', 'dB']);
    const never = [
      join(LEFT, RIGHT, 'Inner', [
        { conditions: [eq('big', 'big'), { leftColumnKey: 'dec20', operator: 'Equals', rightValue: '12.505' }] },
      ]),
    ];
    expect(await pairs(spec({ joins: never }))).toEqual([]);
  });

  it('joins a number with text as the grid shows the number', async () => {
    // ratio 100.0 and 1e17 are "100" and "100000000000000000" on screen, and so in the join.
    expect(await pairs(spec({ joins: inner(eq('ratio', 'label')) }))).toEqual(['aA', 'bB']);
  });
});

describe('model filters, sorting and pivots on exact columns', () => {
  it('filters a raw BIGINT model column with every digit', async () => {
    const model = spec({
      columns: [raw('left', LEFT, 'name'), raw('key', LEFT, 'big')],
      filterGroups: [{ filters: [{ columnKey: 'key', operator: 'GreaterThan', value: '9007199254740992.5' }] }],
    });
    const view = compileModelView(model);
    expect(view.sql).toContain('WHERE "s1"."big" >= CAST($1 AS BIGINT)');
    expect(view.parameters).toEqual([9007199254740993n]);
    expect((await db.all(view)).map((row) => row['left']).sort()).toEqual(['b', 'c', 'd']);
  });

  it('sorts BIGINT and HUGEINT values that differ only past 2^53', async () => {
    const page = (columnKey: string, direction: 'Ascending' | 'Descending') =>
      compilePageQuery({
        source: { kind: 'table', schema: 'data', name: 'keys' },
        columns: KEYS_COLUMNS,
        rowKey: null,
        select: ['name'],
        filterGroups: [],
        sorting: [{ columnKey, direction }],
        page: { page: 1, pageSize: 10 },
      });
    const names = async (columnKey: string, direction: 'Ascending' | 'Descending') =>
      (await db.all(page(columnKey, direction))).map((row) => row['name']);
    expect(await names('big', 'Descending')).toEqual(['d', 'c', 'b', 'a']);
    expect(await names('huge', 'Descending')).toEqual(['c', 'b', 'a', 'd']);
  });

  it('groups a pivot by BIGINT values that differ only past 2^53, keys as exact text', async () => {
    const source = { relation: { kind: 'table' as const, schema: 'data', name: 'keys' }, columns: KEYS_COLUMNS };
    const byBig = await runPivot(
      db,
      pivotSpec({ rows: [{ column: 'big' }], values: [{ column: 'huge', function: 'Count' }] }),
      undefined,
      source,
    );
    // Row keys come back as the exact text of each value (the test runner's JSON makes BIGINTs text).
    expect(grid(byBig)).toEqual([
      ['9007199254740992', 1],
      ['9007199254740993', 1],
      ['9007199254740994', 1],
      ['9223372036854775807', 0],
    ]);
    const columns = await runPivot(
      db,
      pivotSpec({ columns: [{ column: 'big' }], values: [{ column: 'name', function: 'Count' }] }),
      undefined,
      source,
    );
    expect(columns.layout.columnKeys).toEqual([
      ['9007199254740992'],
      ['9007199254740993'],
      ['9007199254740994'],
      ['9223372036854775807'],
    ]);
    expect(grid(columns)).toEqual([[1, 1, 1, 1]]);
    const filtered = await runPivot(
      db,
      pivotSpec({
        rows: [{ column: 'name' }],
        values: [{ column: 'big', function: 'Count' }],
        filters: [{ column: 'big', operator: 'GreaterThan', value: '9007199254740993' }],
      }),
      undefined,
      source,
    );
    expect(grid(filtered)).toEqual([
      ['c', 1],
      ['d', 1],
    ]);
  });
});
