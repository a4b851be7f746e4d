import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableQuery } from '../../src/engine/ir';
import { compileKeyBoundPage, compilePageQuery, KEY_BOUND_SLACK } from '../../src/engine/table-query';
import { openTestDuckDb, type TestDuckDb } from './duckdb';

let db: TestDuckDb;
beforeAll(async () => {
  db = await openTestDuckDb();
  await db.exec('CREATE SCHEMA IF NOT EXISTS static');
});
afterAll(() => db.close());

const query = (name: string, page: number, pageSize: number, extra: Partial<TableQuery> = {}): TableQuery => ({
  source: { kind: 'table', schema: 'static', name },
  columns: [{ columnKey: 'v', type: 'Number' }],
  rowKey: '_row_id',
  select: ['_row_id', 'v'],
  filterGroups: [],
  sorting: [],
  page: { page, pageSize },
  ...extra,
});

describe('compileKeyBoundPage', () => {
  it('bounds the row key by the page end and the slack for deleted rows, in row-key order, limited and offset as the page', () => {
    const compiled = compileKeyBoundPage(query('t', 3, 25));
    expect(compiled?.sql.replace(/\s+/g, ' ')).toBe(
      'SELECT "_row_id", "v" FROM "static"."t" WHERE "_row_id" <= 2123 ORDER BY "_row_id" ASC NULLS LAST LIMIT 25 OFFSET 50',
    );
    expect(compiled?.parameters).toEqual([]);
  });

  it('has no bound for a filtered or sorted page, or a relation without a row key', () => {
    const filter = { filters: [{ columnKey: 'v', operator: 'Exists' as const }] };
    expect(compileKeyBoundPage(query('t', 1, 10, { filterGroups: [filter] }))).toBeNull();
    expect(compileKeyBoundPage(query('t', 1, 10, { sorting: [{ columnKey: 'v' }] }))).toBeNull();
    expect(compileKeyBoundPage(query('t', 1, 10, { rowKey: null, select: ['v'] }))).toBeNull();
    // An empty filter group filters nothing.
    expect(compileKeyBoundPage(query('t', 1, 10, { filterGroups: [{ filters: [] }] }))).not.toBeNull();
  });

  it('refuses the pages the plain page refuses', () => {
    expect(() => compileKeyBoundPage(query('t', 0, 10))).toThrow(/Page must be a whole number from 1/);
    expect(() => compileKeyBoundPage(query('t', 1, 0))).toThrow(/Page size must be a whole number from 1/);
  });
});

describe('a key-bound page on DuckDB', () => {
  it('comes back full exactly when it is the plain page, for any keys: gaps, negatives, NULLs, any stored order', async () => {
    let table = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uniqueArray(fc.integer({ min: -20, max: 120 + KEY_BOUND_SLACK }), { maxLength: 60 }),
          // 1..n stored in any order, as a table whose rows were renumbered.
          fc.integer({ min: 0, max: 60 }).chain((n) =>
            fc.shuffledSubarray(
              Array.from({ length: n }, (_, i) => i + 1),
              { minLength: n },
            ),
          ),
        ),
        fc.nat({ max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 25 }),
        async (keys, nulls, page, pageSize) => {
          table += 1;
          const name = `k_${table}`;
          const values = [...keys.map(String), ...Array.from({ length: nulls }, () => 'NULL')];
          await db.exec(
            `CREATE TABLE static.${name} (_row_id BIGINT, v INTEGER);` +
              (values.length > 0
                ? `INSERT INTO static.${name} VALUES ${values.map((k, i) => `(${k}, ${i})`).join(', ')}`
                : ''),
          );
          const plain = await db.all(compilePageQuery(query(name, page, pageSize)));
          const bounded = await db.all(compileKeyBoundPage(query(name, page, pageSize))!);
          if (bounded.length === pageSize) expect(bounded).toEqual(plain);
          // Enough keys within the bound (keys 1..n, or with fewer gaps than the slack): found by it.
          const within = keys.filter((k) => k <= page * pageSize + KEY_BOUND_SLACK).length;
          if (within >= page * pageSize) expect(bounded.length).toBe(pageSize);
          await db.exec(`DROP TABLE static.${name}`);
        },
      ),
      { numRuns: 150 },
    );
  });
});
