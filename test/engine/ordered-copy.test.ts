import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../src/engine/errors';
import type { FilterGroupSpec, SortSpec, TableQuery } from '../../src/engine/ir';
import { compileCopyPage, compileOrderedCopy, type CopyLocation } from '../../src/engine/ordered-copy';
import { compileCountQuery, compilePageQuery } from '../../src/engine/table-query';
import { openTestDuckDb, type TestDuckDb } from './duckdb';
import { createFixture, tableQuery } from './fixture';

const lines = (...parts: string[]): string => parts.join('\n');
const COPY: CopyLocation = { schema: 'ordered_copies', name: 'o_test' };

describe('golden SQL of ordered copies', () => {
  it('numbers the filtered rows in the sort order, then by the row key, and stores them by position', () => {
    const query = tableQuery({
      select: ['_row_id', 'name', 'amount'],
      filterGroups: [{ filters: [{ columnKey: 'name', operator: 'Contains', value: 'li' }] }],
      sorting: [{ columnKey: 'amount', direction: 'Descending' }],
    });
    expect(compileOrderedCopy(query)).toEqual({
      select: {
        sql: lines(
          'SELECT',
          '  row_number() OVER (ORDER BY "amount" DESC NULLS LAST, "_row_id" ASC NULLS LAST) AS "_pos",',
          '  "_row_id",',
          '  "name",',
          '  "amount"',
          'FROM "static"."t_fixture"',
          'WHERE contains(lower(CAST("name" AS VARCHAR)), lower($1))',
          'ORDER BY "_pos" ASC NULLS LAST',
        ),
        parameters: ['li'],
      },
      columns: ['_row_id', 'name', 'amount'],
      position: '_pos',
    });
  });

  it('pages a copy by a range of positions, bound as parameters', () => {
    const page = compileCopyPage(COPY, { columns: ['_row_id', 'name'], position: '_pos' }, { page: 3, pageSize: 100 });
    expect(page).toEqual({
      sql: lines(
        'SELECT',
        '  "_row_id",',
        '  "name"',
        'FROM "ordered_copies"."o_test"',
        'WHERE ("_pos" BETWEEN CAST($1 AS BIGINT) AND CAST($2 AS BIGINT))',
        'ORDER BY "_pos" ASC NULLS LAST',
      ),
      parameters: [201, 300],
    });
  });

  it('picks another position name when a selected column already has it', () => {
    const query: TableQuery = {
      ...tableQuery(),
      columns: [
        { columnKey: '_pos', type: 'Number' },
        { columnKey: '_pos_1', type: 'Text' },
      ],
      select: [],
    };
    const copy = compileOrderedCopy(query);
    expect(copy.position).toBe('_pos_2');
    expect(copy.columns).toEqual(['_pos', '_pos_1']);
    expect(copy.select.sql).toContain('AS "_pos_2"');
  });

  it('refuses what a page query refuses, as model errors', () => {
    const unknownSort = tableQuery({ sorting: [{ columnKey: 'nope' }] });
    expect(() => compileOrderedCopy(unknownSort)).toThrow(ModelError);
    const unknownFilter = tableQuery({ filterGroups: [{ filters: [{ columnKey: 'nope', operator: 'Empty' }] }] });
    expect(() => compileOrderedCopy(unknownFilter)).toThrow(/Unknown column "nope"/);
    const shape = { columns: ['_row_id'], position: '_pos' };
    for (const page of [
      { page: 0, pageSize: 10 },
      { page: 1, pageSize: 0 },
      { page: 1.5, pageSize: 10 },
      { page: Number.MAX_SAFE_INTEGER, pageSize: 10 },
    ]) {
      expect(() => compileCopyPage(COPY, shape, page), JSON.stringify(page)).toThrow(ModelError);
    }
  });

  it('quotes the copy name and refuses NUL in it', () => {
    const shape = { columns: ['_row_id'], position: '_pos' };
    const page = compileCopyPage({ schema: 'x"y', name: 'o"; DROP TABLE t; --' }, shape, { page: 1, pageSize: 1 });
    expect(page.sql).toContain('FROM "x""y"."o""; DROP TABLE t; --"');
    expect(() => compileCopyPage({ schema: 'a', name: 'b\0' }, shape, { page: 1, pageSize: 1 })).toThrow(ModelError);
  });
});

let db: TestDuckDb;

beforeAll(async () => {
  db = await openTestDuckDb();
  await createFixture(db);
  // 3,000 rows with ties and nulls in every sortable column, deep enough for the keys-first page shape.
  await db.exec(`CREATE TABLE static.t_many AS SELECT i::INTEGER AS _row_id, (i % 4)::INTEGER AS grp,
    CASE WHEN i % 7 = 0 THEN NULL ELSE ((i * 37) % 101)::DOUBLE END AS val,
    CASE WHEN i % 9 = 0 THEN NULL ELSE 'L' || (i % 13)::VARCHAR END AS label FROM range(1, 3001) r(i)`);
  await db.exec('CREATE SCHEMA copies');
});
afterAll(() => db.close());

let copies = 0;

/** Makes the copy of `query` in the test database, as the server does, and returns its location. */
async function makeCopy(
  query: TableQuery,
): Promise<{ location: CopyLocation; shape: ReturnType<typeof compileOrderedCopy> }> {
  const shape = compileOrderedCopy(query);
  copies += 1;
  const location = { schema: 'copies', name: `o_${copies}` };
  await db.exec(
    `CREATE TABLE copies.o_${copies} AS ${shape.select.sql}`,
    shape.select.parameters as (string | number)[],
  );
  return { location, shape };
}

const manyQuery = (filterGroups: FilterGroupSpec[], sorting: SortSpec[], rowKey = true): TableQuery => ({
  source: { kind: 'table', schema: 'static', name: 't_many' },
  columns: [
    { columnKey: 'grp', type: 'Number' },
    { columnKey: 'val', type: 'Number' },
    { columnKey: 'label', type: 'Text' },
  ],
  rowKey: rowKey ? '_row_id' : null,
  select: rowKey ? ['_row_id', 'grp', 'val', 'label'] : ['grp', 'val', 'label'],
  filterGroups,
  sorting,
  page: { page: 1, pageSize: 50 },
});

describe('ordered copies on DuckDB', () => {
  it('pages every column type of the fixture exactly like the plain query', async () => {
    const query = tableQuery({
      select: ['_row_id', 'name', 'amount', 'qty', 'active', 'born', 'seen', 'tags', 'meta', 'point', 'ref'],
      sorting: [{ columnKey: 'active' }, { columnKey: 'seen', direction: 'Descending' }],
    });
    const { location, shape } = await makeCopy(query);
    for (let page = 1; page <= 3; page += 1) {
      const paged = { ...query, page: { page, pageSize: 3 } };
      const fromCopy = await db.all(compileCopyPage(location, shape, paged.page));
      expect(fromCopy).toEqual(await db.all(compilePageQuery(paged)));
    }
    const [count] = await db.all(compileCountQuery(query));
    expect(await db.rows(`SELECT count(*)::INTEGER AS n FROM copies.${location.name}`)).toEqual([
      { n: Number(count?.count) },
    ]);
  });

  const filters: [string, FilterGroupSpec[]][] = [
    ['no filter', []],
    ['a range', [{ filters: [{ columnKey: 'val', operator: 'Between', value: 10, value2: 60 }] }]],
    [
      'two groups with Or and empties',
      [
        {
          filters: [
            { columnKey: 'label', operator: 'Contains', value: 'l1' },
            { columnKey: 'val', operator: 'Empty' },
          ],
        },
        { filters: [{ columnKey: 'grp', operator: 'NotEquals', value: 2 }] },
      ],
    ],
  ];
  const sorts: [string, SortSpec[]][] = [
    ['default order', []],
    ['val descending', [{ columnKey: 'val', direction: 'Descending' }]],
    ['label, then grp descending', [{ columnKey: 'label' }, { columnKey: 'grp', direction: 'Descending' }]],
  ];

  it.each(filters.flatMap(([f, groups]) => sorts.map(([s, sorting]) => [f, s, groups, sorting] as const)))(
    '%s, %s: every page at several sizes equals the plain page, and the row count the plain count',
    async (_f, _s, groups, sorting) => {
      const query = manyQuery(groups, sorting);
      const { location, shape } = await makeCopy(query);
      for (const pageSize of [7, 100, 1000]) {
        for (const page of [1, 2, 3, 5, Math.ceil(3000 / pageSize), Math.ceil(3000 / pageSize) + 1]) {
          const spec = { page, pageSize };
          const plain = await db.all(compilePageQuery({ ...query, page: spec }));
          expect(await db.all(compileCopyPage(location, shape, spec)), JSON.stringify(spec)).toEqual(plain);
        }
      }
      const [count] = await db.all(compileCountQuery(query));
      const [copied] = await db.rows(`SELECT count(*)::INTEGER AS n FROM copies.${location.name}`);
      expect(copied?.n).toBe(Number(count?.count));
    },
  );

  it('without a row key, breaks ties on every column like the plain query', async () => {
    const query = manyQuery([], [{ columnKey: 'label' }], false);
    const { location, shape } = await makeCopy(query);
    for (const page of [1, 4, 30]) {
      const spec = { page, pageSize: 100 };
      expect(await db.all(compileCopyPage(location, shape, spec))).toEqual(
        await db.all(compilePageQuery({ ...query, page: spec })),
      );
    }
  });

  it('binds filter values of any text as parameters: the copy holds exactly the rows the plain count finds', async () => {
    const pieces = ["'", '"', ';', '--', '%', '_', 'l1', 'L', '\\', ')', ' OR 1=1'];
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: fc.constantFrom(...pieces), minLength: 1, maxLength: 4 }), async (value) => {
        const query = manyQuery([{ filters: [{ columnKey: 'label', operator: 'Contains', value }] }], []);
        const { location, shape } = await makeCopy(query);
        expect(shape.select.parameters).toEqual([value]);
        const [count] = await db.all(compileCountQuery(query));
        const [copied] = await db.rows(`SELECT count(*)::INTEGER AS n FROM copies.${location.name}`);
        expect(copied?.n).toBe(Number(count?.count));
      }),
      { numRuns: 25 },
    );
  });
});
