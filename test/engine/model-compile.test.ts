import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderForDisplay } from '../../src/engine/display';
import { compileModelSelect, compileModelView, modelRelation } from '../../src/engine/model';
import type { CompiledQuery, ResultRow } from '../../src/engine/sql';
import { compileCountQuery, compilePageQuery } from '../../src/engine/table-query';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { CUSTOMERS, NOTES, ORDERS, createModelFixture, eq, fn, join, model, on, raw, sorted } from './model-fixture';

const lines = (...parts: string[]): string => parts.join('\n');
const CUSTOMERS_FROM = 'FROM "data"."customers" AS "s1"';

let db: TestDuckDb;

beforeAll(async () => {
  db = await openTestDuckDb();
  await createModelFixture(db);
});

afterAll(() => db.close());

/** Runs the compiled model, and its Show SQL form, which must give the same rows. */
async function run(compiled: CompiledQuery): Promise<ResultRow[]> {
  const rows = await db.all(compiled);
  expect(await db.all({ sql: renderForDisplay(compiled), parameters: [] })).toEqual(rows);
  return rows;
}

/** Customer name and order id, joined on the customer id. */
describe('raw columns of one source', () => {
  it('select the source columns under their model keys, in `order`, converted where castTo says', async () => {
    const spec = model({
      columns: [
        raw('day', ORDERS, 'placed', { castTo: 'Date', order: 3 }),
        raw('id', ORDERS, 'order_id', { order: 1 }),
        raw('code_n', ORDERS, 'code', { castTo: 'Number', order: 2 }),
      ],
    });
    const compiled = compileModelSelect(spec);
    expect(compiled.columns).toEqual([
      { columnKey: 'id', type: 'Number', displayName: 'id' },
      // Converted to Number by TRY_CAST(.. AS DOUBLE): filters on it bind as for a DOUBLE.
      { columnKey: 'code_n', type: 'Number', displayName: 'code_n', sqlType: 'DOUBLE' },
      { columnKey: 'day', type: 'Date', displayName: 'day' },
    ]);
    const view = compileModelView(spec);
    expect(view).toEqual({
      sql: lines(
        'SELECT',
        '  "s1"."order_id" AS "id",',
        // Text is read as TO_NUMBER reads it: plain notation only.
        '  CASE WHEN ((trim("s1"."code") = \'Infinity\' OR trim("s1"."code") = \'-Infinity\' OR trim("s1"."code") = \'NaN\') OR (upper(replace(lower(trim("s1"."code")), \'e\', \'\')) = replace(lower(trim("s1"."code")), \'e\', \'\') AND replace("s1"."code", \'_\', \'\') = "s1"."code")) THEN TRY_CAST("s1"."code" AS DOUBLE) END AS "code_n",',
        '  TRY_CAST("s1"."placed" AS DATE) AS "day"',
        'FROM "data"."orders" AS "s1"',
      ),
      parameters: [],
    });
    expect(sorted(await run(view))).toEqual(
      sorted([
        { id: '100', code_n: null, day: '2024-01-15' },
        { id: '101', code_n: 12, day: '2024-02-03' },
        { id: '102', code_n: null, day: '2024-02-01' },
        { id: '103', code_n: null, day: '2024-03-01' },
        { id: '104', code_n: 7.5, day: null },
      ]),
    );
  });

  it('convert lists and JSON to Text as the grid shows them', () => {
    const spec = model({
      sources: [
        {
          ...NOTES,
          relation: { kind: 'table', schema: 'data', name: 'notes' },
          columns: [{ columnKey: 'tags', type: 'Array' }],
        },
      ],
      columns: [raw('t', NOTES, 'tags', { castTo: 'Text' })],
    });
    expect(compileModelView(spec).sql).toContain(`array_to_string("s1"."tags", ', ') AS "t"`);
  });
});

describe('function columns', () => {
  it('substitute the expressions of the columns they use, also of other function columns', async () => {
    const spec = model({
      columns: [
        fn('plus', '[double] + 1'),
        raw('amount', ORDERS, 'amount'),
        fn('double', '[amount] * 2'),
        fn('code', 'UPPER([c])', { castTo: 'Number' }),
        raw('c', ORDERS, 'code'),
      ],
    });
    const compiled = compileModelSelect(spec);
    expect(compiled.columns.map((column) => [column.columnKey, column.type])).toEqual([
      ['plus', 'Number'],
      ['amount', 'Number'],
      ['double', 'Number'],
      ['code', 'Number'],
      ['c', 'Text'],
    ]);
    const view = compileModelView(spec);
    expect(view.sql).toBe(
      lines(
        'SELECT',
        '  (("s1"."amount" * CAST($1 AS BIGINT)) + CAST($2 AS BIGINT)) AS "plus",',
        '  "s1"."amount" AS "amount",',
        '  ("s1"."amount" * CAST($3 AS BIGINT)) AS "double",',
        '  CASE WHEN ((trim(upper(CAST("s1"."code" AS VARCHAR))) = \'Infinity\' OR trim(upper(CAST("s1"."code" AS VARCHAR))) = \'-Infinity\' OR trim(upper(CAST("s1"."code" AS VARCHAR))) = \'NaN\') OR (upper(replace(lower(trim(upper(CAST("s1"."code" AS VARCHAR)))), \'e\', \'\')) = replace(lower(trim(upper(CAST("s1"."code" AS VARCHAR)))), \'e\', \'\') AND replace(upper(CAST("s1"."code" AS VARCHAR)), \'_\', \'\') = upper(CAST("s1"."code" AS VARCHAR)))) THEN TRY_CAST(upper(CAST("s1"."code" AS VARCHAR)) AS DOUBLE) END AS "code",',
        '  "s1"."code" AS "c"',
        'FROM "data"."orders" AS "s1"',
      ),
    );
    expect(view.parameters).toEqual([2, 1, 2]);
    const rows = await run(view);
    expect(sorted(rows.map((row) => [row['amount'], row['double'], row['plus'], row['code']]))).toEqual(
      sorted([
        [50, 100, 101, null],
        [25.5, 51, 52, 12],
        [10, 20, 21, null],
        [99, 198, 199, null],
        [1, 2, 3, 7.5],
      ]),
    );
  });
});

describe('model filters and sort', () => {
  const spec = model({
    columns: [
      raw('customer', CUSTOMERS, 'name'),
      raw('score', CUSTOMERS, 'score'),
      raw('order', ORDERS, 'order_id'),
      fn('big', '[score] * 10'),
    ],
    joins: [join(CUSTOMERS, ORDERS, 'LeftOuter', on(eq('id', 'customer_id')))],
    filterGroups: [
      {
        filters: [
          { columnKey: 'big', operator: 'GreaterThanOrEquals', value: 50 },
          { columnKey: 'customer', operator: 'Contains', value: 'ALI', conditionOperator: 'Or' },
        ],
      },
    ],
    sort: [{ columnKey: 'score', direction: 'Descending' }, { columnKey: 'order' }],
  });

  it('filter on the columns expressions and return the sort apart, as the default order', async () => {
    const compiled = compileModelSelect(spec);
    expect(compiled.defaultSorting).toEqual([
      { columnKey: 'score', direction: 'Descending' },
      { columnKey: 'order', direction: 'Ascending' },
    ]);
    const view = compileModelView(spec);
    expect(view).toEqual({
      sql: lines(
        'SELECT',
        '  "s1"."name" AS "customer",',
        '  "s1"."score" AS "score",',
        '  "s2"."order_id" AS "order",',
        '  ("s1"."score" * CAST($1 AS BIGINT)) AS "big"',
        CUSTOMERS_FROM,
        '  LEFT JOIN "data"."orders" AS "s2" ON "s1"."id" = "s2"."customer_id"',
        'WHERE (("s1"."score" * CAST($2 AS BIGINT)) >= CAST($3 AS BIGINT) OR contains(lower(CAST("s1"."name" AS VARCHAR)), lower($4)))',
      ),
      parameters: [10, 10, 50, 'ALI'],
    });
    expect(sorted(await run(view))).toEqual(
      sorted([
        { customer: 'Alice', score: 10, order: '100', big: 100 },
        { customer: 'Alice', score: 10, order: '101', big: 100 },
        { customer: 'Bob', score: 20.5, order: '102', big: 205 },
        { customer: 'Dan', score: 5, order: null, big: 50 },
      ]),
    );
  });

  it('page like a table: the model is the FROM subquery, its sort the order when the grid has none', async () => {
    const compiled = compileModelSelect(spec);
    const query = {
      source: modelRelation(compiled),
      columns: compiled.columns,
      rowKey: null,
      select: ['customer', 'order'],
      filterGroups: [{ filters: [{ columnKey: 'order', operator: 'Exists' as const }] }],
      sorting: compiled.defaultSorting,
      page: { page: 1, pageSize: 2 },
    };
    const page = compilePageQuery(query);
    expect(page.sql).toBe(
      lines(
        'SELECT',
        '  "customer",',
        '  "order"',
        'FROM (',
        '  SELECT',
        '    "s1"."name" AS "customer",',
        '    "s1"."score" AS "score",',
        '    "s2"."order_id" AS "order",',
        '    ("s1"."score" * CAST($1 AS BIGINT)) AS "big"',
        `  ${CUSTOMERS_FROM}`,
        '    LEFT JOIN "data"."orders" AS "s2" ON "s1"."id" = "s2"."customer_id"',
        '  WHERE (("s1"."score" * CAST($2 AS BIGINT)) >= CAST($3 AS BIGINT) OR contains(lower(CAST("s1"."name" AS VARCHAR)), lower($4)))',
        ') AS "model"',
        'WHERE "order" IS NOT NULL',
        'ORDER BY "score" DESC NULLS LAST, "order" ASC NULLS LAST, "customer" ASC NULLS LAST',
        'LIMIT 2 OFFSET 0',
      ),
    );
    expect(await run(page)).toEqual([
      { customer: 'Bob', order: '102' },
      { customer: 'Alice', order: '100' },
    ]);
    expect(await run(compilePageQuery({ ...query, page: { page: 2, pageSize: 2 } }))).toEqual([
      { customer: 'Alice', order: '101' },
    ]);
    expect(await db.all(compileCountQuery(query))).toEqual([{ count: '3' }]);
  });
});

describe('the view', () => {
  it('is created from the Show SQL text (values inlined) and reads the same rows', async () => {
    const spec = model({
      columns: [
        raw('customer', CUSTOMERS, 'name'),
        raw('order', ORDERS, 'order_id'),
        fn('label', `[customer] & ' #' & 'x''y'`),
      ],
      joins: [
        join(
          CUSTOMERS,
          ORDERS,
          'Inner',
          on(eq('id', 'customer_id'), { leftValue: 0, operator: 'LessThan', rightColumnKey: 'amount' }),
        ),
      ],
      filterGroups: [{ filters: [{ columnKey: 'customer', operator: 'NotEquals', value: "O'Brien" }] }],
    });
    const compiled = compileModelView(spec);
    await db.exec('CREATE SCHEMA IF NOT EXISTS model');
    await db.exec(`CREATE VIEW model.v_1 AS ${renderForDisplay(compiled)}`);
    const fromView = await db.rows('SELECT * FROM model.v_1');
    expect(sorted(fromView)).toEqual(sorted(await db.all(compiled)));
    expect(sorted(fromView)).toEqual(
      sorted([
        { customer: 'Alice', order: '100', label: "Alice #x'y" },
        { customer: 'Alice', order: '101', label: "Alice #x'y" },
        { customer: 'Bob', order: '102', label: "Bob #x'y" },
      ]),
    );
  });
});
