import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderForDisplay } from '../../src/engine/display';
import { duckdbDialect } from '../../src/engine/dialects/duckdb';
import { compileModelView, type ModelSpec } from '../../src/engine/model';
import type { CompiledQuery, ResultRow } from '../../src/engine/sql';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import {
  COUNTRIES,
  CUSTOMERS,
  NOTES,
  ORDERS,
  createModelFixture,
  eq,
  join,
  model,
  on,
  raw,
  sorted,
} from './model-fixture';

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
const customerOrders = (joinType: ModelSpec['joins'][number]['joinType']): ModelSpec =>
  model({
    columns: [raw('customer', CUSTOMERS, 'name'), raw('order', ORDERS, 'order_id')],
    joins: [join(CUSTOMERS, ORDERS, joinType, on(eq('id', 'customer_id')))],
  });

describe('joins', () => {
  const inner = [
    { customer: 'Alice', order: '100' },
    { customer: 'Alice', order: '101' },
    { customer: 'Bob', order: '102' },
  ];
  const customersWithout = [
    { customer: 'Chloé', order: null },
    { customer: 'Dan', order: null },
  ];
  const ordersWithout = [
    { customer: null, order: '103' },
    { customer: null, order: '104' },
  ];

  it('LeftOuter keeps every row of the left table', async () => {
    const view = compileModelView(customerOrders('LeftOuter'));
    expect(view).toEqual({
      sql: lines(
        'SELECT',
        '  "s1"."name" AS "customer",',
        '  "s2"."order_id" AS "order"',
        CUSTOMERS_FROM,
        '  LEFT JOIN "data"."orders" AS "s2" ON "s1"."id" = "s2"."customer_id"',
      ),
      parameters: [],
    });
    expect(sorted(await run(view))).toEqual(sorted([...inner, ...customersWithout]));
  });

  it.each([
    ['Inner', 'INNER JOIN', inner],
    ['RightOuter', 'RIGHT JOIN', [...inner, ...ordersWithout]],
    ['FullOuter', 'FULL JOIN', [...inner, ...customersWithout, ...ordersWithout]],
  ] as const)('%s joins with %s', async (joinType, keyword, rows) => {
    const view = compileModelView(customerOrders(joinType));
    expect(view.sql).toContain(`\n  ${keyword} "data"."orders" AS "s2" ON "s1"."id" = "s2"."customer_id"`);
    expect(sorted(await run(view))).toEqual(sorted(rows));
  });

  it('binds value sides as parameters of the other side type, ANDs conditions and ORs groups', async () => {
    const spec = model({
      columns: [raw('customer', CUSTOMERS, 'name'), raw('order', ORDERS, 'order_id')],
      joins: [
        join(CUSTOMERS, ORDERS, 'Inner', [
          { conditions: [eq('id', 'customer_id'), { leftValue: 20, operator: 'LessThan', rightColumnKey: 'amount' }] },
          {
            conditions: [
              { leftColumnKey: 'name', operator: 'Equals', rightValue: 'Dan' },
              { leftValue: '104', operator: 'Equals', rightColumnKey: 'order_id' },
            ],
          },
        ]),
      ],
    });
    const view = compileModelView(spec);
    expect(view).toEqual({
      sql: lines(
        'SELECT',
        '  "s1"."name" AS "customer",',
        '  "s2"."order_id" AS "order"',
        CUSTOMERS_FROM,
        '  INNER JOIN "data"."orders" AS "s2" ON (("s1"."id" = "s2"."customer_id" AND "s2"."amount" > CAST($1 AS BIGINT)) ' +
          'OR (CAST("s1"."name" AS VARCHAR) = $2 AND "s2"."order_id" = CAST($3 AS BIGINT)))',
      ),
      parameters: [20, 'Dan', 104],
    });
    expect(sorted(await run(view))).toEqual(
      sorted([
        { customer: 'Alice', order: '100' },
        { customer: 'Alice', order: '101' },
        { customer: 'Dan', order: '104' },
      ]),
    );
  });

  it('matches numbers within a tolerance', async () => {
    const spec = model({
      columns: [raw('customer', CUSTOMERS, 'name'), raw('order', ORDERS, 'order_id')],
      joins: [
        join(CUSTOMERS, ORDERS, 'Inner', [
          { conditions: [{ ...eq('score', 'amount'), format: { tolerance: 5 } }] },
          { conditions: [{ leftColumnKey: 'id', operator: 'NotEquals', rightValue: 3, format: { tolerance: 0.5 } }] },
        ]),
      ],
      filterGroups: [{ filters: [{ columnKey: 'order', operator: 'LessThan', value: 103 }] }],
    });
    const view = compileModelView(spec);
    expect(view.sql).toContain(
      'ON (coalesce(TRY(abs("s1"."score" - "s2"."amount")), abs(CAST("s1"."score" AS DOUBLE) - CAST("s2"."amount" AS DOUBLE))) <= CAST($1 AS DOUBLE) ' +
        'OR coalesce(TRY(abs("s1"."id" - CAST($2 AS BIGINT))), abs(CAST("s1"."id" AS DOUBLE) - CAST(CAST($3 AS BIGINT) AS DOUBLE))) > CAST($4 AS DOUBLE))',
    );
    expect(view.parameters).toEqual([5, 3, 3, 0.5, 103]);
    const rows = await run(view);
    // Within 5: Alice 10 ~ 102 (10), Bob 20.5 ~ 101 (25.5), Dan 5 ~ 102 (10); customers other than 3 match all.
    const expected = ['Alice', 'Bob', 'Dan'].flatMap((customer) =>
      ['100', '101', '102'].map((order) => ({ customer, order })),
    );
    expect(sorted(rows)).toEqual(sorted(expected));
  });

  it.each([
    [
      'day',
      [
        ['Alice', '100'],
        ['Bob', '102'],
      ],
    ],
    [
      'month',
      [
        ['Alice', '100'],
        ['Bob', '101'],
        ['Bob', '102'],
        ['Dan', '101'],
        ['Dan', '102'],
      ],
    ],
  ] as const)('compares dates truncated to a %s', async (grain, pairs) => {
    const spec = model({
      columns: [raw('customer', CUSTOMERS, 'name'), raw('order', ORDERS, 'order_id')],
      joins: [join(CUSTOMERS, ORDERS, 'Inner', on({ ...eq('signup', 'placed'), format: { datePrecision: grain } }))],
    });
    const view = compileModelView(spec);
    expect(view.sql).toContain(`ON date_trunc('${grain}', "s1"."signup") = date_trunc('${grain}', "s2"."placed")`);
    expect(sorted(await run(view))).toEqual(sorted(pairs.map(([customer, order]) => ({ customer, order }))));
  });

  it('compares columns of different types as text', async () => {
    const spec = model({
      columns: [raw('order', ORDERS, 'order_id'), raw('note', NOTES, 'note')],
      sources: model({}).sources.map((source) =>
        source.sourceId === 'notes'
          ? {
              ...source,
              columns: [
                { columnKey: 'order_id', type: 'Text' as const },
                { columnKey: 'note', type: 'Text' as const },
              ],
            }
          : source,
      ),
      joins: [join(ORDERS, NOTES, 'Inner', on(eq('order_id', 'order_id')))],
    });
    const view = compileModelView(spec);
    // The number as the grid shows it (`100`, never `100.0`), against the other side's text.
    expect(view.sql).toContain(
      `ON ${duckdbDialect.numberToText('"s1"."order_id"')} = CAST("s2"."order_id" AS VARCHAR)`,
    );
    expect(sorted(await run(view))).toEqual([
      { order: '100', note: 'rush' },
      { order: '102', note: 'gift' },
    ]);
  });

  it('places a join whose left table is new by turning it around, keeping its meaning', async () => {
    const spec = model({
      columns: [
        raw('order', ORDERS, 'order_id'),
        raw('customer', CUSTOMERS, 'name'),
        raw('country', COUNTRIES, 'label'),
      ],
      joins: [
        join(ORDERS, CUSTOMERS, 'LeftOuter', on(eq('customer_id', 'id'))),
        // Every country, with the orders of its customers: countries LEFT JOIN (orders + customers).
        join(COUNTRIES, CUSTOMERS, 'LeftOuter', on(eq('code', 'country'))),
      ],
    });
    const view = compileModelView(spec);
    expect(view.sql).toBe(
      lines(
        'SELECT',
        '  "s1"."order_id" AS "order",',
        '  "s2"."name" AS "customer",',
        '  "s3"."label" AS "country"',
        'FROM "data"."orders" AS "s1"',
        '  LEFT JOIN "data"."customers" AS "s2" ON "s1"."customer_id" = "s2"."id"',
        '  RIGHT JOIN "data"."countries" AS "s3" ON CAST("s3"."code" AS VARCHAR) = CAST("s2"."country" AS VARCHAR)',
      ),
    );
    expect(sorted(await run(view))).toEqual(
      sorted([
        { order: '100', customer: 'Alice', country: 'France' },
        { order: '101', customer: 'Alice', country: 'France' },
        { order: '102', customer: 'Bob', country: 'Germany' },
        { order: null, customer: null, country: 'Italy' },
      ]),
    );
  });

  it('places a join that reaches the tree only through a later one after it, aliases in placement order', async () => {
    const spec = model({
      columns: [raw('customer', CUSTOMERS, 'name'), raw('note', NOTES, 'note'), raw('country', COUNTRIES, 'label')],
      joins: [
        join(CUSTOMERS, COUNTRIES, 'Inner', on(eq('country', 'code'))),
        join(ORDERS, NOTES, 'Inner', on(eq('order_id', 'order_id'))),
        join(CUSTOMERS, ORDERS, 'Inner', on(eq('id', 'customer_id'))),
      ],
    });
    const view = compileModelView(spec);
    expect(view.sql).toBe(
      lines(
        'SELECT',
        '  "s1"."name" AS "customer",',
        '  "s4"."note" AS "note",',
        '  "s2"."label" AS "country"',
        CUSTOMERS_FROM,
        '  INNER JOIN "data"."countries" AS "s2" ON CAST("s1"."country" AS VARCHAR) = CAST("s2"."code" AS VARCHAR)',
        '  INNER JOIN "data"."orders" AS "s3" ON "s1"."id" = "s3"."customer_id"',
        '  INNER JOIN "data"."notes" AS "s4" ON "s3"."order_id" = "s4"."order_id"',
      ),
    );
    expect(sorted(await run(view))).toEqual(
      sorted([
        { customer: 'Alice', note: 'rush', country: 'France' },
        { customer: 'Bob', note: 'gift', country: 'Germany' },
      ]),
    );
  });
});
