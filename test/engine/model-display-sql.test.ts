import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderForDisplay } from '../../src/engine/display';
import { compileModelView, displayAliases } from '../../src/engine/model';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { CUSTOMERS, ORDERS, createModelFixture, eq, fn, join, model, on, raw, sorted } from './model-fixture';

let db: TestDuckDb;

beforeAll(async () => {
  db = await openTestDuckDb();
  await createModelFixture(db);
});

afterAll(() => db.close());

describe('Show SQL names columns by their display names', () => {
  it('makes names unique (ignoring case, as DuckDB does) and falls back to the key', () => {
    expect(
      displayAliases([
        { columnKey: 'a', displayName: 'Amount' },
        { columnKey: 'b', displayName: 'amount' },
        { columnKey: 'c', displayName: 'Amount' },
        { columnKey: 'd', displayName: '  ' },
        { columnKey: 'e', displayName: 'Amount (2)' },
        { columnKey: 'f', displayName: 'say "hi"' },
      ]),
    ).toEqual(['Amount', 'amount (2)', 'Amount (3)', 'd', 'Amount (2) (2)', 'say "hi"']);
  });

  it('is the same query as the view: same rows, columns in the same order, only named for people', async () => {
    const spec = model({
      columns: [
        raw('zfkj', ORDERS, 'amount', { displayName: 'Amount' }),
        raw('qwer', CUSTOMERS, 'name', { displayName: 'Name' }),
        raw('asdf', ORDERS, 'customer_id', { displayName: 'customer_id' }),
        raw('ghjk', CUSTOMERS, 'id', { displayName: 'customer_id' }),
        fn('tttt', 'ROUND([zfkj] * 1.2, 2)', { displayName: 'With "tax"' }),
      ],
      joins: [join(ORDERS, CUSTOMERS, 'LeftOuter', on(eq('customer_id', 'id')))],
      filterGroups: [{ filters: [{ columnKey: 'zfkj', operator: 'GreaterThan', value: 5 }] }],
    });
    const byKey = compileModelView(spec);
    const shown = compileModelView(spec, { columnAliases: 'displayNames' });
    expect(shown.sql).toContain('"s1"."amount" AS "Amount"');
    expect(shown.sql).toContain('AS "customer_id",');
    expect(shown.sql).toContain('AS "customer_id (2)"');
    expect(shown.sql).toContain('AS "With ""tax"""');
    expect(shown.sql).not.toMatch(/AS "(zfkj|qwer|asdf|ghjk|tttt)"/);
    // The same text but for the names.
    const unnamed = (sql: string) => sql.replace(/ AS "(?:[^"]|"")*"(,?)$/gm, '$1');
    expect(unnamed(shown.sql)).toBe(unnamed(byKey.sql));

    const keyed = await db.all({ sql: renderForDisplay(byKey), parameters: [] });
    const named = await db.all({ sql: renderForDisplay(shown), parameters: [] });
    expect(keyed.length).toBe(4);
    const asKeys = named.map((row) => {
      const values = Object.values(row);
      return Object.fromEntries(['zfkj', 'qwer', 'asdf', 'ghjk', 'tttt'].map((k, i) => [k, values[i]]));
    });
    expect(Object.keys(named[0]!)).toEqual(['Amount', 'Name', 'customer_id', 'customer_id (2)', 'With "tax"']);
    expect(sorted(asKeys)).toEqual(sorted(keyed));
  });
});
