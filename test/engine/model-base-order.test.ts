import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModelPageInBaseOrder } from '../../src/engine/model';
import type { ModelSourceSpec, ModelSpec, SourceRef } from '../../src/engine/model';
import { KEY_BOUND_SLACK } from '../../src/engine/table-query';
import { openTestDuckDb, type TestDuckDb } from './duckdb';

const BASE: SourceRef = { sourceId: 'b', sourceType: 'StaticTable' };
const RIGHT: SourceRef = { sourceId: 'r', sourceType: 'StaticTable' };
const SOURCES: ModelSourceSpec[] = [
  {
    ...BASE,
    relation: { kind: 'table', schema: 'bo', name: 'base' },
    rowKey: '_row_id',
    columns: [
      { columnKey: 'k', type: 'Number' },
      { columnKey: 'v', type: 'Number' },
    ],
  },
  {
    ...RIGHT,
    relation: { kind: 'table', schema: 'bo', name: 'right' },
    rowKey: '_row_id',
    columns: [
      { columnKey: 'k', type: 'Number' },
      { columnKey: 'w', type: 'Text' },
    ],
  },
];

function spec(joinType: 'LeftOuter' | 'Inner' | 'FullOuter', filterOn: 'v' | 'w' | null): ModelSpec {
  return {
    sources: SOURCES,
    columns: [
      { columnKey: 'mk', displayName: 'K', order: 0, sourceColumn: { ...BASE, columnKey: 'k' } },
      { columnKey: 'mv', displayName: 'V', order: 1, sourceColumn: { ...BASE, columnKey: 'v' } },
      { columnKey: 'mw', displayName: 'W', order: 2, sourceColumn: { ...RIGHT, columnKey: 'w' } },
    ],
    joins: [
      {
        leftTable: BASE,
        rightTable: RIGHT,
        joinType,
        joinGroups: [{ conditions: [{ leftColumnKey: 'k', operator: 'Equals', rightColumnKey: 'k' }] }],
      },
    ],
    filterGroups:
      filterOn === null ? [] : [{ filters: [{ columnKey: filterOn === 'v' ? 'mv' : 'mw', operator: 'Exists' }] }],
    sort: [],
  };
}

let db: TestDuckDb;
beforeAll(async () => {
  db = await openTestDuckDb();
  // 300 base rows (some v null), right rows with duplicate, missing and unmatched keys.
  await db.exec(`
    CREATE SCHEMA bo;
    CREATE TABLE bo.base AS SELECT range + 1 AS _row_id, (range * 7) % 40 AS k,
      CASE WHEN range % 9 = 0 THEN NULL ELSE range END AS v FROM range(300);
    CREATE TABLE bo.right AS SELECT range + 1 AS _row_id, (range * 3) % 50 AS k, 'w' || range AS w FROM range(60);
  `);
});
afterAll(() => db.close());

/** The same rows as a person would page them: ordered by the base key, the right key, then values. */
function reference(where: string, offset: number, limit: number) {
  return db.all({
    sql:
      `SELECT b.k AS mk, b.v AS mv, r.w AS mw FROM bo.base b LEFT JOIN bo.right r ON b.k = r.k ${where} ` +
      `ORDER BY b._row_id, r._row_id NULLS LAST, mk, mv, mw LIMIT ${limit} OFFSET ${offset}`,
    parameters: [],
  });
}

describe('unsorted model pages in base-table order', () => {
  it('give exactly the rows of the full join, page by page, reading only the first base rows', async () => {
    for (const [filterOn, where] of [
      [null, ''],
      ['v', 'WHERE b.v IS NOT NULL'],
    ] as const) {
      for (const offset of [0, 7, 100, 250, 400]) {
        const compiled = compileModelPageInBaseOrder(spec('LeftOuter', filterOn), { offset, limit: 25 });
        expect(compiled).not.toBeNull();
        expect(compiled!.sql).toContain(`LIMIT ${offset + 25}`);
        expect(await db.all(compiled!)).toEqual(await reference(where, offset, 25));
      }
    }
  });

  it('read within the base key bound, give the same page whenever it comes back full, and come back full on keys with few gaps', async () => {
    // The same base rows, once with keys 1..300 and once with 150 keys moved past the bound's slack.
    await db.exec(`CREATE TABLE bo.gapped AS SELECT CASE WHEN _row_id > 150 THEN _row_id + ${KEY_BOUND_SLACK + 500}
      ELSE _row_id END AS _row_id, k, v FROM bo.base`);
    const onGapped = (s: ModelSpec): ModelSpec => ({
      ...s,
      sources: s.sources.map((source) =>
        source.sourceId === 'b' ? { ...source, relation: { kind: 'table', schema: 'bo', name: 'gapped' } } : source,
      ),
    });
    for (const [filterOn, where] of [
      [null, ''],
      ['v', 'WHERE b.v IS NOT NULL'],
    ] as const) {
      for (const offset of [0, 7, 100, 250, 400]) {
        const page = { offset, limit: 25 };
        const expected = await reference(where, offset, 25);
        const dense = compileModelPageInBaseOrder(spec('LeftOuter', filterOn), page, { keyBound: true });
        expect(dense!.sql).toContain(`<= ${offset + 25 + KEY_BOUND_SLACK}`);
        const denseRows = await db.all(dense!);
        if (expected.length === 25) expect(denseRows).toEqual(expected);
        const gapped = await db.all(
          compileModelPageInBaseOrder(onGapped(spec('LeftOuter', filterOn)), page, { keyBound: true })!,
        );
        if (gapped.length === 25) expect(gapped).toEqual(expected);
        else expect(offset).toBeGreaterThanOrEqual(100);
      }
    }
    await db.exec('DROP TABLE bo.gapped');
  });

  it('order by the row keys alone when every source has one, and by the columns too when a joined source has none', async () => {
    const page = { offset: 7, limit: 25 };
    const keyed = compileModelPageInBaseOrder(spec('LeftOuter', null), page)!;
    expect(keyed.sql).toMatch(/ORDER BY "s1"\."_row_id" ASC NULLS LAST, "s2"\."_row_id" ASC NULLS LAST\s+LIMIT/);
    expect(await db.all(keyed)).toEqual(await reference('', 7, 25));
    const rightKeyless: ModelSpec = {
      ...spec('LeftOuter', null),
      sources: SOURCES.map((s) => (s.sourceId === 'r' ? { ...s, rowKey: null } : s)),
    };
    const tied = compileModelPageInBaseOrder(rightKeyless, page)!;
    expect(tied.sql).toContain('"s2"."w" ASC NULLS LAST');
    const byColumns = await db.all({
      sql: 'SELECT b.k AS mk, b.v AS mv, r.w AS mw FROM bo.base b LEFT JOIN bo.right r ON b.k = r.k ORDER BY b._row_id, mk, mv, mw LIMIT 25 OFFSET 7',
      parameters: [],
    });
    expect(await db.all(tied)).toEqual(byColumns);
  });

  it('are not offered when a join or a filter could drop base rows', () => {
    expect(compileModelPageInBaseOrder(spec('Inner', null), { offset: 0, limit: 10 })).toBeNull();
    expect(compileModelPageInBaseOrder(spec('LeftOuter', 'w'), { offset: 0, limit: 10 })).toBeNull();
    const keyless = { ...spec('LeftOuter', null), sources: SOURCES.map((s) => ({ ...s, rowKey: null })) };
    expect(compileModelPageInBaseOrder(keyless, { offset: 0, limit: 10 })).toBeNull();
  });
});
