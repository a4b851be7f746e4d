import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderForDisplay } from '../../src/engine/display';
import type { FilterGroupSpec } from '../../src/engine/ir';
import { compileCountQuery, compilePageQuery } from '../../src/engine/table-query';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { FILTER_CASES } from './filter-cases';
import { createFixture, ids, withFilters, withGroups } from './fixture';

let db: TestDuckDb;

beforeAll(async () => {
  db = await openTestDuckDb();
  await createFixture(db);
});
afterAll(() => db.close());

describe('each filter on DuckDB', () => {
  it.each(FILTER_CASES.map((c) => [`${c.filter.columnKey} ${c.filter.operator} ${JSON.stringify(c.filter.value)}`, c]))(
    '%s',
    async (_title, c) => {
      const query = withFilters(c.filter);
      const page = compilePageQuery(query);
      expect(ids(await db.all(page))).toEqual(c.ids);
      expect(await db.all(compileCountQuery(query))).toEqual([{ count: String(c.ids.length) }]);
      // Show SQL runs as is and selects the same rows.
      expect(ids(await db.all({ sql: renderForDisplay(page), parameters: [] }))).toEqual(c.ids);
    },
  );

  it('leaves Exists and Empty complementary for every column', async () => {
    for (const columnKey of ['name', 'amount', 'active', 'born', 'seen', 'tags', 'meta', 'point', 'ref']) {
      const exists = ids(await db.all(compilePageQuery(withFilters({ columnKey, operator: 'Exists' }))));
      const empty = ids(await db.all(compilePageQuery(withFilters({ columnKey, operator: 'Empty' }))));
      expect([...exists, ...empty].sort(), columnKey).toEqual(
        ['1', '2', '3', '4', '5', '6', '7', '8'].map(Number).sort(),
      );
    }
  });
});

describe('filter groups on DuckDB', () => {
  const run = async (...groups: FilterGroupSpec[]): Promise<number[]> =>
    ids(await db.all(compilePageQuery(withGroups(...groups))));

  it('joins filters with Or by default', async () => {
    const filters: FilterGroupSpec['filters'] = [
      { columnKey: 'name', operator: 'Contains', value: 'alice' },
      { columnKey: 'amount', operator: 'GreaterThan', value: 50 },
    ];
    expect(await run({ filters })).toEqual([1, 5, 7, 8]);
  });

  it('joins filters with And when asked', async () => {
    const filters: FilterGroupSpec['filters'] = [
      { columnKey: 'name', operator: 'Contains', value: 'alice' },
      { columnKey: 'amount', operator: 'GreaterThan', value: 8, conditionOperator: 'And' },
    ];
    expect(await run({ filters })).toEqual([1]);
  });

  it('evaluates And before Or', async () => {
    const filters: FilterGroupSpec['filters'] = [
      { columnKey: 'active', operator: 'Equals', value: true },
      { columnKey: 'name', operator: 'Equals', value: 'bob', conditionOperator: 'Or' },
      { columnKey: 'amount', operator: 'Equals', value: -3, conditionOperator: 'And' },
    ];
    // Left to right, (active Or bob) And -3, would give [2] alone.
    expect(await run({ filters })).toEqual([1, 2, 4, 6, 8]);
  });

  it('intersects groups', async () => {
    expect(
      await run(
        { filters: [{ columnKey: 'active', operator: 'Equals', value: true }] },
        {
          filters: [
            { columnKey: 'amount', operator: 'GreaterThan', value: 5 },
            { columnKey: 'amount', operator: 'Empty', conditionOperator: 'Or' },
          ],
        },
      ),
    ).toEqual([1, 4, 8]);
  });
});
