import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderForDisplay } from '../../src/engine/display';
import { DuckDbDialect } from '../../src/engine/dialects/duckdb';
import type { DialectCapabilities } from '../../src/engine/dialect';
import type { SortSpec, TableQuery } from '../../src/engine/ir';
import type { ResultRow } from '../../src/engine/sql';
import { compileCountQuery, compilePageQuery } from '../../src/engine/table-query';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { createFixture, ids, tableQuery } from './fixture';

/** DuckDB with the keys-first page shape on every page, so small tables exercise it too. */
class KeysFirstDuckDb extends DuckDbDialect {
  override readonly capabilities: DialectCapabilities = { nativeLateMaterializationRows: 0, filteredPlainRows: 0 };
}
const keysFirst = new KeysFirstDuckDb();

let db: TestDuckDb;

beforeAll(async () => {
  db = await openTestDuckDb();
  await createFixture(db);
  // 300 rows with many ties and nulls in every sortable column.
  await db.exec(`CREATE TABLE static.t_pages AS SELECT i::INTEGER AS _row_id, (i % 4)::INTEGER AS grp,
    CASE WHEN i % 7 = 0 THEN NULL ELSE ((i * 37) % 11)::DOUBLE END AS val,
    CASE WHEN i % 9 = 0 THEN NULL ELSE 'L' || (i % 5)::VARCHAR END AS label FROM range(1, 301) r(i)`);
});
afterAll(() => db.close());

describe('sorting on DuckDB', () => {
  it.each<[string, SortSpec[], number[]]>([
    ['amount descending, nulls last', [{ columnKey: 'amount', direction: 'Descending' }], [5, 7, 1, 8, 6, 3, 2, 4]],
    ['amount ascending, nulls last', [{ columnKey: 'amount', direction: 'Ascending' }], [2, 3, 6, 8, 1, 7, 5, 4]],
    [
      'active, then name descending',
      [{ columnKey: 'active' }, { columnKey: 'name', direction: 'Descending' }],
      [2, 7, 5, 6, 1, 8, 4, 3],
    ],
    ['active alone, ties by row key', [{ columnKey: 'active' }], [2, 5, 7, 1, 4, 6, 8, 3]],
    ['seen descending', [{ columnKey: 'seen', direction: 'Descending' }], [8, 3, 2, 1, 7, 5, 6, 4]],
    ['tags (lists)', [{ columnKey: 'tags' }], [2, 7, 8, 3, 6, 5, 1, 4]],
    ['the row key descending', [{ columnKey: '_row_id', direction: 'Descending' }], [8, 7, 6, 5, 4, 3, 2, 1]],
  ])('sorts by %s', async (_title, sorting, expected) => {
    expect(ids(await db.all(compilePageQuery(tableQuery({ sorting }))))).toEqual(expected);
    expect(ids(await db.all(compilePageQuery(tableQuery({ sorting }), { dialect: keysFirst })))).toEqual(expected);
  });

  it('pages by 3 through a sorted table, plain and keys first, without repeats or gaps', async () => {
    for (const dialect of [undefined, keysFirst]) {
      const seen: number[] = [];
      for (let page = 1; page <= 4; page += 1) {
        const query = tableQuery({
          sorting: [{ columnKey: 'amount', direction: 'Descending' }],
          page: { page, pageSize: 3 },
        });
        seen.push(...ids(await db.all(compilePageQuery(query, { dialect }))));
      }
      expect(seen).toEqual([5, 7, 1, 8, 6, 3, 2, 4]);
    }
  });

  it('returns the selected columns, named by their keys, in order', async () => {
    const query = tableQuery({ select: ['name', 'born', '_row_id', 'tags'], page: { page: 1, pageSize: 1 } });
    const rows = await db.all(compilePageQuery(query, { dialect: keysFirst }));
    expect(rows).toEqual([{ name: 'Alice', born: '1990-01-15', _row_id: 1, tags: ['red', 'blue'] }]);
    expect(Object.keys(rows[0]!)).toEqual(['name', 'born', '_row_id', 'tags']);
  });
});

const PAGES_COLUMNS = ['grp', 'val', 'label'] as const;

function pagesQuery(sorting: SortSpec[], rowKey: boolean, minVal: number | null, pageSize: number): TableQuery {
  return {
    source: { kind: 'table', schema: 'static', name: 't_pages' },
    columns: [
      { columnKey: 'grp', type: 'Number' },
      { columnKey: 'val', type: 'Number' },
      { columnKey: 'label', type: 'Text' },
    ],
    rowKey: rowKey ? '_row_id' : null,
    select: rowKey ? ['_row_id', ...PAGES_COLUMNS] : [...PAGES_COLUMNS],
    filterGroups:
      minVal === null ? [] : [{ filters: [{ columnKey: 'val', operator: 'GreaterThanOrEquals', value: minVal }] }],
    sorting,
    page: { page: 1, pageSize },
  };
}

/** Nulls last in both directions; text by code unit, which matches DuckDB's byte order for ASCII. */
function compareBy(sorting: SortSpec[], a: ResultRow, b: ResultRow): number {
  for (const sort of sorting) {
    const x = a[sort.columnKey];
    const y = b[sort.columnKey];
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    const order = (x as number | string) < (y as number | string) ? -1 : 1;
    return sort.direction === 'Descending' ? -order : order;
  }
  return 0;
}

describe('paging property', () => {
  it('concatenated pages equal the whole sorted result, for any sort, page size and shape', async () => {
    const sortArb = fc
      .subarray([...PAGES_COLUMNS, '_row_id'])
      .chain((keys) =>
        fc.tuple(
          ...keys.map((key) =>
            fc.constantFrom<SortSpec>({ columnKey: key }, { columnKey: key, direction: 'Descending' }),
          ),
        ),
      );
    await fc.assert(
      fc.asyncProperty(
        sortArb,
        fc.integer({ min: 7, max: 70 }),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.integer({ min: 0, max: 10 })),
        async (sortTuple, pageSize, rowKey, forceKeysFirst, minVal) => {
          const sorting = [...sortTuple].filter((sort) => rowKey || sort.columnKey !== '_row_id');
          const dialect = forceKeysFirst ? keysFirst : undefined;
          const all = await db.all(compilePageQuery(pagesQuery(sorting, rowKey, minVal, 1000), { dialect }));
          const [{ count }] = (await db.all(compileCountQuery(pagesQuery(sorting, rowKey, minVal, 1)))) as [
            { count: string },
          ];
          expect(all).toHaveLength(Number(count));

          const pages: ResultRow[] = [];
          for (let page = 1; ; page += 1) {
            const query = { ...pagesQuery(sorting, rowKey, minVal, pageSize), page: { page, pageSize } };
            const rows = await db.all(compilePageQuery(query, { dialect }));
            pages.push(...rows);
            if (rows.length < pageSize) break;
          }
          expect(pages).toEqual(all);
          for (let index = 1; index < all.length; index += 1) {
            expect(compareBy(sorting, all[index - 1]!, all[index]!)).toBeLessThanOrEqual(0);
          }
          if (rowKey) expect(new Set(ids(all)).size).toBe(all.length);
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);

  it('runs the display form of a deep keys-first page to the same rows', async () => {
    const query = {
      ...pagesQuery([{ columnKey: 'label', direction: 'Descending' }], true, 3, 20),
      page: { page: 4, pageSize: 20 },
    };
    const compiled = compilePageQuery(query, { dialect: keysFirst });
    expect(compiled.sql).toContain('IN (\n  SELECT');
    expect(await db.all({ sql: renderForDisplay(compiled), parameters: [] })).toEqual(await db.all(compiled));
  });
});
